"""Reading amounts, and the signs in front of figures: the one reader of the assistant.

The grounding verifier (`guards/grounding.py`) stops a reply whose figures the evidence does
not back; the evaluation's judge (`evaluation/truth.py`) counts a sent reply whose figures the
billing record does not back. Both must read "USD -0,16" as the same signed amount, or the
suite would measure one thing while the product checks another; the fault injector (which
writes the corruptions the verifier must stop), the knowledge-base index (where `250,00`
and `250.00` must meet) and the amount writer (`text/money.py`) read amounts here too. The
verifier's reading is the reference: it is the one held to full branch coverage.

Amounts. A number (digits, possibly joined by `.`, `,`, `:`, `/` or `-`) is amount-shaped
when its last `.` or `,` is followed by one or two digits and what comes before is digits,
plain or grouped by threes: `45,00`, `45,5`, `1.234,56`, `1,234.56`, `1234.56`, and
`1 234 567,89` (a space, no-break or narrow no-break space between groups, read as one
figure: reading `567,89` alone would let a wrong figure hide inside a right one). Its value
reads that last separator as the decimal mark: `45,00` = `45.00` = `45.0`. `4.500` is not
amount-shaped (three decimals: a thousands group), so it never equals `45.00`. What the
billing API sends (`45.00`, `-0.16`) is read by the contract's `Amount` format instead
(`wire_amount`): a wire value is never guessed at.

Signs. A sign is part of the figure and is read the same way wherever the figure stands, in
a reply or in evidence. Zero has no sign (`-0.00` = `0,00`). What reads as a minus, with any
dash (`-`, `−`, `–`, `‒`, `﹣`, `－`):
   - a dash on the digits, not after a letter or digit: `-0,16`, `USD -0,16`, `USD −0,16`;
   - a dash touching a currency symbol, before or after it: `-USD 0,16`, `- Bs. 0,16`,
     `USD-0,16`, `USD - 0,16`;
   - a detached dash before bare digits, `saldo - 0,16`, is *ambiguous* (a minus, an operator
     or a separator): its token is spelled with the prefix `AMBIGUOUS`, and each reader
     decides what such a figure may be (the verifier: it must hold under both readings).
What does not: a dash after a letter or digit (`2026-11-20`, `0412-1234567`, `V-12345678`,
`INV-2026-004281`), a list bullet at the start of a line (`- 10 días`), parentheses (the
template writes asides like `INV-2026-004281 (USD 45,00)`, so an accounting `(0,16)` is an
unsigned `0,16`), and words: "crédito de USD 0,16" or "bajó USD 1,92" state an unsigned
figure.

Bias: a sign we cannot read makes a figure ambiguous, never unsigned: an unsigned figure is
the easier one to back, and the verifier must not be talked into backing it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from billing_toolkit.assistant.text.remembered import remembered
from billing_toolkit.contract.formats import contract_formats

AMBIGUOUS = "- "
"""How a figure after a detached dash starts once its text is canonical (`- 0,16`)."""
_MINUS = "-"

_GROUP_SPACE = "[ \u00a0\u202f]"
"""A space, no-break space or narrow no-break space between thousands groups."""
_NUMBER = re.compile(
    rf"(?<!\d)\d{{1,3}}(?:{_GROUP_SPACE}\d{{3}})+[.,]\d{{1,2}}(?!\d|[.,]\d)"
    r"|(?<!\d)\d+(?:[.,:/-]\d+)*"
)
_AMOUNT_SHAPE = re.compile(
    rf"\d{{1,3}}(?:[.,]\d{{3}})*[.,]\d{{1,2}}|\d+[.,]\d{{1,2}}"
    rf"|\d{{1,3}}(?:{_GROUP_SPACE}\d{{3}})+[.,]\d{{1,2}}"
)
_NOT_AFTER_ALNUM = r"(?<![^\W_])"
_DASH = "[-\u2212\u2012\u2013\ufe63\uff0d]"
_CURRENCY = r"(?i:US\$|USD|VES|Bs\.?|\$)"
_SIGN = re.compile(rf"{_DASH}(?P<gap>[ \t]*)(?:(?P<currency>{_CURRENCY})[ \t]*)?(?=\d)")
"""A dash before digits, possibly with a currency symbol in between: a sign candidate.
It starts with the dash so the scan skips ahead to dashes (a leading look-behind is slow)."""
_CURRENCY_BEFORE = re.compile(rf"{_NOT_AFTER_ALNUM}{_CURRENCY}[ \t]*\Z")
_CURRENCY_REACH = 8
"""How far before a dash a currency symbol may start (`US$` plus spaces)."""


def _canonical_sign(match: re.Match[str]) -> str:
    """One sign candidate rewritten so a sign has one of two spellings: `-0,16`, a minus on
    the digits (`-USD 0,16` → `USD -0,16`, `USD-0,16` → `USD -0,16`), or `- 0,16`, an
    ambiguous detached dash. A line-start bullet becomes `•`, no sign at all; a dash after
    a letter or digit (`2026-12-10`, `V-12345678`) is left alone."""
    text, start = match.string, match.start()
    line = text[text.rfind("\n", 0, start) + 1 : start]
    if match["gap"] and not line.strip(" \t"):
        return "\u2022" + match[0][1:]
    if _CURRENCY_BEFORE.search(text, max(0, start - _CURRENCY_REACH), start):
        return " " + _MINUS
    if text[start - 1 : start].isalnum():
        return match[0]
    if match["currency"]:
        return match["currency"] + " " + _MINUS
    return AMBIGUOUS if match["gap"] else _MINUS


def canonical_signs(text: str) -> str:
    """`text` with its signs spelled one way (see `_canonical_sign`), so that every text is
    read by the same rules. Only dashes and the spaces and currency symbols around them
    move: the digits and their separators are never touched."""
    return _SIGN.sub(_canonical_sign, text)


def signed_numbers(canonical: str) -> list[tuple[int, str]]:
    """The numbers of a canonical text (see `canonical_signs`) and their offsets in it, each
    with its sign prefix: `-` for a minus, `AMBIGUOUS` for a detached dash, nothing when
    unsigned.

    A dash is a sign only when it does not follow a letter or digit: `USD -5.00` is
    negative, `INV-2026` and `2026-12-10` are not.
    """
    tokens = []
    for match in _NUMBER.finditer(canonical):
        start = match.start()
        sign = next(
            (
                s
                for s in (AMBIGUOUS, _MINUS)
                if canonical[start - len(s) : start] == s
                and not canonical[start - len(s) - 1 : start - len(s)].isalnum()
            ),
            "",
        )
        tokens.append((start, sign + match[0]))
    return tokens


def amount_value(token: str) -> Decimal | None:
    """The value of an amount-shaped token with its minus, if any (`-1.234,56` →
    `Decimal("-1234.56")`), or None when it is not amount-shaped."""
    sign, body = (_MINUS, token[1:]) if token.startswith(_MINUS) else ("", token)
    if not _AMOUNT_SHAPE.fullmatch(body):
        return None
    cut = max(body.rfind("."), body.rfind(","))
    integer = re.sub(r"\D", "", body[:cut])
    return Decimal(f"{sign}{integer}.{body[cut + 1 :]}")


def wire_amount(text: str) -> Decimal | None:
    """The value of an amount as the billing API writes it (the contract's `Amount`:
    `-?digits.two-decimals`), or None for anything else — `45`, `1,234.56`, `045.00`."""
    return Decimal(text) if contract_formats().amount.fullmatch(text) else None


@dataclass(frozen=True, slots=True)
class AmountMention:
    """One amount in a text as written.

    `start`/`end` span its digits (its sign is not inside); `token` is its canonical
    spelling with the sign prefix (`-0,16`, `- 0,16`, `45,00`); `value` is signed for a
    minus and unsigned for an ambiguous dash; `dash` is where the dash of a minus or of an
    ambiguous sign stands (None for an unsigned figure).
    """

    start: int
    end: int
    token: str
    value: Decimal
    dash: int | None

    @property
    def ambiguous(self) -> bool:
        return self.token.startswith(AMBIGUOUS)


@remembered
def find_amounts(text: str) -> list[AmountMention]:
    """Every amount-shaped number of `text`, in order, with its sign read as above.

    The numbers of `text` and of its canonical form are the same numbers in the same order
    (canonicalisation moves only dashes, spaces and currency symbols), so each sign read in
    the canonical form is paired with the digits as written."""
    dashes = {match.end(): match.start() for match in _SIGN.finditer(text)}
    found = []
    written = _NUMBER.finditer(text)
    for (_, token), match in zip(signed_numbers(canonical_signs(text)), written, strict=True):
        digits = token.removeprefix(AMBIGUOUS)
        value = amount_value(digits)
        if value is not None:
            dash = dashes[match.start()] if token != match[0] else None
            found.append(AmountMention(match.start(), match.end(), token, value, dash))
    return found
