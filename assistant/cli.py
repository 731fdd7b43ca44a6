"""``billing-assistant``: the assistant's command-line dispatcher.

Each command group lives with the code it drives and adds itself through a ``register``
function; a sub-command stores its handler as ``args.handler``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from billing_toolkit.assistant import commands as turn_commands
from billing_toolkit.assistant.channel import cli as channel_cli
from billing_toolkit.assistant.retrieval import cli as retrieval_cli


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="billing-assistant", description="Grounded billing assistant for an ISP."
    )
    groups = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    retrieval_cli.register(groups)
    turn_commands.register(groups)
    channel_cli.register(groups)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    raise SystemExit(main())
