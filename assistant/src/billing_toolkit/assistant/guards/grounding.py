"""Grounding verifier: a reply may only state figures and cite chunks that the evidence backs.

The prompt *asks* a model not to invent; this module *checks*, in code, after narration, so it
holds whatever narrator or model is plugged in. Two checks:

1. every chunk id the narrator says it used was actually retrieved this turn;
2. every figure of the answer — amount, account, phone, ID, date, percentage, a number in
   words — is supported by the retrieved evidence or the tool results, *as what it is said
   to be*: its value, its unit and the record it is said of.

What a figure is said to be:
   - its unit (`text/currencies.py`): the currency written beside it, by code, symbol or
     word (`USD`, `$`, `Bs.`, `Bs.D`, `VES`, "dólares", "bolívares", `€`…), or `%`. A figure
     with a unit is supported only by an evidence figure of the same value *and* the same
     unit: "Bs. 45,00" is not a USD 45.00 balance, "USD 16" is not a 16 % tax, and an
     evidence figure written with no unit backs no figure that has one. A figure with no
     unit is judged by the rules below, as it always was;
   - its record (`record_binding.py`): a figure in a clause or sentence that names an
     invoice, account, payment or plan is supported only by that identifier's record (the
     one an amount is said towards, else the nearest before it in its clause, else its
     clause's, else its sentence's first), and when it is said of several joined
     identifiers, by every one of theirs; inside one evidence sentence, each invoice's aside
     (a bill comparison's totals) is that invoice's only. A figure that names no subject is
     backed by any record;
   - its spelling (`text/number_words.py`): a number in words with a unit beside it
     ("sesenta y dos dólares", "forty-five dollars and fifty cents") is read by value and
     judged like the same figure in digits; one we cannot read is rejected. Number words
     with no unit are figures when they end their phrase ("un recargo de seis.") or count
     days ("quince días"), backed by the same number in the evidence; a count of things
     ("tienes dos facturas") is not checked;
   - dates (`text/dates.py`), however written: ISO, numeric, long forms, abbreviated months
     (`15 de dic. de 2026`, `Sept. 15`), ordinals (`1.º`, `15th`), `15-dic-2026`, days and
     years in words, "el día 15" of the month its sentence names, and a weekday before it,
     or after it, which must be that date's. A relative date ("mañana", "in 3 days", a weekday
     with no date) is supported only when the evidence says it in the same words, or states
     the exact count of days it names (a computed "16 days until the next due date" backs
     "en 16 días", not "en 15 días"), or its record holds the date that many days from the
     billing system's today (the evidence's one "as of" date).

Rules for a figure with no unit, the first that applies:
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
   - a whole amount next to its currency ("USD 45", "45 USD") when the evidence holds that
     amount in that currency with zero decimals (45.00) — never "USD 45" for 45.50;
   - space-grouped thousands ("1 234 567,89": `text/amounts.py` reads it as one figure);
   - a phone or other identifier of 7+ digits written with spaces or parentheses
     (`+58 412 123 4567`) by digit equality with an evidence identifier, however the
     evidence separates it.

Rates and payment reports (`report_claims.py`): a rate with 4 to 8 decimals said with a unit
is backed by the same rate in the same unit (`Bs. 91,9581` by `VES 91.9581`), never by an
amount; a report id is checked whole there, not as digits; and the words a reply says of a
report (its status, a rejection reason, what was credited) or of a rate (the day it was
published) must be the evidence's.

Illustration is not evidence: a reply about the subscriber's account (`about_account`) may
not lean on `example_texts` (worked examples, format samples). A figure only an example
backs is rejected and listed in `illustrative_tokens` as well, so the agent sees why.

What it does not check: that a figure is the one the subscriber asked about (a correct
"amount due" given for "overdue", "credit" or "net balance" within the same record is
`labelled_figures.py`'s to catch, a true date said as the wrong one — the issue date as the
due date — `labelled_dates.py`'s), counts of things in words ("dos facturas"), the meaning
of the words around a figure ("subió" for a fall, or which of a bill comparison's "went
from USD 28.00 to USD 36.02" is the old figure), a subject named by a word and not an
identifier ("tu saldo": backed by any record), and a day with no month in its sentence
("vence el 16", judged as the number 16).

Bias: when in doubt, reject. A rejected reply costs a human agent a minute; a wrong figure
about a bill costs the subscriber's trust.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from functools import cached_property

from billing_toolkit.assistant.guards.labelled_dates import unsupported_dated
from billing_toolkit.assistant.guards.labelled_figures import unsupported_labelled
from billing_toolkit.assistant.guards.payment_methods import unsupported_methods
from billing_toolkit.assistant.guards.plan_speeds import unsupported_speeds
from billing_toolkit.assistant.guards.record_binding import Binder, Key, evidence_records
from billing_toolkit.assistant.guards.report_claims import REPORT_ID, unsupported_claims
from billing_toolkit.assistant.text.amounts import (
    AMBIGUOUS,
    amount_value,
    canonical_signs,
    signed_numbers,
)
from billing_toolkit.assistant.text.currencies import unit_after, unit_of
from billing_toolkit.assistant.text.dates import DateMention, find_dates
from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.text.number_words import (
    find_spelled_amounts,
    find_spelled_figures,
    fraction_after,
    scaled,
)
from billing_toolkit.assistant.text.relative_dates import (
    find_relative_dates,
    relative_days,
    stated_days,
    stated_today,
)

_MIN_IDENTIFIER_DIGITS = 7
_SPACED_IDENTIFIER = re.compile(r"(?<![\w.,+-])\+?\d[\d ()-]*[ ()][\d ()-]*\d(?![\d]|[.,]\d)")
"""A run of digits with spaces or parentheses inside: a phone or ID a model spaced out."""
_WHOLE = re.compile(r"-?\d+")
_RATE_SHAPED = re.compile(r"(-?\d+)[.,](\d{4,8})")
"""An exchange rate's figure: one decimal mark and 4 to 8 decimals (never a thousands group)."""


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


