"""The dispatcher loads only the command's group, and every group stays listed."""

from __future__ import annotations

import argparse
import gc
import subprocess
import sys
from importlib import import_module

import pytest

from billing_toolkit.assistant.cli import COMMAND_GROUPS, build_parser, main
from billing_toolkit.assistant.commands.long_lived import long_lived_objects


def _commands(parser: argparse.ArgumentParser) -> list[str]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return list(action.choices)


@pytest.mark.parametrize("module", list(COMMAND_GROUPS))
def test_each_group_adds_exactly_the_commands_it_is_listed_with(module: str) -> None:
    """A command added to a group but not to its list would be unreachable on its own."""
    subparsers = argparse.ArgumentParser().add_subparsers()
    import_module(module).register(subparsers)
    assert list(subparsers.choices) == list(COMMAND_GROUPS[module])


def test_a_command_gets_only_its_group_and_anything_else_gets_every_group() -> None:
    every = [name for names in COMMAND_GROUPS.values() for name in names]
    assert _commands(build_parser("ask")) == ["ask", "chat", "eval"]
    assert _commands(build_parser("kb")) == ["kb"]
    assert _commands(build_parser(None)) == every
    assert _commands(build_parser("nope")) == every


def test_help_before_a_command_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help", "ask"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for names in COMMAND_GROUPS.values() for name in names)


def test_an_unknown_command_is_refused_naming_every_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--version", "nope"]) == 0  # --version acts first, as argparse does
    assert main(["nope"]) == 2
    error = capsys.readouterr().err
    assert "invalid choice: 'nope'" in error and "'serve'" in error and "'kb'" in error


def test_ask_does_not_load_the_webhook_service() -> None:
    probe = (
        "import sys; from billing_toolkit.assistant.cli import build_parser; "
        "build_parser('ask'); print('billing_toolkit.assistant.channel.service' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "False"


def test_long_lived_objects_are_frozen_and_the_collector_restored() -> None:
    was = gc.isenabled()
    kept: list[list[object]] = []
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            before = gc.get_freeze_count()
            with long_lived_objects():
                assert not gc.isenabled()
                kept.extend([object()] for _ in range(100))
            assert gc.get_freeze_count() >= before + 100
            assert gc.isenabled() is enabled
    finally:
        gc.unfreeze()
        (gc.enable if was else gc.disable)()
