"""What a reply says a payment report's outcome is, and when a rate was published.

The figures of a report reply are checked by `grounding.py`; its words are not figures, yet
"tu reporte fue verificado" while it is pending, "rechazado porque el monto no coincide" when
the reference was not found, "tu nuevo saldo es …" (the contract changes nothing while a
report is pending), or "publicada hoy" of a rate carried over from Friday are as wrong as a
wrong amount. So:

1. a status claim (verified: "verificado", "aprobado", "acreditado", "se abonó", "nuevo
   saldo", "verified", "credited", "new balance"…; rejected; pending) is backed only when
   every report its sentence speaks of has that status in the evidence. A sentence speaks of
   the reports it names (`PRP-…`), else of the one whose payment it names, else of every
   report of the evidence; a sentence naming another payment speaks of none. A claim just
   after a negation ("aún no ha sido verificado", "not yet verified") is no claim;
2. a rejection reason in words is backed only when those reports were rejected for it, and
   an amount said to be credited ("se acreditaron USD 14,25") only by what they were
   credited, in its currency (the reported amount is not the credited one);
3. a publication ("publicada el 6 de noviembre", "published today") is backed only by a
   rate of the evidence published for that day: "hoy"/"today" is the rate's own day, which a
   carried-over rate was not published for; and a rate's figure (4 to 8 decimals) only in
   a sentence that says it is a rate ("tu deuda es Bs. 91,9581" is the rate as an amount);
4. a report id (`PRP-…`) is checked whole: it must be one the evidence names (an id altered
   by a digit is backed by nothing). `grounding.py` does not read its digits as a figure, so
   a sentence naming the report and the payment it became is not misread.

Only evidence that holds a payment report (or a rate) is read this way: a reply with none of
it has no report to misstate. Bias: when in doubt, reject (a sentence about two reports
holds only what both do).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from billing_toolkit.assistant.guards.record_binding import sentences
from billing_toolkit.assistant.text.amounts import AmountMention, find_amounts
from billing_toolkit.assistant.text.currencies import unit_of
from billing_toolkit.assistant.text.dates import find_dates
from billing_toolkit.assistant.text.folding import fold

_REPORT = re.compile(
    r"Payment report (PRP-\d+) for account \d+:[^;]*; status (\w+)\."
    r"(?: It became payment (PAY-\d+), credited (USD|VES) (\d+\.\d{2}))?"
    r"(?:[^\n]*? Rejection reason: (\w+)\.)?"
)
_RATE = re.compile(
    r"Official exchange rate for (\d{4}-\d{2}-\d{2}):[^\n]*?"
    r"(?:(?<!no rate was )published for (\d{4}-\d{2}-\d{2})|last published rate, of (\d{4}-\d{2}-\d{2}))"
)
REPORT_ID = re.compile(r"\bPRP-\d+\b", re.IGNORECASE)
"""A payment report's id: checked here whole, against the evidence's, not as digits."""
_PAYMENT_ID = re.compile(r"\bPAY-\d+\b", re.IGNORECASE)

_STATUS_WORDS: dict[str, re.Pattern[str]] = {
    "verified": re.compile(
        r"\b(?:verificad[oa]s?|aprobad[oa]s?|acreditad[oa]s?|se acredit(?:o|aron)|acreditamos|"
        r"abonad[oa]s?|se abon(?:o|aron)|abonamos|confirmad[oa]s?|nuevo saldo|saldo actualizado|"
        r"verified|approved|credited|confirmed|new balance|updated balance)\b"
    ),
    "rejected": re.compile(
        r"\b(?:rechazad[oa]s?|rechazamos|denegad[oa]s?|rejected|declined|denied)\b"
    ),
    "pending_verification": re.compile(
        r"\b(?:pendiente de verificacion|(?<!saldo )(?<!monto )(?<!importe )(?<!total )(?<!deuda )(?<!\d )pendiente(?! de pago)"
        r"|en revision|por verificar|pending(?! balance| amount| invoice| charge)|under review"
        r"|awaiting verification)\b"
    ),
}
_REASON_WORDS: dict[str, re.Pattern[str]] = {
    "reference_not_found": re.compile(
        r"referencia no (?:aparece|existe|fue encontrada|se encontro)|"
        r"no (?:encontramos|encontre|se encontro|aparece) (?:la |esa |tu )?referencia|"
        r"reference (?:was |is )?not found|reference (?:does not|doesn't|did not) appear|"
        r"(?:could not|couldn't) find (?:the |that |your )?reference"
    ),
    "amount_mismatch": re.compile(
        r"monto no coincide|no coincide el monto|monto (?:es )?(?:distinto|diferente)|"
        r"amount (?:does not|doesn't|did not) match|amount mismatch|amounts? differ"
    ),
    "duplicate_reference": re.compile(
        r"duplicad|duplicate|ya (?:habia sido|fue|habia|estaba) reportad|"
        r"already (?:been )?reported|ya (?:fue|habia sido) usad"
    ),
    "currency_not_allowed": re.compile(
        r"no se recibe en esa moneda|moneda no (?:esta )?permitida|moneda no aceptada|"
        r"not (?:taken|accepted) in that currency|currency (?:is )?not allowed"
    ),
}
_NEGATED = re.compile(
    r"\b(?:no|not|aun no|todavia no|sin|never|nunca|yet to|once|when|if|until|after|will|"
    r"cuando|una vez|si|hasta que|sera|seran)\b(?:\s+\w+){0,3}\s*\Z"
)
"""A negation or a condition up to three words before a claim ("aún no ha sido verificado",
"once it is verified", "cuando sea verificado"): no claim of what is."""
_PUBLISHED = re.compile(r"\b(?:publicad[oa]s?|se publico|publico|published)\b")
_TODAY = re.compile(r"\A[^.;\n\d]{0,12}?\b(?:hoy|today)\b")
_PUBLICATION_REACH = 40
"""How far after "publicada"/"published" its day may be written ("publicada el viernes 6 de
noviembre de 2026")."""


@dataclass(frozen=True, slots=True)
class _Report:
    report_id: str
    status: str
    payment_id: str | None
    credited: tuple[str, Decimal] | None
    reason: str | None


def _report(match: re.Match[str]) -> _Report:
    """One report of the evidence, as `report_evidence` writes it."""
    payment, currency, credited = match[3], match[4], match[5]
    return _Report(
        match[1].upper(),
        match[2],
        payment.upper() if payment else None,
        (currency, Decimal(credited)) if currency and credited else None,
        match[6],
    )


def _reports(texts: Sequence[str]) -> list[_Report]:
    return [_report(m) for text in texts for m in _REPORT.finditer(text)]


def _published(texts: Sequence[str]) -> dict[date, date]:
    """Each rate day of the evidence and the day its rate was published for."""
    return {
        date.fromisoformat(m[1]): date.fromisoformat(m[2] or m[3])
        for text in texts
        for m in _RATE.finditer(text)
    }


def _spoken_of(sentence: str, reports: Sequence[_Report]) -> list[_Report]:
    """The reports a sentence speaks of (see the module docstring)."""
    named = {m[0].upper() for m in REPORT_ID.finditer(sentence)}
    if named:
        return [r for r in reports if r.report_id in named]
    payments = {m[0].upper() for m in _PAYMENT_ID.finditer(sentence)}
    if payments:
        return [r for r in reports if r.payment_id in payments]
    return list(reports)


def _claims(folded: str, words: dict[str, re.Pattern[str]]) -> list[tuple[str, str]]:
    """(what is claimed, its wording) of every claim not just after a negation."""
    return [
        (claim, match[0])
        for claim, pattern in words.items()
        for match in pattern.finditer(folded)
        if _NEGATED.search(folded, 0, match.start()) is None
    ]


def _report_claims(sentence: str, reports: Sequence[_Report]) -> list[str]:
    folded = fold(sentence)
    spoken = _spoken_of(sentence, reports)
    if not spoken:
        return []
    failed = [w for s, w in _claims(folded, _STATUS_WORDS) if any(r.status != s for r in spoken)]
    failed += [
        w for why, w in _claims(folded, _REASON_WORDS) if any(r.reason != why for r in spoken)
    ]
    return failed + _credited_claims(sentence, spoken)


_CREDITED = re.compile(
    r"\b(?:acreditad[oa]s?|se acredit(?:o|aron)|acreditamos|abonad[oa]s?|se abon(?:o|aron)|"
    r"abonamos|credited)\b"
)
_CREDIT_REACH = 30
_CLAUSE_END = re.compile(
    r";|\b(?:y|e|and|but|pero)\b|\b(?:por|de|of|for)\s+(?:usd|ves|bs\.?|\$)?\s*$"
)
"""Between a credit word and an amount after it that is then not the one credited ("acreditamos
tu pago de Bs. 1.310,40; tu saldo es USD 14,25"), or a preposition right before that amount
("se acreditaron Bs. 1.310,40 por tu pago de USD 14,25": another phrase's amount)."""
_AS_REACH = 20
"""How close after the amount nearest a credit word the credit may stand as what it became
(" como USD ", ", equivalente a USD "): farther, it is another phrase's amount."""
"""How far from a credit word its amount may stand ("se acreditaron a tu cuenta USD 14,25",
"USD 14.25 credited")."""
_CLAUSE_BREAK = re.compile(
    r"[;:]|,(?!\s*(?:(?:ya|fue|fueron|was|were)\s+)?(?:acreditad|abonad|credited))"
    r"|\b(?:y|e|and|but|pero)\b(?!\s+(?:(?:ya|fue|fueron|was|were)\s+)?(?:acreditad|abonad|credited))"
)
"""Between an amount and a credit word after it: the amount is another clause's
("pagaste Bs. 1.234,56 y se acreditaron USD 20,00": the payment, then the credit) — unless
the credit word follows the "y" or the comma at once, the same subject's second verb or a
participle ("Bs. 1.234,56 fueron verificados y acreditados", "Bs. 1.234,56, acreditados")."""


def _credited_claims(sentence: str, spoken: Sequence[_Report]) -> list[str]:
    """Every amount said to be credited, the nearest to a credit word, that is not what the
    reports spoken of were credited: the reported `Bs. 1.310,40` is not the `USD 14.25` a
    verified report credited. The unit must be written and be the credited one's. The claim
    holds when an amount after the credit word is the credit: what the nearest became ("como
    USD 14,25"), or one within reach after the word."""
    folded = fold(sentence)
    amounts = find_amounts(sentence)
    failed = []
    for match in _CREDITED.finditer(folded):
        near = [
            a
            for a in amounts
            if 0 <= a.start - match.end() <= _CREDIT_REACH
            or (
                0 <= match.start() - a.end <= _CREDIT_REACH
                and not _CLAUSE_BREAK.search(folded[a.end : match.end()])
            )
        ]
        if not near:
            continue
        said = min(near, key=lambda a: min(abs(a.start - match.end()), abs(match.start() - a.end)))
        became = [
            a
            for a in amounts
            if a.start >= match.end()
            and 0 <= a.start - said.end <= _AS_REACH
            and not _CLAUSE_END.search(folded[match.end() : a.start])
        ]  # "acreditamos tu pago de Bs. 1.234,56 como USD 20,00": what it became, farther
        if not any(
            _credited_as(sentence, a, spoken)
            for a in (said, *(a for a in near if a.start >= match.end()), *became)
        ):  # "tu pago de Bs. 1.234,56 se acreditó como USD 20,00": what follows is the credit
            failed.append(said.token)
    return failed


def _credited_as(sentence: str, amount: AmountMention, spoken: Sequence[_Report]) -> bool:
    """Whether `amount`, in its written unit, is what every report spoken of credited."""
    unit = unit_of(sentence, amount.start, amount.end)
    return all(r.credited == (unit, amount.value) for r in spoken)


_RATE_FIGURE = re.compile(r"(?<![\d.,])\d+[.,]\d{4,8}(?![\d.,]\d)")
_RATE_WORDS = re.compile(r"\b(?:tasa|cambio|por dolar|rate|per dollar|per usd)\b")


def _rates_said_of_other(sentence: str) -> list[str]:
    """A rate (4 to 8 decimals) in a sentence that does not say it is a rate: "tu deuda es
    Bs. 91,9581" states the rate as an amount."""
    if _RATE_WORDS.search(fold(sentence)):
        return []
    return [m[0] for m in _RATE_FIGURE.finditer(sentence)]


def _publication_claims(sentence: str, published: dict[date, date]) -> list[str]:
    """Every publication the sentence states that no rate of the evidence backs."""
    folded = fold(sentence)
    failed = []
    for match in _PUBLISHED.finditer(folded):
        if _NEGATED.search(folded, 0, match.start()) is not None:
            continue  # "no rate was published for …": no publication claimed
        reach = folded[match.end() : match.end() + _PUBLICATION_REACH]
        if _TODAY.search(reach):
            days = {day for day, of in published.items() if day == of}
            claimed = "hoy/today"
        else:
            mention = next(iter(find_dates(reach)), None)
            if mention is None or mention.start > _PUBLICATION_REACH // 2:
                continue
            days = {of for of in published.values() if of == mention.value}
            claimed = mention.literal
        if not days:
            failed.append(f"{match[0]} {claimed}")
    return failed


def unsupported_claims(answer: str, evidence_texts: Sequence[str]) -> tuple[str, ...]:
    """The wording of every report status, rejection reason and rate publication `answer`
    states that the evidence does not back, in order."""
    known = {m[0].upper() for text in evidence_texts for m in REPORT_ID.finditer(text)}
    failed = [m[0] for m in REPORT_ID.finditer(answer) if m[0].upper() not in known]
    reports, published = _reports(evidence_texts), _published(evidence_texts)
    for sentence in sentences(answer):
        if reports:
            failed += _report_claims(sentence, reports)
        if published:
            failed += _publication_claims(sentence, published) + _rates_said_of_other(sentence)
    return tuple(dict.fromkeys(failed))