def _figure_value(token: str) -> Decimal | None:
    """The value of a signed figure said with a unit: an amount (`45,00`) or whole digits
    (`45` beside `USD`, `16` before `%`); None for anything else (`4.500`, `05/11`)."""
    value = amount_value(token)
    if value is None and _WHOLE.fullmatch(token):
        return Decimal(token)
    return value


def _rate_value(token: str) -> Decimal | None:
    """The value of a rate written with 4 to 8 decimals, with either decimal mark
    (`91,9581` = `91.9581`); None for anything else. A rate with 3 decimals (`36.125`) is
    also a thousands-grouped figure, so it gets no value: only its literal backs it."""
    match = _RATE_SHAPED.fullmatch(token)
    return None if match is None else Decimal(f"{match[1]}.{match[2]}")


def _digits_end(start: int, token: str) -> int:
    """Where a figure's digits end, given where they start and its signed token."""
    return start + len(token.removeprefix(AMBIGUOUS).removeprefix("-"))


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
        numbers = [(at, t) for at, t in signed_numbers(undated) if not t.startswith(AMBIGUOUS)]
        tokens = [token for _, token in numbers]
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
        self._by_unit: dict[str, set[Decimal]] = {}
        self._rates_by_unit: dict[str, set[Decimal]] = {}
        """Rates said with a unit (`VES 91.9581 per USD 1.00`), apart from amounts: a rate
        backs the same rate in the same unit (`Bs. 91,9581`), never an amount."""
        for at, token in numbers:
            unit, value = unit_of(undated, at, _digits_end(at, token)), _figure_value(token)
            if unit is not None and value is not None:
                self._by_unit.setdefault(unit, set()).add(value)
            rate = _rate_value(token)
            if unit is not None and rate is not None:
                self._rates_by_unit.setdefault(unit, set()).add(rate)

    def supports_value(self, value: Decimal, unit: str) -> bool:
        """An evidence figure with this value in this unit (`USD 45` = `USD 45.00`)."""
        return value in self._by_unit.get(unit, ())

    def supports_figure(self, token: str, unit: str) -> bool:
        """A figure said with a unit, by value only: its literal may be the same digits in
        another currency. An ambiguous dash must hold with both signs."""
        if token.startswith(AMBIGUOUS):
            unsigned = token[len(AMBIGUOUS) :]
            return self.supports_figure("-" + unsigned, unit) and self.supports_figure(
                unsigned, unit
            )
        value = _figure_value(token)
        if value is None:
            rate = _rate_value(token)
            return rate is not None and rate in self._rates_by_unit.get(unit, ())
        return self.supports_value(value, unit)

    def supports_spelled(self, value: Decimal) -> bool:
        """A number in words with no unit: the same whole number written in the evidence, or
        an evidence amount of that value in any unit."""
        whole = value == value.to_integral_value()
        return value in self._amounts or (whole and self.literal(str(int(value))))

    def supports_spaced_identifier(self, run: str) -> bool:
        digits = _identifier(run)
        return len(digits) >= _MIN_IDENTIFIER_DIGITS and digits in self._identifiers

    @cached_property
    def _folded(self) -> str:
        return fold(self._dated_text)

    @cached_property
    def _stated_days(self) -> set[int]:
        return stated_days(self._dated_text)

    @cached_property
    def today(self) -> date | None:
        """The billing system's today, when the evidence states exactly one."""
        return stated_today(self._dated_text)

    def supports_relative(self, wording: str, today: date | None) -> bool:
        """The evidence says these words (a relative date), accents and case aside, or states
        the exact count of days they name from the record's today, or holds the date that
        many days from `today` ("hoy" is not backed by the as-of date: that is no due date)."""
        if re.search(rf"\b{re.escape(fold(wording))}\b", self._folded) is not None:
            return True
        days = relative_days(wording)
        if days is None:
            return False
        return days in self._stated_days or (
            today is not None and days != 0 and today + timedelta(days=days) in self._dates
        )

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
        if mention.weekday is not None:
            return self._supports_weekday(mention, mention.weekday)
        if mention.value is not None and mention.value in self._dates:
            return True
        if mention.month_day is not None and mention.month_day in self._month_days:
            return True
        return self.literal(mention.literal, signed=False, dated=True)

    def _supports_weekday(self, mention: DateMention, weekday: int) -> bool:
        """A date with its weekday: an evidence date of that day, falling on that weekday
        (for a date without a year, any evidence year in which it does)."""
        return any(
            d.weekday() == weekday
            and (
                d == mention.value
                or (mention.value is None and (d.month, d.day) == mention.month_day)
            )
            for d in self._dates
        )

    def supports_number(self, token: str) -> bool:
        if self.literal(token):
            return True
        if token.startswith(AMBIGUOUS):
            unsigned = token[len(AMBIGUOUS) :]
            return self.supports_number("-" + unsigned) and self.supports_number(unsigned)
        value = amount_value(token)
        if value is not None:
            return value in self._amounts
        rate = _rate_value(token)
        if rate is not None:  # "la tasa es 36,5210": a rate said bare, with no unit to miss
            return any(rate in rates for rates in self._rates_by_unit.values())
        identifier = _identifier(token)
        if len(identifier.lstrip("-")) >= _MIN_IDENTIFIER_DIGITS:
            return identifier in self._identifiers
        return False


