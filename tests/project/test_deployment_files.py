"""docker itself is not available here, so check what can be checked: every command a service
built from this project runs is a command the project really installs, and every path the
Dockerfile copies exists."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import yaml

from tests.project.test_cli_errors import run_entry_point

ROOT = Path(__file__).resolve().parents[2]


def _scripts() -> set[str]:
    """Every console script any distribution of the repository declares."""
    scripts: set[str] = set()
    for pyproject in ROOT.glob("*/pyproject.toml"):
        project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
        scripts |= set(project.get("scripts", {}))
    return scripts


def _service_commands() -> dict[str, list[str]]:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    commands = {}
    for name, service in compose["services"].items():
        if "build" in service:
            command = service["command"]
            commands[name] = command if isinstance(command, list) else command.split()
    return commands


def test_every_built_service_runs_a_declared_console_script() -> None:
    commands = _service_commands()
    assert "simulator" in commands
    scripts = _scripts()
    assert {name: argv[0] for name, argv in commands.items() if argv[0] not in scripts} == {}


def test_every_service_subcommand_exists_in_its_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """`billing-sim serve` must be a real subcommand of the installed program, not just a name:
    its `--help` runs through the console script's entry point (in this process; that the
    scripts are installed, `test_cli_errors`' `--version` runs prove)."""
    for argv in _service_commands().values():
        code = run_entry_point(argv[0], [argv[1], "--help"])
        help_text = capsys.readouterr().out
        assert code == 0 and argv[1] in help_text, f"{argv[0]} {argv[1]}: {help_text[-500:]}"


def test_dockerfile_copies_only_paths_that_exist() -> None:
    for line in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        if line.startswith("COPY "):
            for source in line.split()[1:-1]:
                assert (ROOT / source).exists(), source
