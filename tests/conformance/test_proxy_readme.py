"""The README's "Validating proxy" section is true: its CI commands parse with the real
`billing-contract` parser, and every rule id its table names is one the proxy reports."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from billing_toolkit.conformance.cli import build_parser
from billing_toolkit.conformance.contract_facts import load_facts
from billing_toolkit.conformance.proxy.judging import ExchangeJudge

README = Path(__file__).resolve().parents[2] / "conformance" / "README.md"
SECTION = "## Validating proxy"


def section() -> str:
    text = README.read_text(encoding="utf-8")
    assert SECTION in text
    return text.split(SECTION, 1)[1].split("\n## ", 1)[0]


def test_the_ci_commands_parse_as_written() -> None:
    commands = [
        line.split(" 2>")[0].rstrip("& ")
        for line in section().splitlines()
        if line.startswith("billing-contract proxy --upstream")
    ]
    assert len(commands) == 1
    later = re.findall(r"`(billing-contract proxy-replay [^`]+)`", section())
    for command in [*commands, *later]:
        args = build_parser().parse_args(shlex.split(command)[1:])
        assert callable(args.run)


def test_every_rule_id_of_the_table_is_reported_by_the_proxy() -> None:
    table = [line for line in section().splitlines() if line.startswith("| `")]
    named = {rule for line in table for rule in re.findall(r"`([a-z_.]+)`", line.split("|")[1])}
    assert named and named <= set(ExchangeJudge(load_facts()).rule_ids)