@dataclass(slots=True)
class _Scope:
    """The evidence a figure may lean on, by where it stands in the answer: its records'
    when it is said of an identifier (see `record_binding.py`), all of it otherwise. A
    record's index is built the first time a figure is said of it."""

    texts: Sequence[str]
    answer: str
    everything: _Evidence = field(init=False)
    _binder: Binder = field(init=False)
    _records: dict[Key, list[str]] | None = field(init=False, default=None)
    _indexed: dict[Key, _Evidence] = field(init=False, default_factory=dict[Key, _Evidence])

    def __post_init__(self) -> None:
        self.everything = _Evidence(self.texts)
        self._binder = Binder.of(self.answer)

    def _record(self, key: Key) -> _Evidence:
        if key not in self._indexed:
            if self._records is None:
                self._records = evidence_records(self.texts)
            self._indexed[key] = _Evidence(self._records.get(key, []))
        return self._indexed[key]

    def supports(self, at: int, check: Callable[[_Evidence], bool]) -> bool:
        keys = self._binder.keys_at(at) if self._binder.identifiers else ()
        if not keys:
            return check(self.everything)
        return all(check(self._record(key)) for key in keys)


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
        canonical = canonical_signs(answer)
        scope = _Scope(texts if about_account else [*texts, *example_texts], canonical)
        failed = _unsupported(canonical, scope, language)
        tokens = tuple(
            dict.fromkeys(  # a figure both unbacked and said of the wrong field: listed once
                [
                    *(token for _, token in sorted(failed)),
                    *unsupported_claims(canonical, texts),
                    *unsupported_labelled(canonical, texts),
                    *unsupported_dated(canonical, texts, language),
                    *unsupported_methods(canonical, texts),
                    *unsupported_speeds(canonical, texts),
                ]
            )
        )
        illustrative: tuple[str, ...] = ()
        if about_account and tokens and example_texts:
            everything = _Scope([*texts, *example_texts], canonical)
            backed = {token for _, token in _unsupported(canonical, everything, language)}
            illustrative = tuple(t for t in tokens if t not in backed)
        return GroundingResult(
            grounded=not citations and not tokens,
            unsupported_citations=citations,
            unsupported_tokens=tokens,
            illustrative_tokens=illustrative,
        )


