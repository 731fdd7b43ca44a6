"""One house style and checked types over the whole tree, on every `make test`.

`ruff format --check`, `ruff check` and pyright (strict for the kernel and the SDK, basic for the
rest, configured in pyproject.toml) run on the repository as a contributor's editor would see it.
Each check is also shown a planted fault it must report: a checker that cannot see the code
(an import it cannot resolve, a folder left out of its include list) passes everything.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
RUFF = BIN / "ruff"


def _pyright() -> Path:
    """The pinned pyright the Makefile installs into the venv (`PYRIGHT := …`)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    match = re.search(r"^PYRIGHT := \$\(VENV\)/(.+)$", makefile, re.MULTILINE)
    assert match, "the Makefile names its pyright"
    return Path(sys.prefix) / match.group(1)


def run(
    argv: list[str | Path], cwd: Path = ROOT, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(arg) for arg in argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def pyright(*paths: str | Path) -> dict[str, Any]:
    """pyright's JSON report, with the repository's configuration, on `paths` (or its include)."""
    result = run([_pyright(), "--outputjson", "--project", ROOT / "pyproject.toml", *paths])
    assert result.stdout.startswith("{"), result.stderr
    return json.loads(result.stdout)


def _lines(report: dict[str, Any]) -> list[str]:
    return [
        f"{Path(d['file']).relative_to(ROOT) if Path(d['file']).is_relative_to(ROOT) else d['file']}"
        f":{d['range']['start']['line'] + 1}: {d['severity']}: {d['message']} ({d.get('rule', '')})"
        for d in report["generalDiagnostics"]
    ]


@pytest.mark.slow
def test_pyright_reports_nothing_over_the_whole_tree() -> None:
    """0 errors and 0 warnings, every import resolved, in every folder the include names."""
    report = pyright()
    assert _lines(report) == []
    analyzed = report["summary"]["filesAnalyzed"]
    assert analyzed >= len(list(ROOT.glob("*/src/billing_toolkit/*/**/*.py"))), analyzed


PLANTED = """
from billing_toolkit.client import BillingClient
import billing_toolkit.client.no_such_module

with BillingClient("http://127.0.0.1:8080", "key") as billing:
    balance: int = billing.get_balance("1000004821")
"""


def test_pyright_catches_an_unresolved_import_and_a_wrong_type(tmp_path: Path) -> None:
    """The planted file imports a module that does not exist and assigns a balance to an int:
    both are reported, so the clean report above is pyright seeing the code, not skipping it."""
    planted = tmp_path / "planted.py"
    planted.write_text(PLANTED, encoding="utf-8")
    rules = {d.get("rule") for d in pyright(planted)["generalDiagnostics"]}
    assert {"reportMissingImports", "reportAssignmentType"} <= rules, rules


def test_the_tree_is_formatted_and_lint_clean() -> None:
    for argv in ([RUFF, "format", "--check", "."], [RUFF, "check", "."]):
        result = run(argv, timeout=120)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]


def test_ruff_reports_a_badly_formatted_and_a_lint_failing_file(tmp_path: Path) -> None:
    """With the repository's settings (line length 100), an unformatted file and an unused
    import are both reported: the clean verdict above is ruff reading the tree's settings."""
    planted = tmp_path / "planted.py"
    planted.write_text("import os\nx = {  'a':1 }\n", encoding="utf-8")
    config = ["--config", ROOT / "pyproject.toml"]
    assert run([RUFF, "format", "--check", *config, planted], cwd=tmp_path).returncode == 1
    lint = run([RUFF, "check", *config, planted], cwd=tmp_path)
    assert lint.returncode == 1 and "F401" in lint.stdout, lint.stdout


def _parameters(function: ast.FunctionDef, *, method: bool) -> dict[str, object]:
    arguments = function.args
    positional = arguments.args[1:] if method else arguments.args
    defaults = [None] * (len(positional) - len(arguments.defaults)) + arguments.defaults
    pairs = [*zip(positional, defaults), *zip(arguments.kwonlyargs, arguments.kw_defaults)]
    return {
        arg.arg: ast.literal_eval(default) if default is not None else inspect.Parameter.empty
        for arg, default in pairs
    }


def _stubbed_signatures(stub: Path) -> dict[str, dict[str, object]]:
    """Each function and method a stub declares (`name` or `Class.name`) → its parameters (but
    `self`) and their defaults."""
    found: dict[str, dict[str, object]] = {}
    for node in ast.parse(stub.read_text("utf-8")).body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = _parameters(node, method=False)
        elif isinstance(node, ast.ClassDef):
            for method in node.body:
                if isinstance(method, ast.FunctionDef):
                    found[f"{node.name}.{method.name}"] = _parameters(method, method=True)
    return found


def stub_mismatches(stub: Path, module: ModuleType) -> list[str]:
    """What a stub says that the installed library is not: a parameter it lacks, or another
    default."""
    wrong: list[str] = []
    for name, parameters in _stubbed_signatures(stub).items():
        target: Any = module
        for part in name.split("."):
            target = getattr(target, part)
        real = inspect.signature(target).parameters
        if {p: real[p].default for p in parameters if p in real} != parameters:
            wrong.append(name)
    return wrong


STUBS = sorted((ROOT / "typings").rglob("*.pyi"))
CHECKED_WITH_THE_MODEL = frozenset({"sentence_transformers", "transformers"})
"""Stubs of libraries that import torch (8–11 s each time): held to the library in
`tests/retrieval/test_minilm_onnx.py`, whose process loads both for its reference anyway."""


def stub_module(stub: Path) -> str:
    """The module a stub under `typings/` describes (`sklearn/pipeline.pyi`: `sklearn.pipeline`)."""
    return ".".join(stub.relative_to(ROOT / "typings").with_suffix("").parts).removesuffix(
        ".__init__"
    )


def library_mismatches(stub: Path) -> list[str]:
    """`stub_mismatches` against the installed module the stub describes."""
    return stub_mismatches(stub, importlib.import_module(stub_module(stub)))


def stubs(with_the_model: bool) -> list[Path]:
    """The stubs checked with the model loaded (`CHECKED_WITH_THE_MODEL`), or the others."""
    return [
        stub for stub in STUBS if (stub_module(stub) in CHECKED_WITH_THE_MODEL) == with_the_model
    ]


def test_every_stub_is_held_to_its_library_somewhere() -> None:
    modules = {stub_module(stub) for stub in STUBS}
    assert CHECKED_WITH_THE_MODEL <= modules  # a stub removed: the list must follow


@pytest.mark.parametrize("stub", stubs(with_the_model=False), ids=stub_module)
def test_every_stub_matches_the_installed_library(stub: Path) -> None:
    """The local stubs (`typings/`) spare pyright from binding all of `transformers`,
    scikit-learn and SciPy; they may only say what the library really is: every stubbed
    parameter exists, with its default."""
    assert library_mismatches(stub) == []


def test_a_stub_that_misstates_the_library_is_caught(tmp_path: Path) -> None:
    import sklearn.pipeline

    stub = tmp_path / "pipeline.pyi"
    stub.write_text(
        "class Pipeline:\n    def fit(self, X, y=1) -> None: ...\n"
        "def make_pipeline(*steps, memory=None, cache=True) -> None: ...\n",
        encoding="utf-8",
    )
    assert stub_mismatches(stub, sklearn.pipeline) == ["Pipeline.fit", "make_pipeline"]
