"""The toolkit's layering, checked on every `make test`.

The rules are written once, as import-linter contracts in pyproject.toml's `[tool.importlinter]`.
This file runs them on the code, checks that they look at every module, and proves that each
contract catches a violation planted in a throw-away copy of the namespace: a contract nobody
has seen fail may be checking nothing (a folder grimp cannot see, an ignore that is too wide).
"""

from __future__ import annotations

import ast
import importlib.util
import itertools
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
CONFIG: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
    "tool"
]["importlinter"]
ROOTS: list[str] = CONFIG["root_packages"]
CONTRACTS: list[dict[str, Any]] = CONFIG["contracts"]
NAMESPACE = ROOTS[0].partition(".")[0]


@dataclass(frozen=True)
class LintRun:
    """What lint-imports said: each contract's verdict, and its report for failure messages."""

    kept: dict[str, bool]
    output: str

    @property
    def broken(self) -> set[str]:
        return {name for name, kept in self.kept.items() if not kept}


def lint(project: Path) -> LintRun:
    """Run `lint-imports` in `project` as a developer would there: its pyproject.toml, its
    code first on sys.path. No cache, so nothing is written into the repository and a stale
    graph never answers. The report is read wide so no contract name wraps."""
    env = {**os.environ, "COLUMNS": "10000", "NO_COLOR": "1", "PYTHONPATH": str(project)}
    result = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = result.stdout + result.stderr
    kept = {}
    for contract in CONTRACTS:
        verdict = re.search(
            rf"^{re.escape(contract['name'])} (KEPT|BROKEN)\b", output, re.MULTILINE
        )
        assert verdict, f"lint-imports gave no verdict on {contract['name']!r}:\n{output}"
        kept[contract["name"]] = verdict.group(1) == "KEPT"
    return LintRun(kept, output)


def test_the_code_keeps_every_layering_contract() -> None:
    run = lint(ROOT)
    assert run.broken == set(), run.output


def _modules_on_disk(package: str) -> Iterator[str]:
    """Every module file under `package`'s folders, named as Python imports it."""
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations, package
    for location in spec.submodule_search_locations:
        for path in Path(location).rglob("*.py"):
            parts = path.relative_to(location).with_suffix("").parts
            if all(part.isidentifier() for part in parts):
                module = ".".join((package, *parts))
                yield module.removesuffix(".__init__")


def test_the_linter_sees_every_module_of_the_toolkit() -> None:
    """grimp does not look into a folder without `__init__.py`, so that folder's modules would
    escape every contract (the assistant's stage subpackages, say, if one forgot its file)."""
    graph = grimp.build_graph(*ROOTS, cache_dir=None)
    on_disk = {module for package in ROOTS for module in _modules_on_disk(package)}
    unseen = sorted(on_disk - graph.modules)
    assert not unseen, (
        "modules import-linter cannot see (their folder lacks `__init__.py`):\n" + "\n".join(unseen)
    )


def _ignored_imports() -> list[tuple[str, str]]:
    """The imports the contracts let through (importer, imported), as `ignore_imports` says."""
    pairs = []
    for contract in CONTRACTS:
        for line in contract.get("ignore_imports", []):
            importer, imported = (module.strip() for module in line.split("->"))
            pairs.append((importer, imported))
    return pairs


def _layers(contract: dict[str, Any], container: str) -> list[list[str]]:
    """A `layers` contract's layers in `container`, top first, each the modules of one layer
    (its siblings, `a | b` or `a : b`), named in full."""
    return [
        [f"{container}.{name.strip()}" for name in re.split(r"[|:]", layer)]
        for layer in contract["layers"]
    ]


def _layer_modules() -> set[str]:
    """Every module a `layers` contract names as (part of) a layer."""
    return {
        module
        for contract in CONTRACTS
        if contract["type"] == "layers"
        for container in contract["containers"]
        for layer in _layers(contract, container)
        for module in layer
    }


def _named_by_contracts() -> set[str]:
    """The toolkit's modules the contracts name: the copy must have them all, or lint-imports
    stops at 'module does not exist' instead of judging."""
    named = {module for pair in _ignored_imports() for module in pair} | _layer_modules()
    for contract in CONTRACTS:
        named.update(contract.get("source_modules", ()), contract.get("forbidden_modules", ()))
    return {module for module in named if module.startswith(f"{NAMESPACE}.")}


class Mirror:
    """A throw-away copy of the namespace's shape in `tree`: the same roots under a
    `billing_toolkit` folder without `__init__.py`, an empty file for every module the
    contracts name, the imports they deliberately ignore, and pyproject.toml's contracts."""

    def __init__(self, tree: Path) -> None:
        self.tree = tree
        (tree / "pyproject.toml").write_bytes((ROOT / "pyproject.toml").read_bytes())
        for package in ROOTS:
            folder = tree.joinpath(*package.split("."))
            folder.mkdir(parents=True)
            (folder / "__init__.py").touch()
        for module in _layer_modules():
            # A layer is a package, so a plant may add modules inside it.
            self.file(f"{module}.__init__")
        for module in _named_by_contracts():
            self.file(module)
        for importer, imported in _ignored_imports():
            self.write(importer, f"import {imported}")

    def file(self, module: str) -> Path:
        """The file of `module` (a package's `__init__.py`), created with the packages around it."""
        namespace, *packages, name = module.split(".")
        folder = self.tree / namespace
        for part in packages:
            folder /= part
            folder.mkdir(exist_ok=True)
            (folder / "__init__.py").touch()
        if name != "__init__" and (folder / name).is_dir():
            return folder / name / "__init__.py"
        path = folder / f"{name}.py"
        path.touch()
        return path

    def write(self, module: str, code: str) -> None:
        """Append `code` to `module`, creating the toolkit's modules it imports: grimp drops an
        import of a module that does not exist, and the plant would test nothing."""
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported = [node.module]
            elif isinstance(node, ast.Import):
                imported = [alias.name for alias in node.names]
            else:
                continue
            for target in imported:
                if target.startswith(f"{NAMESPACE}."):
                    self.file(target)
        with self.file(module).open("a", encoding="utf-8") as handle:
            handle.write(f"{code}\n")