def _unsupported(answer: str, scope: _Scope, language: Language | None) -> list[tuple[int, str]]:
    """(offset, token) of every date and figure of the canonical `answer` the evidence does
    not back: dates and relative dates first, then numbers in words with a unit, then spaced
    identifiers by value (a supported one is blanked; an unsupported one falls through to
    the token rules, which are stricter), then every remaining number, with its unit."""
    day_first = None if language is None else language is not Language.ENGLISH
    mentions = find_dates(answer, day_first)
    failed = [
        (m.start, m.literal)
        for m in mentions
        if not scope.supports(m.start, lambda e, m=m: e.supports_date(m))
    ]
    judged = _date_spans(mentions) + [m.span() for m in REPORT_ID.finditer(answer)]
    for start, end, wording in find_relative_dates(_blank(answer, judged)):
        judged.append((start, end))
        today = scope.everything.today
        if not scope.supports(start, lambda e, w=wording, t=today: e.supports_relative(w, t)):
            failed.append((start, wording))
    for spelled in find_spelled_amounts(_blank(answer, judged)):
        judged.append((spelled.start, spelled.end))
        value, unit = spelled.value, spelled.unit
        if value is None or not scope.supports(
            spelled.start, lambda e, v=value, u=unit: e.supports_value(v, u)
        ):
            failed.append((spelled.start, spelled.literal))
    for figure in find_spelled_figures(_blank(answer, judged)):
        judged.append((figure.start, figure.end))
        number = figure.value
        if number is None or not scope.supports(
            figure.start, lambda e, n=number: e.supports_spelled(n)
        ):
            failed.append((figure.start, figure.literal))
    rest = _blank(answer, judged)
    for match in _SPACED_IDENTIFIER.finditer(rest):
        if scope.supports(match.start(), lambda e, r=match[0]: e.supports_spaced_identifier(r)):
            judged.append(match.span())
    rest = _blank(answer, judged)
    consumed = 0
    for start, token in signed_numbers(rest):
        if start < consumed:
            continue
        end = _digits_end(start, token)
        unit = unit_of(rest, start, end)
        fraction = None if unit is None else _fraction(rest, end)
        if scaled(rest, end) and (unit is not None or not _inside_a_code(rest, start)):
            supported = False
        elif unit is None:
            supported = scope.supports(start, lambda e, t=token: e.supports_number(t))
        elif fraction is None:
            supported = scope.supports(start, lambda e, t=token, u=unit: e.supports_figure(t, u))
        else:
            consumed = fraction[1]
            value = _whole_plus(token, fraction[0])
            supported = value is not None and scope.supports(
                start, lambda e, v=value, u=unit: e.supports_value(v, u)
            )
        if not supported:
            failed.append((start, token))
    return failed


def _inside_a_code(text: str, start: int) -> bool:
    """Digits glued after a letter ("7HG52K", a confirmation code) are part of that code, so a
    `k` or `mm` after them is the code's next letter, not a scale: the digits are judged as
    digits, which the evidence must hold (an invented code still fails). Not after a currency
    ("USD52k" is still 52 thousand dollars, and rejected): the caller checks the unit first."""
    return start > 0 and text[start - 1].isalpha()


def _fraction(text: str, end: int) -> tuple[Decimal | None, int] | None:
    """Cents or a half written after a figure's digits or after its unit ("USD 45 y 50
    centavos", "45 dólares con 50"), and where they end."""
    after = unit_after(text, end)
    return fraction_after(text, end) or (fraction_after(text, after[1]) if after else None)


def _whole_plus(token: str, fraction: Decimal | None) -> Decimal | None:
    """A whole figure with the cents written after it; None when either part cannot be read
    or the figure already has decimals ("45,50 con 20" is no figure)."""
    if fraction is None or not _WHOLE.fullmatch(token):
        return None
    return Decimal(token) + (-fraction if token.startswith("-") else fraction)
