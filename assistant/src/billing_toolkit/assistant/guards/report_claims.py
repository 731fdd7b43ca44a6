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
   report of the evidence; a sentence naming another payment speaks of none. A verified
   claim just after a negation or a condition ("no ha sido verificado", "once it is
   verified") is no claim; a "not yet", a wait, a process or an "until we verify it" is a
   pending claim ("aún no ha sido acreditado", "en espera", "being verified"), which only a
   negation takes back, and "pendiente" said of an invoice or a debt in a clause that names
   no report or payment ("tu factura de USD 32,48 sigue pendiente") is none;
2. a rejection reason in words is backed only when those reports were rejected for it, and
   an amount said to be credited ("se acreditaron USD 14,25") only by what they were
   credited, in its currency (the reported amount is not the credited one) — or by the
   credit it is said to have become right after it ("como USD 14,25", ", que equivalen a
   USD 14,25"); any other amount after it ("Acreditamos Bs. 1.310,40, quedan USD 14,25 a
   favor") is another phrase's, and the bolívares stay the claim. A reason is claimed even
   after a "no" ("no fue aprobado porque no encontramos la referencia"), and an explanation
   of a rejection ("porque …", "rejected: …") that names none of the contract's reasons
   ("porque el pago se hizo desde la cuenta de un tercero") is a reason the evidence does
   not give;
3. a publication ("publicada el 6 de noviembre", "published today", "hoy el BCV actualizó
   la tasa", "came out today", "la tasa de hoy subió") is backed only by a
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
    "verified": re.compile(  # "being verified", "siendo verificado": a pending claim
        r"\b(?<!being )(?<!siendo )(?:verificad[oa]s?|aprobad[oa]s?|acreditad[oa]s?|se acredit(?:o|aron)|acreditamos|"
        r"abonad[oa]s?|se abon(?:o|aron)|abonamos|confirmad[oa]s?|nuevo saldo|saldo actualizado|"
        r"(?:quedo|fue|ha sido|quedaron|fueron|han sido) aplicad[oa]s?|se aplic(?:o|aron)|"
        r"aplicamos|(?:was|were|has been|have been) applied|se (?:te|le) (?:acredit|abon)(?:o|aron)|"
        r"(?<!en )procesad[oa]s?|validad[oa]s?|validamos|se valido|aceptad[oa]s?|conciliad[oa]s?|"
        r"exitos[oa]|ya (?:quedo|entro|se refleja)|(?:quedo|entro) tu pago|se refleja en tu (?:cuenta|saldo)|"
        r"processed|validated|accepted|reconciled|posted|went through|successful(?:ly)?|"
        r"(?:is|was|has been) (?:complete|completed)|"
        r"verified|approved|credited|confirmed|new balance|updated balance)\b"
    ),
    "rejected": re.compile(
        r"\b(?:rechazad[oa]s?|rechazamos|denegad[oa]s?|anulad[oa]s?|rejected|declined|denied"
        r"|(?:no fue|no ha sido|was not|wasn't|has not been|hasn't been) (?:aprobad[oa]|aceptad[oa]|approved|accepted)"
        r"|(?:didn't|did not|no) (?:go|paso|procedio)(?: through)?)\b"
    ),
    "pending_verification": re.compile(
        r"\b(?:pendiente de verificacion|(?<!saldo )(?<!monto )(?<!importe )(?<!total )"
        r"(?<!deuda )(?<!\d )pendiente(?! de pago)"
        r"|en revision|por verificar|pending(?! balance| amount| invoice| charge)|under review"
        r"|awaiting verification|en espera|on hold|en proceso(?: de (?:verificacion|revision))?"
        r"|siendo (?:verificad|revisad|procesad)[oa]s?|being (?:verified|reviewed|processed|checked)"
        r"|estamos (?:verificando|revisando|validando|confirmando)"
        r"|we(?:'re| are) (?:verifying|reviewing|checking|validating|confirming)"
        r"|(?:aun|todavia) no (?:\w+ ){0,2}?(?:se refleja|aparece|tenemos respuesta|hay respuesta)"
        r"|(?:cuando|una vez que?) (?:tu pago |tu reporte |lo |la )?(?:sea|este|se|quede) "
        r"(?:verificad|acreditad|aprobad|confirmad)[oa]|cuando lo (?:verifiquemos|confirmemos)"
        r"|(?:once|when) (?:your payment |your report |it )?(?:is|has been|gets|'s) "
        r"(?:verified|credited|approved|confirmed)|(?:once|when) we (?:verify|confirm)"
        r"|(?:aun no|todavia no|sigue sin|aun sin|todavia sin|not yet|yet to be|still not"
        r"|still (?:hasn't|has not|haven't|have not)(?: been)?)(?: \w+){0,2}?"
        r" (?:verificad|revisad|acreditad|confirmad|aprobad)[oa]s?"
        r"|(?:not yet|yet to be|still not|still (?:hasn't|has not|haven't|have not)(?: been)?)"
        r"(?: \w+){0,2}? (?:verified|reviewed|credited|confirmed|approved)"
        r"|hasta (?:que )?(?:lo |la )?(?:verifiquemos|confirmemos|revisemos|se verifique|sea verificad[oa]"
        r"|verificarlo|verificarla)|until (?:we (?:verify|confirm|review)|it is verified|it's verified"
        r"|verified))\b"
    ),
}
_REASON_WORDS: dict[str, re.Pattern[str]] = {
    "reference_not_found": re.compile(
        r"referencia(?: \S+){0,2}? no (?:aparece|existe|fue encontrada|se encontro|figura)|"
        r"no (?:encontramos|encontre|se encontro|aparece) (?:la |esa |tu )?referencia|"
        r"reference(?: \S+){0,2}? (?:was |is )?not found"
        r"|reference(?: \S+){0,2}? (?:does not|doesn't|did not|didn't) (?:appear|exist|show up)|"
        r"(?:could not|couldn't) find (?:the |that |your )?reference"
    ),
    "amount_mismatch": re.compile(
        r"monto no coincide|no coincide el monto|monto (?:es )?(?:distinto|diferente)|"
        r"amount (?:does not|doesn't|did not|didn't) match|amount mismatch|amounts? differ"
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
    r"\b(?:no|not|\w+n't|ni|nada|nothing|none|aun no|todavia no|sin|never|nunca|yet to|once|"
    r"when|if|until|after|will|cuando|una vez|si|hasta que|sera|seran)(?![\w'])(?:\s+[\w']+){0,3}\s*\Z"
)
"""A negation or a condition up to three words before a claim ("aún no ha sido verificado",
"once it is verified", "cuando sea verificado"): no claim of what is."""
_PUBLISHED = re.compile(
    r"\b(?:publicad[oa]s?|se publico|publico|published|(?:se )?actualizo|actualizad[oa]|salio"
    r"|came out|updated|released)\b"
    r"|(?<=\btasa )(?:de hoy |del dia )?(?:subio|bajo|cambio|aumento)\b"
    r"|(?<=\brate )(?:today )?(?:went up|went down|changed|rose|fell)\b"
)
"""A publication claimed: published, updated, released, or a rate said to have moved (a
move is a new publication)."""
_TODAY_BEFORE = re.compile(r"\b(?:hoy|today|this morning|esta manana)\b[^.;:\n\d]{0,20}\Z")
""""Hoy el BCV actualizó la tasa": the day said just before the publication's verb."""
_TODAY = re.compile(r"\A[^.;\n\d]{0,12}?\b(?:hoy|today|this morning|esta manana)\b")
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


_NOT = re.compile(r"\b(?:no|not|never|nunca|ya no|no longer)\b(?:\s+\w+){0,3}\s*\Z")
"""Only a negation takes back a pending claim: a condition or a future ("will stay on hold
until we verify it", "seguirá en revisión") still says the report is not verified."""
_DEBT_NOUNS = re.compile(
    r"\b(?:factura|recibo|deuda|cuota|cargo|invoice|bill|debt|charge|installment)s?\b"
)
_REPORT_NOUNS = re.compile(
    r"\b(?:reporte|report|pago|payment|transferencia|transfer|deposito|deposit|abono)s?\b"
)
_CLAUSE_START = re.compile(r".*(?:[;:]|,(?!\d)|\b(?:y|e|and|but|pero)\b)", re.DOTALL)
"""Up to the last clause break before a claim (a decimal comma breaks nothing)."""


def _pending_of_a_debt(folded: str, start: int) -> bool:
    """Whether "pendiente"/"pending" at `start` is said of an invoice or a debt ("tu factura de
    USD 32,48 sigue pendiente"): its clause names one and no report or payment."""
    opened = _CLAUSE_START.match(folded, 0, start)
    clause = folded[opened.end() if opened else 0 : start]
    return bool(_DEBT_NOUNS.search(clause)) and not _REPORT_NOUNS.search(clause)


_BECAUSE = re.compile(r"\b(?:porque|ya que|debido a|dado que|because|since|due to|as)\b|:")
"""What opens a rejection's explanation ("fue rechazado porque …", "rejected: …")."""


def _unknown_reason(folded: str) -> list[str]:
    """An explanation after a rejection that names none of the contract's reasons ("porque
    el pago se hizo desde la cuenta de un tercero"): a reason the evidence does not give."""
    rejected = _STATUS_WORDS["rejected"].search(folded)
    if rejected is None:
        return []
    because = _BECAUSE.search(folded, rejected.end())
    if because is None or any(p.search(folded, because.end()) for p in _REASON_WORDS.values()):
        return []
    return [because[0]] if folded[because.end() :].strip(" .!") else []


def _claims(folded: str, words: dict[str, re.Pattern[str]]) -> list[tuple[str, str]]:
    """(what is claimed, its wording) of every claim not just after a negation (a pending
    claim: a negation only), and no pending claim said of an invoice or a debt."""
    return [
        (claim, match[0])
        for claim, pattern in words.items()
        for match in pattern.finditer(folded)
        if (_NOT if claim == "pending_verification" else _NEGATED).search(folded, 0, match.start())
        is None
        and not (claim == "pending_verification" and _pending_of_a_debt(folded, match.start()))
    ]


def _report_claims(sentence: str, reports: Sequence[_Report]) -> list[str]:
    folded = fold(sentence)
    spoken = _spoken_of(sentence, reports)
    if not spoken:
        return []
    failed = [w for s, w in _claims(folded, _STATUS_WORDS) if any(r.status != s for r in spoken)]
    failed += [  # a reason is claimed even after a "no" ("no fue aprobado porque no …")
        match[0]
        for why, pattern in _REASON_WORDS.items()
        for match in pattern.finditer(folded)
        if any(r.reason != why for r in spoken)
    ]
    if all(r.status == "rejected" for r in spoken):
        failed += _unknown_reason(folded)
    return failed + _credited_claims(sentence, spoken)


_CREDITED = re.compile(
    r"\b(?:acreditad[oa]s?|se (?:te |le )?acredit(?:o|aron)|acreditamos|abonad[oa]s?"
    r"|se (?:te |le )?abon(?:o|aron)|abonamos|credited)\b"
)
_CREDIT_REACH = 30
"""How far from a credit word its amount may stand ("se acreditaron a tu cuenta USD 14,25",
"USD 14.25 credited")."""
_BECAME = re.compile(
    r"\s*(?::|,?\s*(?:como|as|into|en|a|to"
    r"|(?:que |lo que |which |that )?(?:equivalen?|equivalentes?|equivalent|equals?|son|is|are)"
    r"(?: a| to)?|convertid[oa]s?(?: a| en)?|converted(?: to| into)?|es decir|o sea|that is"
    r"|a la tasa (?:de|del)\b[^;]*?:|at the rate of\b[^;]*?:))\s*(?:usd|ves|bs\.?|\$|us\$)?\s*"
)
"""All that may stand between the amount a credit word is said of (or the word itself, after
that amount) and the credit it became: "acreditamos tu pago de Bs. 1.310,40 como USD 14,25",
", que equivalen a USD 14,25", ": USD 14,25", "a la tasa de … por dólar: USD 14,25". Anything
else — "Acreditamos Bs. 1.310,40, quedan USD 14,25 a favor", ", leaving USD 14.25" — is another
phrase's amount, and the one said to be credited is the first."""
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
    holds when what follows that amount (or the word, when the amount stands before it) is
    the credit it became (`_BECAME`: "como USD 14,25")."""
    folded = fold(sentence)
    amounts = find_amounts(folded)  # offsets in the folded text the words are found in
    failed = []
    for match in _CREDITED.finditer(folded):
        if _NEGATED.search(folded, 0, match.start()) is not None:
            continue  # "todavía no está acreditado", "nothing was credited": no amount credited
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
        since = max(said.end, match.end())
        became = next((a for a in amounts if a.start >= since), None)
        if not _credited_as(folded, said, spoken) and not (
            became is not None
            and _BECAME.fullmatch(folded, since, became.start)
            and _credited_as(folded, became, spoken)
        ):
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
        mention = next(iter(find_dates(reach)), None)
        if mention is not None and mention.start > _PUBLICATION_REACH // 2:
            mention = None
        if (
            _TODAY.search(reach)
            or "hoy" in match[0]  # "la tasa de hoy subió": today's, whatever it is compared to
            or (mention is None and _TODAY_BEFORE.search(folded, 0, match.start()))
        ):
            days = {day for day, of in published.items() if day == of}
            claimed = "hoy/today"
        elif mention is not None:
            days = {of for of in published.values() if of == mention.value}
            claimed = mention.literal
        else:
            continue
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
