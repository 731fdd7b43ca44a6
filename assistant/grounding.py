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
   - otherwise, an identifier of 7+ digits by digit equality (`V-12.345.678` = `V-12345678`);
   - otherwise it is rejected.

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
_MINUS = "\u2212"
_MIN_IDENTIFIER_DIGITS = 7


@dataclass(frozen=True, slots=True)
class GroundingResult:
    """The verdict. `unsupported` lists every citation and token that failed, in order."""

    grounded: bool
    unsupported_citations: tuple[str, ...]
    unsupported_tokens: tuple[str, ...]

    @property
    def unsupported(self) -> tuple[str, ...]:
        return self.unsupported_citations + self.unsupported_tokens


def _signed_tokens(text: str) -> list[tuple[int, str]]:
    """Numeric tokens and their offsets, each with a leading `-` when it carries a minus sign.

    A dash is a sign only when it does not follow a letter or digit: `USD -5.00` is
    negative, `INV-2026` and `2026-12-10` are not.
    """
    tokens = []
    for match in _NUMBER.finditer(text):
        start = match.start()
        negative = text[start - 1:start] == "-" and not text[start - 2:start - 1].isalnum()
        tokens.append((start, ("-" if negative else "") + match[0]))
    return tokens


def _literal_pattern(token: str) -> re.Pattern[str]:
    if token.startswith("-"):
        before = r"(?<![0-9A-Za-z])"
    else:
        before = r"(?<!\d)(?<!\d[.,])(?<![^0-9A-Za-z]-)"
    return re.compile(before + re.escape(token) + r"(?!\d)(?![.,]\d)")


def _amount_value(token: str) -> Decimal | None:
    """The canonical value of an amount-shaped token, or None if it is not amount-shaped."""
    sign, body = ("-", token[1:]) if token.startswith("-") else ("", token)
    if not _AMOUNT_SHAPE.fullmatch(body):
        return None
    cut = max(body.rfind("."), body.rfind(","))
    integer = re.sub(r"\D", "", body[:cut])
    return Decimal(f"{sign}{integer}.{body[cut + 1:]}")


def _digits(token: str) -> str:
    return re.sub(r"\D", "", token)


def _blank(text: str, mentions: Iterable[DateMention]) -> str:
    """`text` with the dates replaced by spaces, so their digits are not checked twice."""
    chars = list(text)
    for mention in mentions:
        chars[mention.start:mention.end] = " " * (mention.end - mention.start)
    return "".join(chars)


class _Evidence:
    """Everything the answer may lean on, pre-indexed once per verification."""

    def __init__(self, texts: Sequence[str]) -> None:
        joined = "\n" + "\n".join(texts).replace(_MINUS, "-") + "\n"
        mentions = find_dates(joined)
        tokens = [token for _, token in _signed_tokens(_blank(joined, mentions))]
        self._text = joined
        self._dates: set[date] = {m.value for m in mentions if m.value is not None}
        self._month_days = {(d.month, d.day) for d in self._dates} | {
            m.month_day for m in mentions if m.month_day is not None}
        self._amounts = {v for v in map(_amount_value, tokens) if v is not None}
        self._digit_strings = {_digits(t) for t in tokens}

    def literal(self, token: str) -> bool:
        """Tried only where the token's characters occur (a plain `find`), so a long
        evidence text is not scanned by the regex once per token of the answer."""
        pattern = _literal_pattern(token)
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
        return self.literal(mention.literal)

    def supports_number(self, token: str) -> bool:
        if self.literal(token):
            return True
        value = _amount_value(token)
        if value is not None:
            return value in self._amounts
        digits = _digits(token)
        if len(digits) >= _MIN_IDENTIFIER_DIGITS:
            return digits in self._digit_strings
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
        answer = answer.replace(_MINUS, "-")
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
