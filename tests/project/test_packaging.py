"""What `pip install billing-toolkit` really puts on a user's machine.

The issue: nothing installs a generic top-level name (everything lives under the
`billing_toolkit` namespace), and the SDK installs with its own dependencies only, the
simulator, conformance kit, assistant, Postgres and embeddings being extras. So the wheel is
built and read, and the SDK alone is installed in a clean virtualenv and made to call a
simulator served by the full install.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
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
BUILD_FILES = ("setup.py", "pyproject.toml", "README.md")
SHIPPED_SUFFIXES = {".py", ".yaml", ".md", ".html", ".css", ".js", ".txt"}
"""Modules and the package data the code reads at run time (the contract, the knowledge
base, the scenarios, each folder's README, the agents' inbox's templates and assets)."""


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


def _package_folders() -> list[Path]:
    """The folders setup.py maps under the namespace, read from its `FOLDERS`."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    (folders,) = [
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(getattr(t, "id", None) == "FOLDERS" for t in node.targets)
    ]
    return [ROOT / name for name in folders]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built once per module from a copy of exactly what the build reads: building
    in the work tree would leave `build/` there, whose stale files setuptools puts in the next
    wheel, and two concurrent runs would share it."""
    source = tmp_path_factory.mktemp("source")
    for name in BUILD_FILES:
        shutil.copy2(ROOT / name, source / name)
    for folder in _package_folders():
        shutil.copytree(folder, source / folder.name, ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("wheel")
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--disable-pip-version-check",
            "-q",
            "-w",
            out,
            source,
        ],
        cwd=source,
        timeout=300,
    )
    (built,) = out.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def wheel_files(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def _dist_info(wheel: Path, name: str) -> str:
    with zipfile.ZipFile(wheel) as archive:
        (path,) = [
            n
            for n in archive.namelist()
            if n.split("/")[0].endswith(".dist-info") and n.endswith(f"/{name}")
        ]
        return archive.read(path).decode("utf-8")


@pytest.fixture(scope="module")
def metadata(wheel: Path) -> Message:
    return Parser().parsestr(_dist_info(wheel, "METADATA"))


def _requirements(metadata: Message) -> list[Requirement]:
    return [Requirement(line) for line in metadata.get_all("Requires-Dist", [])]


def test_the_wheel_installs_one_namespace_and_nothing_else(wheel_files: set[str]) -> None:
    top_level = {name.split("/")[0] for name in wheel_files}
    assert {name for name in top_level if not name.endswith(".dist-info")} == {NAMESPACE}
    assert len(top_level) == 2, top_level


def test_the_namespace_is_open(wheel_files: set[str]) -> None:
    """No `billing_toolkit/__init__.py`: a PEP 420 namespace, as setup.py lays it out, so the
    wheel claims only its own subpackages."""
    assert f"{NAMESPACE}/__init__.py" not in wheel_files
    assert {
        f"{NAMESPACE}/{folder.name}/__init__.py" for folder in _package_folders()
    } <= wheel_files


def test_the_wheel_ships_every_module_and_data_file(wheel_files: set[str]) -> None:
    """Every module and data file of the package folders is in the wheel: a folder the
    package discovery misses would install a simulator without its fault rules or an
    assistant without its knowledge base, and only a non-editable install would show it."""
    shipped = {
        f"{NAMESPACE}/{path.relative_to(ROOT).as_posix()}"
        for folder in _package_folders()
        for path in folder.rglob("*")
        if path.suffix in SHIPPED_SUFFIXES and "__pycache__" not in path.parts
    }
    assert f"{NAMESPACE}/contract/openapi.yaml" in shipped
    assert any(
        name.startswith(f"{NAMESPACE}/assistant/knowledge/") and name.endswith(".md")
        for name in shipped
    )
    missing = sorted(shipped - wheel_files)
    assert not missing, "not in the wheel (a folder without `__init__.py`?):\n" + "\n".join(missing)


def test_the_base_install_is_the_sdk_only(metadata: Message) -> None:
    base = {canonicalize_name(r.name) for r in _requirements(metadata) if r.marker is None}
    assert base == {"httpx", "pydantic", "pyyaml"}


def _extras_packages(metadata: Message) -> set[str]:
    """Every distribution an extra asks for, other than the toolkit itself."""
    return {
        canonicalize_name(r.name)
        for r in _requirements(metadata)
        if r.marker is not None and canonicalize_name(r.name) != canonicalize_name(metadata["Name"])
    }


@pytest.fixture(scope="module")
def sdk_python(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh virtualenv (from the base interpreter, without system site-packages) holding
    the wheel and its base dependencies from the package index, nothing else."""
    venv = tmp_path_factory.mktemp("sdk-venv")
    base_python = getattr(sys, "_base_executable", sys.executable)
    run([base_python, "-m", "venv", venv], cwd=venv, timeout=180)
    python = venv / "bin" / "python"
    run(
        [
            python,
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "-q",
            "--timeout",
            "60",
            wheel,
        ],
        cwd=venv,
        timeout=600,
    )
    yield python
    shutil.rmtree(venv, ignore_errors=True)


INSTALLED = """
import importlib.metadata, json
import billing_toolkit.client
print(json.dumps(sorted({d.metadata["Name"] for d in importlib.metadata.distributions()})))
"""


@pytest.mark.slow
def test_the_sdk_installs_without_any_extra_package(sdk_python: Path, metadata: Message) -> None:
    extras = _extras_packages(metadata)
    assert {"starlette", "uvicorn", "schemathesis", "psycopg", "numpy", "faker"} <= extras
    installed = {
        canonicalize_name(name)
        for name in json.loads(run([sdk_python, "-c", INSTALLED], sdk_python.parent, 120))
    }
    assert sorted(installed & extras) == []


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


@pytest.mark.slow
@pytest.mark.parametrize(
    ("script", "extra"),
    [
        ("billing-sim", "simulator"),
        ("billing-contract", "conformance"),
        ("billing-assistant", "assistant"),
    ],
)
def test_a_script_without_its_extra_names_the_extra_to_install(
    sdk_python: Path, script: str, extra: str
) -> None:
    """The scripts come with the base install; without their extra they say what to install
    (one line, exit 2), not an ImportError traceback."""
    result = subprocess.run(
        [sdk_python.parent / script, "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert f"pip install 'billing-toolkit[{extra}]'" in result.stderr