def _contract_of(source: str) -> str:
    (name,) = [
        contract["name"]
        for contract in CONTRACTS
        if contract["type"] == "forbidden" and source in contract["source_modules"]
    ]
    return name


def _layers_of(container: str) -> str:
    (name,) = [
        contract["name"]
        for contract in CONTRACTS
        if contract["type"] == "layers" and container in contract["containers"]
    ]
    return name


@dataclass(frozen=True)
class Violation:
    """Code planted in the copy (importer → its code), and the one contract that must break."""

    id: str
    plants: dict[str, str]
    breaks: str


def _every_upward_import(contract: dict[str, Any]) -> Iterator[Violation]:
    """In a `layers` contract, each module of a layer importing the layer right above it (the
    nearest, so the likeliest, wrong way), and each sibling of an independent layer (`a | b`)
    importing the next."""
    prefix = contract["name"].partition(":")[0]
    for container in contract["containers"]:
        layers = _layers(contract, container)
        upward = [(low, high[0]) for high, lows in itertools.pairwise(layers) for low in lows]
        across = [
            pair
            for layer, spec in zip(layers, contract["layers"], strict=True)
            if "|" in spec
            for pair in itertools.pairwise(layer)
        ]
        for importer, imported in upward + across:
            yield Violation(
                f"{prefix}:{importer}->{imported}",
                {importer: f"import {imported}"},
                contract["name"],
            )


def _every_forbidden_import() -> Iterator[Violation]:
    """Each contract's first source importing each of its forbidden modules directly, from a
    module of its own (the package's `__init__` would be a rarer place for it); each layer of
    a `layers` contract importing upwards."""
    for contract in CONTRACTS:
        if contract["type"] == "layers":
            yield from _every_upward_import(contract)
            continue
        source = contract["source_modules"][0]
        importer = f"{source}.planted" if source in ROOTS else source
        for forbidden in contract["forbidden_modules"]:
            yield Violation(
                f"{contract['name'].partition(':')[0]}->{forbidden}",
                {importer: f"import {forbidden}"},
                contract["name"],
            )


REALISTIC = [
    Violation(
        "client-borrows-the-fault-clock",
        {
            "billing_toolkit.client.retry": """
from billing_toolkit.simulator.faults.clock import ManualClock""",
        },
        _contract_of("billing_toolkit.client"),
    ),
    Violation(
        "kernel-reaches-the-dataset-through-a-helper",
        {
            "billing_toolkit.contract.document": "from billing_toolkit.contract import paths",
            "billing_toolkit.contract.paths": """
from billing_toolkit.simulator.state.info import dataset_info""",
        },
        _contract_of("billing_toolkit.contract"),
    ),
    Violation(
        "assistant-starts-a-simulator-inside-a-function",
        {
            "billing_toolkit.assistant.evaluation.runner": """
def local_run():
    from billing_toolkit.simulator import create_app""",
        },
        _contract_of("billing_toolkit.assistant"),
    ),
    Violation(
        "the-cli-door-reaches-past-the-simulator-seam",
        {
            "billing_toolkit.assistant.commands.local_simulator": """
from billing_toolkit.simulator.app import create_app""",
        },
        _contract_of("billing_toolkit.assistant"),
    ),
    Violation(
        "fault-registry-reaches-starlette-through-the-injector",
        {
            "billing_toolkit.simulator.faults.registry": """
from billing_toolkit.simulator.faults import inject""",
            "billing_toolkit.simulator.faults.inject": "from starlette.types import ASGIApp",
        },
        _contract_of("billing_toolkit.simulator.faults.registry"),
    ),
    Violation(
        "intent-rules-ask-the-turn-inside-a-function",
        {
            "billing_toolkit.assistant.understanding.keyword_classifier": """
def classify(message):
    from billing_toolkit.assistant.turn.person_request import asks_for_person""",
        },
        _layers_of("billing_toolkit.assistant"),
    ),
    Violation(
        "the-store-reaches-the-turn-through-its-model",
        {
            "billing_toolkit.assistant.store.sql": "from billing_toolkit.assistant.store import model",
            "billing_toolkit.assistant.store.model": """
from billing_toolkit.assistant.turn.pipeline import AssistantPipeline""",
        },
        _layers_of("billing_toolkit.assistant"),
    ),
]
"""Violations as they would be written, each through a door the direct plants above do not
try: a namespace subpackage, a chain through the package's own modules, an import inside a
function, the one ignored import widened, a chain to an external package, the assistant's old
turn ↔ understanding cycle dodged inside a function, a stage reaching up through a sibling."""


def test_the_bare_copy_keeps_every_contract(tmp_path: Path) -> None:
    """The control for the test below: without a planted import nothing breaks, so a broken
    contract there is the plant's doing (and the ignored imports match, or lint-imports would
    refuse them)."""
    run = lint(Mirror(tmp_path).tree)
    assert run.broken == set(), run.output


@pytest.mark.parametrize(
    "violation", [*_every_forbidden_import(), *REALISTIC], ids=lambda violation: violation.id
)
def test_each_contract_catches_its_violation(tmp_path: Path, violation: Violation) -> None:
    mirror = Mirror(tmp_path)
    for importer, code in violation.plants.items():
        mirror.write(importer, code)
    run = lint(mirror.tree)
    assert run.broken == {violation.breaks}, run.output
