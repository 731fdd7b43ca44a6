"""Grounding verifier: a reply may only state figures and cite chunks that the evidence backs.

The prompt *asks* a model not to invent; this module *checks*, in code, after narration, so it
holds whatever narrator or model is plugged in. Two checks:

1. every chunk id the narrator says it used was actually retrieved this turn;
2. every numeric token of the answer — amount, account, phone, ID, date, percentage — is
   supported by the retrieved evidence or the tool results, by the first rule that applies:
   - a date is supported by its literal, or by its value (an evidence date with the same day;
     a date written without a year matches on month and day); an ambiguous `05/11/2026` has
     no value, so only its literal can support it;
   - otherwise the literal, with digit and sign boundaries: `12345678` is not inside
     `123456789`, `234,56` is not inside `1.234,56`, `10.00` is not inside `-10.00`;
   - otherwise, if amount-shaped, the canonical value with its sign, reading the last `.` or
     `,` as the decimal separator: `45,00` = `45.00`, but `4.500` is not amount-shaped (three
     decimals) and so never equals `45.00`, and `10,00` ≠ `-10.00`;
   - otherwise, an identifier of 7+ digits by digit equality with the same sign
     (`V-12.345.678` = `V-12345678`, but `12345678` ≠ `-12345678`);
   - otherwise it is rejected.

Signs. A sign is part of the figure, read the same way in the answer and in the evidence,
so a figure is only ever supported by an evidence figure with the same sign: a dropped minus
(`USD 0,16` for a credit of `-0.16`) and an invented one are both rejected, while an unsigned
`0,16` that the evidence also states unsigned (a `credit USD 0.16` next to a `net balance
USD -0.16`) passes, since the reply may be quoting that one. Zero has no sign (`-0.00` =
`0,00`). What reads as a minus, with any dash (`-`, `−`, `–`, `‒`, `﹣`, `－`):
   - a dash on the digits, not after a letter or digit: `-0,16`, `USD -0,16`, `USD −0,16`;
   - a dash touching a currency symbol, before or after it: `-USD 0,16`, `- Bs. 0,16`,
     `USD-0,16`, `USD - 0,16`;
   - a detached dash before bare digits, `saldo - 0,16`, is *ambiguous* (a minus, an operator
     or a separator): such a figure is supported only by the same literal (a quoted
     `(40,00 − 28,00)`) or when the evidence holds the figure with *both* signs, and as
     evidence it supports nothing but its literal.
What does not: a dash after a letter or digit (`2026-11-20`, `0412-1234567`, `V-12345678`,
`INV-2026-004281`), a list bullet at the start of a line (`- 10 días`), parentheses (the
template writes asides like `INV-2026-004281 (USD 45,00)`, so an accounting `(0,16)` is an
unsigned `0,16`), and words: "crédito de USD 0,16" or "bajó USD 1,92" state an unsigned
figure, grounded only where the evidence states it unsigned too (as the billing evidence
does for the credit balance and for computed differences). A sign we cannot read
makes the figure harder to support, never easier.

Bias: when in doubt, reject. A rejected reply costs a human agent a minute; a wrong figure
about a bill costs the subscriber's trust. Numbers written in words are not checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from assistant.dates import DateMention, find_dates

_NUMBER = re.compile(r"(?<!\d)\d+(?:[.,:/-]\d+)*")
_AMOUNT_SHAPE = re.compile(r"\d{1,3}(?:[.,]\d{3})*[.,]\d{1,2}|\d+[.,]\d{1,2}")
_MIN_IDENTIFIER_DIGITS = 7
_AMBIGUOUS = "- "
"""How a figure after a detached dash starts once its text is canonical (`- 0,16`)."""

_NOT_AFTER_ALNUM = r"(?<![^\W_])"
_DASH = "[-\u2212\u2012\u2013\ufe63\uff0d]"
_CURRENCY = r"(?i:US\$|USD|VES|Bs\.?|\$)"
_SIGN = re.compile(rf"{_DASH}(?P<gap>[ \t]*)(?:(?P<currency>{_CURRENCY})[ \t]*)?(?=\d)")
"""A dash before digits, possibly with a currency symbol in between: a sign candidate.
It starts with the dash so the scan skips ahead to dashes (a leading look-behind is slow)."""
_CURRENCY_BEFORE = re.compile(rf"{_NOT_AFTER_ALNUM}{_CURRENCY}[ \t]*\Z")
_CURRENCY_REACH = 8
"""How far before a dash a currency symbol may start (`US$` plus spaces)."""


@dataclass(frozen=True, slots=True)
class GroundingResult:
    """The verdict. `unsupported` lists every citation and token that failed, in order."""

    grounded: bool
    unsupported_citations: tuple[str, ...]
    unsupported_tokens: tuple[str, ...]

    @property
    def unsupported(self) -> tuple[str, ...]:
        return self.unsupported_citations + self.unsupported_tokens


def _canonical_sign(match: re.Match[str]) -> str:
    """One sign candidate rewritten so a sign has one of two spellings: `-0,16`, a minus on
    the digits (`-USD 0,16` → `USD -0,16`, `USD-0,16` → `USD -0,16`), or `- 0,16`, an
    ambiguous detached dash. A line-start bullet becomes `•`, no sign at all; a dash after
    a letter or digit (`2026-12-10`, `V-12345678`) is left alone."""
    text, start = match.string, match.start()
    line = text[text.rfind("\n", 0, start) + 1:start]
    if match["gap"] and not line.strip(" \t"):
        return "\u2022" + match[0][1:]
    if _CURRENCY_BEFORE.search(text, max(0, start - _CURRENCY_REACH), start):
        return " -"
    if text[start - 1:start].isalnum():
        return match[0]
    if match["currency"]:
        return match["currency"] + " -"
    return _AMBIGUOUS if match["gap"] else "-"


def _canonical_signs(text: str) -> str:
    """`text` with its signs spelled one way (see `_canonical_sign`), so that the answer and
    the evidence are read by the same rules."""
    return _SIGN.sub(_canonical_sign, text)


def _signed_tokens(text: str) -> list[tuple[int, str]]:
    """Numeric tokens of a canonical text and their offsets, each with its sign prefix:
    `-` for a minus, `- ` for an ambiguous dash, nothing when unsigned.

    A dash is a sign only when it does not follow a letter or digit: `USD -5.00` is
    negative, `INV-2026` and `2026-12-10` are not.
    """
    tokens = []
    for match in _NUMBER.finditer(text):
        start = match.start()
        sign = next((s for s in (_AMBIGUOUS, "-") if text[start - len(s):start] == s
                     and not text[start - len(s) - 1:start - len(s)].isalnum()), "")
        tokens.append((start, sign + match[0]))
    return tokens


def _literal_pattern(token: str, *, signed: bool) -> re.Pattern[str]:
    """A literal with digit boundaries and, for a figure that may carry a sign, sign
    boundaries: an unsigned figure is not found after a minus or an ambiguous dash."""
    if token.startswith("-"):
        before = _NOT_AFTER_ALNUM
    else:
        before = r"(?<!\d)(?<!\d[.,])" + (r"(?<![\W_]-)(?<![\W_]- )" if signed else "")
    return re.compile(before + re.escape(token) + r"(?!\d)(?![.,]\d)")


def _amount_value(token: str) -> Decimal | None:
    """The canonical value of an amount-shaped token, or None if it is not amount-shaped."""
    sign, body = ("-", token[1:]) if token.startswith("-") else ("", token)
    if not _AMOUNT_SHAPE.fullmatch(body):
        return None
    cut = max(body.rfind("."), body.rfind(","))
    integer = re.sub(r"\D", "", body[:cut])
    return Decimal(f"{sign}{integer}.{body[cut + 1:]}")


def _identifier(token: str) -> str:
    """An identifier's digits with its sign: `V-12.345.678` → `12345678`, but `-1234567`
    keeps its minus, so a negative figure never passes for an unsigned identifier."""
    return ("-" if token.startswith("-") else "") + re.sub(r"\D", "", token)


def _blank(text: str, mentions: Iterable[DateMention]) -> str:
    """`text` with the dates replaced by spaces, so their digits are not checked twice."""
    chars = list(text)
    for mention in mentions:
        chars[mention.start:mention.end] = " " * (mention.end - mention.start)
    return "".join(chars)


class _Evidence:
    """Everything the answer may lean on, pre-indexed once per verification."""

    def __init__(self, texts: Sequence[str]) -> None:
        joined = _canonical_signs("\n" + "\n".join(texts) + "\n")
        mentions = find_dates(joined)
        tokens = [token for _, token in _signed_tokens(_blank(joined, mentions))
                  if not token.startswith(_AMBIGUOUS)]
        self._text = joined
        self._dates: set[date] = {m.value for m in mentions if m.value is not None}
        self._month_days = {(d.month, d.day) for d in self._dates} | {
            m.month_day for m in mentions if m.month_day is not None}
        self._amounts = {v for v in map(_amount_value, tokens) if v is not None}
        self._identifiers = {_identifier(t) for t in tokens}

    def literal(self, token: str, *, signed: bool = True) -> bool:
        """Tried only where the token's characters occur (a plain `find`), so a long
        evidence text is not scanned by the regex once per token of the answer. A date is
        not `signed`: the dash of a range (`05/11/2026 - 04/12/2026`) is no minus."""
        pattern = _literal_pattern(token, signed=signed)
        start = self._text.find(token)
        while start != -1:
            if pattern.match(self._text, start):
                return True
            start = self._text.find(token, start + 1)
        return False

    def supports_date(self, mention: DateMention) -> bool:
        if mention.value is not None and mention.value in self._dates:
            return True
        if mention.month_day is not None and mention.month_day in self._month_days:
            return True
        return self.literal(mention.literal, signed=False)

    def supports_number(self, token: str) -> bool:
        if self.literal(token):
            return True
        if token.startswith(_AMBIGUOUS):
            unsigned = token[len(_AMBIGUOUS):]
            return self.supports_number("-" + unsigned) and self.supports_number(unsigned)
        value = _amount_value(token)
        if value is not None:
            return value in self._amounts
        identifier = _identifier(token)
        if len(identifier.lstrip("-")) >= _MIN_IDENTIFIER_DIGITS:
            return identifier in self._identifiers
        return False


class GroundingVerifier:
    """Checks a narrated answer against the evidence of its own turn."""

    def verify(
        self,
        *,
        answer: str,
        used_chunk_ids: Sequence[str],
        retrieved_chunk_ids: Sequence[str],
        evidence_texts: Sequence[str],
        tool_result_texts: Sequence[str] | None = None,
    ) -> GroundingResult:
        """Verify `answer`; `evidence_texts` are retrieved chunk texts, `tool_result_texts`
        the evidence text of each capability call."""
        retrieved = set(retrieved_chunk_ids)
        citations = tuple(dict.fromkeys(c for c in used_chunk_ids if c not in retrieved))
        evidence = _Evidence([*evidence_texts, *(tool_result_texts or ())])
        answer = _canonical_signs(answer)
        mentions = find_dates(answer)
        failed = [(m.start, m.literal) for m in mentions if not evidence.supports_date(m)]
        failed += [(start, token) for start, token in _signed_tokens(_blank(answer, mentions))
                   if not evidence.supports_number(token)]
        tokens = tuple(dict.fromkeys(token for _, token in sorted(failed)))
        return GroundingResult(
            grounded=not citations and not tokens,
            unsupported_citations=citations,
            unsupported_tokens=tokens,
        )
