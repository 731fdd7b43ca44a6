"""The assistant's own commands: `ask`, `chat` and `eval` (registered together)."""

from __future__ import annotations

from typing import Any


def register(subparsers: Any) -> None:
    """Add `ask`, `chat` and `eval`; imported here so the helpers of this package (the
    in-process simulator, its transport) load without the command modules."""
    from billing_toolkit.assistant.commands import eval_cli, turn_cli

    turn_cli.register(subparsers)
    eval_cli.register(subparsers)
