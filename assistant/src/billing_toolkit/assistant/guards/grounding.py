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
     (`V-12.345.678` = `V-12345678`, but `12345678` ≠ `-12345678`) — with an evidence
     identifier, never with an evidence amount's digits (`1110.207` ≠ `11.102,07`);
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

Renderings a model writes are accepted by value, each narrowly:
   - a numeric date in the reply's own locale (`05/12/2026` is 5 December in a Spanish
     reply, 12 May in an English one), and long forms ("5 de diciembre de 2026");
   - a whole amount next to a currency ("USD 45", "45 USD") when the evidence holds that
     amount with zero decimals (45.00) — never "USD 45" for 45.50;
   - space-grouped thousands ("1 234 567,89": `text/amounts.py` reads it as one figure);
   - a phone or other identifier of 7+ digits written with spaces or parentheses
     (`+58 412 123 4567`) by digit equality with an evidence identifier, however the
     evidence separates it.

Illustration is not evidence: a reply about the subscriber's account (`about_account`) may
not lean on `example_texts` (worked examples, format samples). A figure only an example
backs is rejected and listed in `illustrative_tokens` as well, so the agent sees why.

Bias: when in doubt, reject. A rejected reply costs a human agent a minute; a wrong figure
about a bill costs the subscriber's trust. Numbers written in words are not checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from billing_toolkit.assistant.text.amounts import (
    AMBIGUOUS,
    amount_value,
    canonical_signs,
    signed_numbers,
)
from billing_toolkit.assistant.text.dates import DateMention, find_dates
from billing_toolkit.assistant.text.language import Language

_MIN_IDENTIFIER_DIGITS = 7
_CURRENCY = r"(?:US\$|USD|VES|Bs\.?|\$)"
_WHOLE_AMOUNT = re.compile(
    rf"(?<![\w-]){_CURRENCY}[ \t]?(\d+)(?![\d.,]*\d)|(?<![\d.,-])(\d+)[ \t]?(?:USD|VES|Bs\b)"
)
"""A whole amount beside its currency: `USD 45`, `$45`, `45 USD` (no sign, no decimals)."""
_SPACED_IDENTIFIER = re.compile(r"(?<![\w.,+-])\+?\d[\d ()-]*[ ()][\d ()-]*\d(?![\d]|[.,]\d)")
"""A run of digits with spaces or parentheses inside: a phone or ID a model spaced out."""


@dataclass(frozen=True, slots=True)
class GroundingResult:
    """The verdict. `unsupported` lists every citation and token that failed, in order."""

    grounded: bool
    unsupported_citations: tuple[str, ...]
    unsupported_tokens: tuple[str, ...]
    illustrative_tokens: tuple[str, ...] = ()
    """The unsupported tokens that only a worked example or format sample states."""

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


