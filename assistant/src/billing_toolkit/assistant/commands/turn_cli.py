"""`billing-assistant ask` (one turn) and `billing-assistant chat` (a conversation on stdin).

    billing-assistant ask "¿cuánto debo?" --phone +584121234567 --json
    billing-assistant chat --phone +584121234567          # /quit or end of input to leave

Both run against `--base-url` or a simulator started in-process (see `session`).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table

from billing_toolkit.assistant.commands.session import (
    CommandError,
    add_connection_options,
    guarded,
    open_session,
)
from billing_toolkit.assistant.text.identifiers import normalize_phone
from billing_toolkit.assistant.turn.pipeline import AssistantPipeline
from billing_toolkit.assistant.turn.result import Action, TurnResult

QUIT = "/quit"
RELEASE = "/release"


def register(subparsers: Any) -> None:
    ask = subparsers.add_parser("ask", help="run one turn and print the outcome and its trace")
    ask.add_argument("message", help='what the subscriber writes, e.g. "¿cuánto debo?"')
    ask.add_argument("--phone", required=True, help="subscriber's phone, e.g. +584121234567")
    ask.add_argument("--json", action="store_true", help="print the outcome as JSON")
    add_connection_options(ask)
    ask.set_defaults(handler=guarded(_ask))

    chat = subparsers.add_parser(
        "chat", help=f"talk to the assistant line by line ({QUIT} or end of input to leave)"
    )
    chat.add_argument("--phone", required=True, help="subscriber's phone, e.g. +584121234567")
    add_connection_options(chat)
    chat.set_defaults(handler=guarded(_chat))


def _phone(raw: str) -> str:
    phone = normalize_phone(raw)
    if phone is None:
        raise CommandError(f"--phone {raw!r} is not a phone number (e.g. +584121234567)")
    return phone


def _ask(args: argparse.Namespace) -> int:
    phone = _phone(args.phone)
    if not args.message.strip():
        raise CommandError("the message is empty")
    with open_session(args) as assistant:
        result = assistant.pipeline.handle(phone, args.message)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2, default=str))
    else:
        _print_result(result, _console())
    return 0


def _console() -> Console:
    console = Console()
    return console if console.is_terminal else Console(width=200)


def _print_result(result: TurnResult, console: Console) -> None:
    console.print(
        f"[bold]action:[/bold] {result.action.value}"
        + (f"  [bold]reason:[/bold] {result.reason.value}" if result.reason else "")
    )
    if result.reply:
        console.print(result.reply, markup=False, highlight=False)
    if result.agent_summary:
        console.print("[bold]agent summary (es):[/bold]")
        console.print(result.agent_summary.es, markup=False, highlight=False)
        console.print("[bold]agent summary (en):[/bold]")
        console.print(result.agent_summary.en, markup=False, highlight=False)
    if result.citations:
        console.print("[bold]citations:[/bold] " + ", ".join(result.citations))
    table = Table("stage", "decision", "detail", title="trace")
    for record in result.trace:
        table.add_row(
            record.stage,
            record.decision,
            json.dumps(dict(record.detail), ensure_ascii=False, default=str),
        )
    console.print(table)


def _chat(args: argparse.Namespace) -> int:
    phone = _phone(args.phone)
    with open_session(args) as assistant:
        return converse(assistant.pipeline, phone, sys.stdin, sys.stdout)


def converse(pipeline: AssistantPipeline, phone: str, lines: TextIO, out: TextIO) -> int:
    """The chat loop: one turn per line; `/release` plays the agent handing the chat back."""
    interactive = lines.isatty()
    out.write(
        f"chatting as {phone}; {QUIT} to leave, {RELEASE} to hand an escalated chat "
        "back to the bot\n"
    )
    while True:
        if interactive:
            out.write("> ")
            out.flush()
        line = lines.readline()
        if not line or line.strip() == QUIT:
            return 0
        message = line.strip()
        if not message:
            continue
        if message == RELEASE:
            pipeline.store.release_to_bot(pipeline.tenant, phone)
            out.write("[the conversation is back with the bot]\n")
            continue
        out.write(_chat_reply(pipeline.handle(phone, message)) + "\n")
        out.flush()


def _chat_reply(result: TurnResult) -> str:
    if result.action is Action.SILENT:
        return "[silent: a person has this conversation]"
    reply = f"bot: {result.reply}"
    if result.action is Action.ESCALATE and result.escalation is not None:
        reply += f"\n[escalated {result.escalation.reason.value}: {result.escalation.summary.en}]"
    return reply
