"""What the distributions really put on a user's machine, and what static tools see of them.

Each top-level package folder is a distribution of its own (`<folder>/pyproject.toml`, code in
`<folder>/src/billing_toolkit/<folder>/`), so every wheel claims only its own subpackage of the
`billing_toolkit` namespace, ships `py.typed`, and the SDK installs alone with its own
dependencies. The wheels are built and read; the SDK's two wheels are installed in a clean
virtualenv, made to call a simulator served by the full install, and type-checked by mypy from
outside, as a user's project would see them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from email.message import Message
from email.parser import Parser
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from billing_toolkit.client import Balance
from billing_toolkit.pytest_plugin import BillingSim

ROOT = Path(__file__).resolve().parents[2]
NAMESPACE = "billing_toolkit"
SHIPPED_SUFFIXES = {".py", ".yaml", ".md", ".html", ".css", ".js", ".txt", ".typed"}
"""Modules and the package data the code reads at run time (the contract, the knowledge
base, the scenarios, the consoles' templates and assets), and the `py.typed` marker."""
SDK = ("contract", "client")
"""The folders whose distributions make up the SDK (`billing-toolkit-client` and the kernel)."""


def _folders() -> list[str]:
    """The distribution folders, as the Makefile installs them (`DISTRIBUTIONS := …`)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    match = re.search(r"^DISTRIBUTIONS := (.+)$", makefile, re.MULTILINE)
    assert match, "the Makefile names its distributions"
    return match.group(1).split()


FOLDERS = _folders()


def run(argv: list[str | Path], cwd: Path, timeout: float) -> str:
    """Run a command outside this venv's influence (no PYTHONPATH, no VIRTUAL_ENV) and return
    its stdout; fail the test with its stderr otherwise."""
    env = {
        k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"}
    }
    result = subprocess.run(
        [str(arg) for arg in argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert result.returncode == 0, (
        f"{argv[:4]} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    )
    return result.stdout


def test_every_package_folder_is_a_distribution_of_its_own() -> None:
    """The Makefile's list is every folder with a `pyproject.toml` (bar the meta root), each
    named `billing-toolkit-<folder>`, its code under `src/billing_toolkit/<folder>/`."""
    assert sorted(FOLDERS) == sorted(p.parent.name for p in ROOT.glob("*/pyproject.toml"))
    for folder in FOLDERS:
        project = tomllib.loads((ROOT / folder / "pyproject.toml").read_text(encoding="utf-8"))
        assert project["project"]["name"] == f"billing-toolkit-{folder.replace('_', '-')}"
        package = ROOT / folder / "src" / NAMESPACE / folder
        assert (package / "__init__.py").is_file() and (package / "py.typed").is_file(), folder
        assert not (ROOT / folder / "src" / NAMESPACE / "__init__.py").exists(), folder


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_bare_folder_name_does_not_import_from_the_repository_root(folder: str) -> None:
    """`import client` from a checkout would load a second copy of every module (a second
    `NotFoundError` class that `except` clauses miss): it refuses, naming the real import."""
    result = subprocess.run(
        [sys.executable, "-c", f"import {folder}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert f"import {NAMESPACE}.{folder}" in result.stderr.splitlines()[-1]


def test_the_installed_modules_are_the_src_files_and_no_import_hook_maps_them() -> None:
    """Each distribution is installed through a plain path entry (`<folder>/src`), the kind
    pyright, mypy and IDEs follow; an editable finder hook is something they cannot."""
    site = Path(next(p for p in sys.path if p.endswith("site-packages")))
    assert not list(site.glob(f"__editable__*{NAMESPACE}*finder.py"))
    for folder in FOLDERS:
        module = __import__(f"{NAMESPACE}.{folder}", fromlist=["_"])
        assert Path(module.__file__ or "").is_relative_to(ROOT / folder / "src"), folder


BUILD_WHEELS = """
import os, sys
from setuptools import build_meta
out, folders = sys.argv[1], sys.argv[2:]  # read first: a build rewrites sys.argv
for folder in folders:
    os.chdir(folder)
    build_meta.build_wheel(out)
    os.chdir("..")
"""
"""Each folder's wheel through its PEP 517 backend's own hook, what `pip wheel --no-deps
--no-build-isolation` calls: the same files, in one process (pip started a backend process
per folder, three times the time)."""


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every distribution's wheel, built once per module from copies of the folders (building in
    the work tree would leave `build/` there, whose stale files setuptools puts in the next
    wheel). Copying follows the kernel's links, so the wheel holds the contract's bytes."""
    source = tmp_path_factory.mktemp("source")
    for folder in FOLDERS:
        shutil.copytree(
            ROOT / folder,
            source / folder,
            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"),
        )
    out = tmp_path_factory.mktemp("wheels")
    run([sys.executable, "-c", BUILD_WHEELS, out, *FOLDERS], cwd=source, timeout=300)
    built = {folder: next(out.glob(f"billing_toolkit_{folder}-*.whl")) for folder in FOLDERS}
    assert len(list(out.glob("*.whl"))) == len(FOLDERS)
    return built


def _names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def _metadata(wheel: Path) -> Message:
    with zipfile.ZipFile(wheel) as archive:
        (path,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        return Parser().parsestr(archive.read(path).decode("utf-8"))


def _requirements(wheel: Path) -> set[str]:
    """The distribution's own (not an extra's) requirements, by canonical name."""
    requirements = [Requirement(line) for line in _metadata(wheel).get_all("Requires-Dist", [])]
    return {canonicalize_name(r.name) for r in requirements if r.marker is None}


@pytest.mark.parametrize("folder", FOLDERS)
def test_each_wheel_claims_only_its_own_subpackage_and_ships_all_of_it(
    wheels: dict[str, Path], folder: str
) -> None:
    """No `billing_toolkit/__init__.py` (an open PEP 420 namespace, so the wheels install side by
    side), nothing outside `billing_toolkit/<folder>/`, and every module and data file of the
    src tree inside: a file the package discovery misses would install a simulator without its
    scenarios or an assistant without its knowledge base, and only a real install would show it."""
    names = _names(wheels[folder])
    code = {n for n in names if ".dist-info/" not in n}
    assert code and all(n.startswith(f"{NAMESPACE}/{folder}/") for n in code), folder
    src = ROOT / folder / "src"
    shipped = {
        path.relative_to(src).as_posix()
        for path in (src / NAMESPACE).rglob("*")
        if path.suffix in SHIPPED_SUFFIXES and path.is_file() and "__pycache__" not in path.parts
    }
    assert f"{NAMESPACE}/{folder}/py.typed" in shipped
    missing = sorted(shipped - names)
    assert not missing, "not in the wheel (a folder without `__init__.py`?):\n" + "\n".join(missing)


def test_the_kernel_ships_the_contract_itself(wheels: dict[str, Path]) -> None:
    """`contract/openapi.yaml` stays where readers look for it; the kernel's wheel carries its
    bytes (and the released versions), not a link that would dangle in site-packages."""
    with zipfile.ZipFile(wheels["contract"]) as archive:
        shipped = archive.read(f"{NAMESPACE}/contract/openapi.yaml")
        released = archive.read(f"{NAMESPACE}/contract/released/openapi-1.0.0.yaml")
    assert shipped == (ROOT / "contract" / "openapi.yaml").read_bytes()
    assert released == (ROOT / "contract" / "released" / "openapi-1.0.0.yaml").read_bytes()


def test_the_sdk_distributions_need_only_their_own_libraries(wheels: dict[str, Path]) -> None:
    assert _requirements(wheels["contract"]) == {"pydantic", "pyyaml"}
    assert _requirements(wheels["client"]) == {
        "billing-toolkit-contract",
        "httpx",
        "pydantic",
        "sniffio",
    }


@pytest.fixture(scope="module")
def sdk_python(wheels: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh virtualenv (from the base interpreter, without system site-packages) holding the
    SDK's two wheels and their dependencies from the package index, nothing else."""
    venv = tmp_path_factory.mktemp("sdk-venv")
    base_python = getattr(sys, "_base_executable", sys.executable)
    # No pip of its own (bootstrapping one took 8 s): this venv's pip installs into it.
    run([base_python, "-m", "venv", "--without-pip", venv], cwd=venv, timeout=180)
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", python, "install",
           "--disable-pip-version-check", "-q", "--timeout", "60"]  # fmt: skip
    run([*pip, *(wheels[folder] for folder in SDK)], cwd=venv, timeout=600)
    yield python
    shutil.rmtree(venv, ignore_errors=True)


INSTALLED = """
import importlib.metadata, json
import billing_toolkit.client
print(json.dumps(sorted({d.metadata["Name"] for d in importlib.metadata.distributions()})))
"""


@pytest.mark.slow
def test_the_sdk_installs_alone(sdk_python: Path) -> None:
    """`pip install billing-toolkit-client` brings the kernel and four libraries: no web
    server, test framework, database driver or console script of the other distributions."""
    installed = {
        canonicalize_name(name)
        for name in json.loads(run([sdk_python, "-c", INSTALLED], sdk_python.parent, 120))
    }
    assert {"billing-toolkit-client", "billing-toolkit-contract", "httpx", "pydantic"} <= installed
    others = {f"billing-toolkit-{f.replace('_', '-')}" for f in FOLDERS if f not in SDK}
    heavy = {"starlette", "uvicorn", "schemathesis", "psycopg", "numpy", "faker", "pytest"}
    assert sorted(installed & (others | heavy)) == []
    scripts = {"billing-sim", "billing-contract", "billing-assistant"}
    assert sorted(p.name for p in sdk_python.parent.iterdir() if p.name in scripts) == []


BALANCE = """
import sys
from billing_toolkit.client import BillingClient
with BillingClient(sys.argv[1], sys.argv[2]) as billing:
    print(billing.get_balance(sys.argv[3]).model_dump_json())
"""


@pytest.mark.slow
@pytest.mark.billing_sim(shared=True)
def test_the_sdk_alone_reads_a_balance_from_the_simulator(
    sdk_python: Path, billing_sim_server: BillingSim
) -> None:
    """The SDK venv calls, over loopback, a simulator served by the full install here; its
    answer is the simulator's own, field by field (`as_of` is the instant of each reading)."""
    account = billing_sim_server.sample("open_invoice")["account_number"]
    response = billing_sim_server.http.get(f"/v1/customers/{account}/balance")
    assert response.status_code == 200, response.text
    printed = run(
        [sdk_python, "-c", BALANCE, billing_sim_server.url, billing_sim_server.api_key, account],
        sdk_python.parent,
        120,
    )
    read = Balance.model_validate_json(printed).model_dump(exclude={"as_of"})
    assert read == Balance.model_validate(response.json()).model_dump(exclude={"as_of"})


USER_CODE = """
from billing_toolkit.client import BillingClient, Timeouts

with BillingClient("http://127.0.0.1:8080", "key", timeouts=Timeouts()) as billing:
    reveal_type(billing.get_balance("1000004821"))
    billing.get_balance(1000004821)
BillingClient("http://127.0.0.1:8080", "key", retries=3)
"""


@pytest.mark.slow
def test_a_users_type_checker_sees_the_sdks_types(sdk_python: Path, tmp_path: Path) -> None:
    """mypy, run on a user's file against the SDK venv (PEP 561: `py.typed`), reads a balance as
    the pydantic `Balance` model, not `Any`, refuses an account number passed as an int, and
    knows the client's options by name (a misspelt one is an error, not swallowed by `**kw`)."""
    user = tmp_path / "bot.py"
    user.write_text(USER_CODE, encoding="utf-8")
    mypy = [sys.executable, "-m", "mypy", "--no-incremental", "--python-executable", sdk_python]
    result = subprocess.run(
        [str(arg) for arg in [*mypy, user]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    lines = result.stdout.splitlines()
    revealed = [line for line in lines if "Revealed type" in line]
    assert revealed and '"billing_toolkit.client.models.billing.Balance"' in revealed[0], lines
    assert any("bot.py:6: error" in line and "arg-type" in line for line in lines), lines
    assert any("bot.py:7: error" in line and "call-arg" in line for line in lines), lines
    assert not any("import-untyped" in line or "import-not-found" in line for line in lines)