def _blank(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """`text` with the spans (dates, figures already judged) replaced by spaces, so their
    digits are not checked twice."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _date_spans(mentions: Iterable[DateMention]) -> list[tuple[int, int]]:
    return [(m.start, m.end) for m in mentions]


class _Evidence:
    """Everything the answer may lean on, pre-indexed once per verification."""

    def __init__(self, texts: Sequence[str]) -> None:
        joined = canonical_signs("\n" + "\n".join(texts) + "\n")
        mentions = find_dates(joined)
        undated = _blank(joined, _date_spans(mentions))
        tokens = [token for _, token in signed_numbers(undated) if not token.startswith(AMBIGUOUS)]
        self._text = undated
        """Numbers are looked up with the evidence's dates blanked: `06` is not backed by the
        day of `2022-08-06` (a date backs dates, by value)."""
        self._dated_text = joined
        self._dates: set[date] = {m.value for m in mentions if m.value is not None}
        self._month_days = {(d.month, d.day) for d in self._dates} | {
            m.month_day for m in mentions if m.month_day is not None
        }
        self._amounts = {v for v in map(amount_value, tokens) if v is not None}
        # An amount is never an identifier: its digits alone would let a shifted decimal
        # mark through (`1110.207` has the digits of `11.102,07`).
        self._identifiers = {_identifier(t) for t in tokens if amount_value(t) is None} | {
            _identifier(m[0]) for m in _SPACED_IDENTIFIER.finditer(joined)
        }

    def supports_whole_amount(self, digits: str) -> bool:
        """`USD 45` by value: only an evidence amount equal to 45 (so 45.00, not 45.50)."""
        return Decimal(digits) in self._amounts

    def supports_spaced_identifier(self, run: str) -> bool:
        digits = _identifier(run)
        return len(digits) >= _MIN_IDENTIFIER_DIGITS and digits in self._identifiers

    def literal(self, token: str, *, signed: bool = True, dated: bool = False) -> bool:
        """Tried only where the token's characters occur (a plain `find`), so a long
        evidence text is not scanned by the regex once per token of the answer. A date is
        not `signed`: the dash of a range (`05/11/2026 - 04/12/2026`) is no minus."""
        text = self._dated_text if dated else self._text
        pattern = _literal_pattern(token, signed=signed)
        start = text.find(token)
        while start != -1:
            if pattern.match(text, start):
                return True
            start = text.find(token, start + 1)
        return False

    def supports_date(self, mention: DateMention) -> bool:
        if mention.value is not None and mention.value in self._dates:
            return True
        if mention.month_day is not None and mention.month_day in self._month_days:
            return True
        return self.literal(mention.literal, signed=False, dated=True)

    def supports_number(self, token: str) -> bool:
        if self.literal(token):
            return True
        if token.startswith(AMBIGUOUS):
            unsigned = token[len(AMBIGUOUS) :]
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
        example_texts: Sequence[str] = (),
        about_account: bool = False,
        language: Language | None = None,
    ) -> GroundingResult:
        """Verify `answer`; `evidence_texts` are retrieved chunk texts, `tool_result_texts`
        the evidence text of each capability call, `example_texts` illustrative chunks
        (evidence only when the reply is not `about_account`); `language` is the reply's,
        for its numeric dates (None: only unambiguous ones have a value)."""
        retrieved = set(retrieved_chunk_ids)
        citations = tuple(dict.fromkeys(c for c in used_chunk_ids if c not in retrieved))
        texts = [*evidence_texts, *(tool_result_texts or ())]
        evidence = _Evidence(texts if about_account else [*texts, *example_texts])
        failed = _unsupported(canonical_signs(answer), evidence, language)
        tokens = tuple(dict.fromkeys(token for _, token in sorted(failed)))
        illustrative: tuple[str, ...] = ()
        if about_account and tokens and example_texts:
            everything = _Evidence([*texts, *example_texts])
            backed = {
                token for _, token in _unsupported(canonical_signs(answer), everything, language)
            }
            illustrative = tuple(t for t in tokens if t not in backed)
        return GroundingResult(
            grounded=not citations and not tokens,
            unsupported_citations=citations,
            unsupported_tokens=tokens,
            illustrative_tokens=illustrative,
        )


def _unsupported(
    answer: str, evidence: _Evidence, language: Language | None
) -> list[tuple[int, str]]:
    """(offset, token) of every date and figure of the canonical `answer` the evidence does
    not back: dates first, then whole amounts and spaced identifiers by value (a supported
    one is blanked; an unsupported one falls through to the token rules, which are
    stricter), then every remaining number."""
    day_first = None if language is None else language is not Language.ENGLISH
    mentions = find_dates(answer, day_first)
    failed = [(m.start, m.literal) for m in mentions if not evidence.supports_date(m)]
    judged = _date_spans(mentions)
    rest = _blank(answer, judged)
    for match in _WHOLE_AMOUNT.finditer(rest):
        group = 1 if match[1] is not None else 2
        if evidence.supports_whole_amount(match[group]):
            judged.append(match.span(group))
    for match in _SPACED_IDENTIFIER.finditer(rest):
        if evidence.supports_spaced_identifier(match[0]):
            judged.append(match.span())
    failed += [
        (start, token)
        for start, token in signed_numbers(_blank(answer, judged))
        if not evidence.supports_number(token)
    ]
    return failed
