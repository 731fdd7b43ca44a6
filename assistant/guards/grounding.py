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
   - otherwise, if amount-shaped, its value with its sign (`45,00` = `45.00`, but `4.500`
     is not amount-shaped and never equals `45.00`, and `10,00` ≠ `-10.00`);
   - otherwise, an identifier of 7+ digits by digit equality with the same sign
     (`V-12.345.678` = `V-12345678`, but `12345678` ≠ `-12345678`);
   - otherwise it is rejected.

Signs and amounts are read by `text/amounts.py`, the reader the evaluation's judge shares:
a sign is part of the figure, read the same way in the answer and in the evidence, so a
figure is only ever supported by an evidence figure with the same sign. A dropped minus
(`USD 0,16` for a credit of `-0.16`) and an invented one are both rejected, while an unsigned
`0,16` that the evidence also states unsigned (a `credit USD 0.16` next to a `net balance
USD -0.16`) passes, since the reply may be quoting that one. A figure after an ambiguous
detached dash (`saldo - 0,16`) is supported only by the same literal (a quoted
`(40,00 − 28,00)`) or when the evidence holds the figure with *both* signs, and as evidence
it supports nothing but its literal. A sign we cannot read makes the figure harder to
support, never easier.

Bias: when in doubt, reject. A rejected reply costs a human agent a minute; a wrong figure
about a bill costs the subscriber's trust. Numbers written in words are not checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from billing_toolkit.assistant.text.amounts import (
    AMBIGUOUS,
    amount_value,
    canonical_signs,
    signed_numbers,
)
from billing_toolkit.assistant.text.dates import DateMention, find_dates

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


def _literal_pattern(token: str, *, signed: bool) -> re.Pattern[str]:
    """A literal with digit boundaries and, for a figure that may carry a sign, sign
    boundaries: an unsigned figure is not found after a minus or an ambiguous dash."""
    if token.startswith("-"):
        before = r"(?<![^\W_])"
    else:
        before = r"(?<!\d)(?<!\d[.,])" + (r"(?<![\W_]-)(?<![\W_]- )" if signed else "")
    return re.compile(before + re.escape(token) + r"(?!\d)(?![.,]\d)")


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
        joined = canonical_signs("\n" + "\n".join(texts) + "\n")
        mentions = find_dates(joined)
        tokens = [token for _, token in signed_numbers(_blank(joined, mentions))
                  if not token.startswith(AMBIGUOUS)]
        self._text = joined
        self._dates: set[date] = {m.value for m in mentions if m.value is not None}
        self._month_days = {(d.month, d.day) for d in self._dates} | {
            m.month_day for m in mentions if m.month_day is not None}
        self._amounts = {v for v in map(amount_value, tokens) if v is not None}
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
        if token.startswith(AMBIGUOUS):
            unsigned = token[len(AMBIGUOUS):]
            return self.supports_number("-" + unsigned) and self.supports_number(unsigned)
        value = amount_value(token)
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
        answer = canonical_signs(answer)
        mentions = find_dates(answer)
        failed = [(m.start, m.literal) for m in mentions if not evidence.supports_date(m)]
        failed += [(start, token) for start, token in signed_numbers(_blank(answer, mentions))
                   if not evidence.supports_number(token)]
        tokens = tuple(dict.fromkeys(token for _, token in sorted(failed)))
        return GroundingResult(
            grounded=not citations and not tokens,
            unsupported_citations=citations,
            unsupported_tokens=tokens,
        )
