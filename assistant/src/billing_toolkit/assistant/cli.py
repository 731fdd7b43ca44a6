"""``billing-assistant``: the assistant's command-line dispatcher.

Each command group lives with the code it drives and adds itself through a ``register``
function; a sub-command stores its handler as ``args.handler``. Every usage error, of any
command, is one line on stderr and exit status 2 (`OneLineParser`, from the toolkit's one CLI
kernel, `billing_toolkit.contract.cli`).
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

from billing_toolkit.assistant import commands as turn_commands
from billing_toolkit.assistant.channel import cli as channel_cli
from billing_toolkit.assistant.retrieval import cli as retrieval_cli
from billing_toolkit.contract.cli import OneLineParser

DISTRIBUTION = "billing-toolkit"


def installed_version() -> str:
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown (not installed)"


def build_parser() -> OneLineParser:
    parser = OneLineParser(
        prog="billing-assistant", description="Grounded billing assistant for an ISP."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    groups = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    retrieval_cli.register(groups)
    turn_commands.register(groups)
    channel_cli.register(groups)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit status (argparse's own exits — usage, `--help`,
    `--version` — are returned too, not raised)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 0
    return int(args.handler(args))


if __name__ == "__main__":
    raise SystemExit(main())
