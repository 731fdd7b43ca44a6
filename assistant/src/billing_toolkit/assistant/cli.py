"""``billing-assistant``: the assistant's command-line dispatcher.

Each command group lives with the code it drives and adds itself through a ``register``
function; a sub-command stores its handler as ``args.handler``. A command loads only its own
group's module (`ask` does not import the webhook service: a cold `ask` is an operator
waiting); `--help`, no command or an unknown one load every group, so every command is listed.
Every usage error, of any command, is one line on stderr and exit status 2 (`OneLineParser`,
from the toolkit's one CLI kernel, `billing_toolkit.contract.cli`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib import import_module
from importlib.metadata import PackageNotFoundError, version

from billing_toolkit.assistant.commands.long_lived import long_lived_objects
from billing_toolkit.contract.cli import OneLineParser

DISTRIBUTION = "billing-toolkit"
COMMAND_GROUPS = {
    "billing_toolkit.assistant.retrieval.cli": ("kb",),
    "billing_toolkit.assistant.commands": ("ask", "chat", "eval"),
    "billing_toolkit.assistant.channel.cli": ("serve", "fake-graph", "webhook-send"),
}
"""Each module with a ``register`` function and the commands it adds, in `--help` order
(tests/assistant/test_cli_groups.py holds the names to what each module registers)."""


def installed_version() -> str:
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown (not installed)"


def build_parser(command: str | None = None) -> OneLineParser:
    """The dispatcher with the group that adds `command`, or with every group when `command`
    is None or no group adds it."""
    parser = OneLineParser(
        prog="billing-assistant", description="Grounded billing assistant for an ISP."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    groups = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    known = any(command in commands for commands in COMMAND_GROUPS.values())
    for module, commands in COMMAND_GROUPS.items():
        if not known or command in commands:
            import_module(module).register(groups)
    return parser


def command_of(argv: Sequence[str]) -> str | None:
    """The command `argv` starts with; None when it starts with one of the dispatcher's own
    options (`--help ask` prints the dispatcher's help, which lists every command)."""
    return argv[0] if argv and not argv[0].startswith("-") else None


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit status (argparse's own exits — usage, `--help`,
    `--version` — are returned too, not raised)."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    with long_lived_objects():  # the command's modules
        parser = build_parser(command_of(arguments))
    try:
        args = parser.parse_args(arguments)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 0
    return int(args.handler(args))


if __name__ == "__main__":
    raise SystemExit(main())
