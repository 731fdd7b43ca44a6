"""Which Venezuelan bank a message names: by name ("Banesco", "el de Venezuela") or by its
4-digit code ("0134"), from the table in `banks.yaml` beside this module (data, not code).

A payment report names the bank the subscriber paid from or to; the billing API takes its
code. Bias: only a name or code of the table is a bank — an unknown name is asked for again,
never guessed at, and a 4-digit number outside the table is not a bank code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.contract.document import parse_shipped_yaml

BANKS = Path(__file__).resolve().parent / "banks.yaml"


@dataclass(frozen=True, slots=True)
class Bank:
    code: str
    name: str


@dataclass(frozen=True, slots=True)
class BankMention:
    """A bank named in a text, and where (`start`/`end` in the folded text)."""

    bank: Bank
    start: int
    end: int


@cache
def _table() -> tuple[dict[str, Bank], dict[str, Bank]]:
    """(code → bank, folded alias → bank)."""
    rows = parse_shipped_yaml(BANKS.read_text(encoding="utf-8"))["banks"]
    by_code: dict[str, Bank] = {}
    by_alias: dict[str, Bank] = {}
    for row in rows:
        bank = Bank(str(row["code"]), str(row["name"]))
        by_code[bank.code] = bank
        for alias in row["aliases"]:
            by_alias[fold(str(alias))] = bank
    return by_code, by_alias


@cache
def _pattern() -> re.Pattern[str]:
    by_code, by_alias = _table()
    names = "|".join(re.escape(a) for a in sorted(by_alias, key=len, reverse=True))
    codes = "|".join(sorted(by_code))
    return re.compile(rf"(?<![\w%])(?:(?P<name>{names})|(?P<code>{codes}))(?![\w%])")


def bank_named(code: str) -> Bank | None:
    """The bank of a 4-digit code, if the table has it."""
    return _table()[0].get(code)


def find_bank(text: str) -> BankMention | None:
    """The first bank `text` names, by name or code (spans in `fold(text)`)."""
    by_code, by_alias = _table()
    match = _pattern().search(fold(text))
    if match is None:
        return None
    bank = by_alias[match["name"]] if match["name"] else by_code[match["code"]]
    return BankMention(bank, match.start(), match.end())
