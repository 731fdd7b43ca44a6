"""A payment report over several turns: what is said is kept in a draft, a missing field is
asked for one at a time, and the complete report is filed once, under a key derived from
the message that completed it.

    "hice un pago móvil de Bs. 1.310,40"      → draft {method, amount}; "¿Cuál es la referencia?"
    "0045127"                                 → draft + reference;      "¿De qué banco?"
    "Banesco, hoy"                            → complete: filed, "Registré tu reporte PRP-… "

The draft lives in the conversation store (`Conversation.report_draft`, its own column), so
whichever replica takes the next turn continues it, until `DRAFT_TTL` after the last
question. A topic change **abandons** the draft: a message that says none of the report's
fields (a day counts only when the day was asked for: "¿cuánto debo hoy?") and is routed
elsewhere ("¿cuánto debo?") is answered as itself and the draft is dropped — a report is filed only from what the subscriber said while reporting it, never
from a half of it joined to a later, unrelated message. Nothing is judged here: an amount
that is not what is due, or a Zelle in bolívares, is filed as said and the billing team's
verification (the API) decides.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace
from datetime import date, datetime, timedelta
from decimal import Decimal

from billing_toolkit.assistant.store.model import ReportDraft
from billing_toolkit.assistant.text.dates import format_date
from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.understanding.payment_report_reading import (
    FIELDS,
    ReportReading,
    says_paid,
    with_currency_of_method,
)
from billing_toolkit.client.payment_report_capabilities import ReportedPayment

DRAFT_TTL = timedelta(minutes=30)
"""How long a question about a report waits for its answer."""

_QUESTIONS: dict[str, tuple[str, str]] = {
    "method": (
        "Para registrar tu reporte de pago, ¿cómo pagaste: Pago Móvil, transferencia o Zelle?",
        "To record your payment report: how did you pay — Pago Móvil, bank transfer or Zelle?",
    ),
    "amount": (
        "¿Qué monto pagaste? Indícalo con su moneda: bolívares o dólares.",
        "How much did you pay? Please include the currency: bolívares or dollars.",
    ),
    "reference": (
        "¿Cuál es el número de referencia del pago?",
        "What is the payment's reference number?",
    ),
    "bank": (
        "¿Desde qué banco hiciste el pago? Puedes escribir su nombre o su código.",
        "Which bank did you pay from? You can write its name or its code.",
    ),
    "payment_date": (
        "¿Qué día hiciste el pago?",
        "On what day did you pay?",
    ),
}
NEEDS_BANK = frozenset({"pago_movil", "bank_transfer"})
"""Methods verified against a bank's statement: the bank is asked for (a Zelle has none)."""


_DROPPED = re.compile(
    r"(?:(?:no|ok|okay|bueno|mejor|ah|oh|listo|nah|sorry|perdon|disculpa|actually|"
    r"pensandolo bien)[\s,.!]*)*"
    r"(?:olvidalo|olvidate|olvida(?:lo)? (?:el reporte|eso|todo)|dejalo(?: asi)?|"
    r"deja(?:lo)? (?:asi|eso)|mejor no|ya no|no importa|"
    r"cancela(?:lo)?(?: el reporte| eso| todo)?|no lo (?:registres|reportes)|"
    r"never ?mind|forget (?:it|about it|that)|cancel(?: it| that| the report)?|"
    r"don'?t (?:file|report|record) it|no thanks)"
    r"[\s,.!]*(?:gracias|thanks|thank you)?[\s.!]*"
)
"""A subscriber dropping the report being asked for, the whole message ("olvídalo", "mejor
no, cancela el reporte", "never mind"): only while a draft waits for an answer, and only
the whole message — "cancela el servicio" is a cancellation, for a person."""


def drops_the_report(message: str) -> bool:
    """Whether `message` only says to drop the report being asked for (`_DROPPED`)."""
    return bool(_DROPPED.fullmatch(fold(message).strip()))


_CORRECTION = re.compile(
    r"^\W*(?:no\b|perdon|disculpa|me equivoque|error|corrijo|correccion|quise decir|"
    r"en realidad|mejor dicho|sorry|actually|oops|my bad|i mean|wait|correction)"
    r"|\b(?:no era|no fue|it wasn'?t|it was not|not from)\b"
)
"""Words that take back something said ("no, fue ayer", "perdón, la referencia es…")."""


def corrects(message: str) -> bool:
    """Whether `message` is written as a correction of something said before."""
    return bool(_CORRECTION.search(fold(message)))


def says_a_report(reading: ReportReading, message: str) -> bool:
    """A message that reports a payment whatever the intent model read: a reference together
    with how or how much it was paid ("ya pagué por pago móvil ref 0123"), or how and how
    much, said as done ("I sent 1310bs by pago movil" — not "¿puedo pagar 1310 bs por pago
    móvil?")."""
    if reading.reference is not None:
        return reading.method is not None or reading.amount is not None
    return reading.method is not None and reading.amount is not None and says_paid(message)


def states_facts(reading: ReportReading) -> bool:
    """Whether a clause states a fact only a report has — a reference, an amount or a bank
    ("banesco hoy", "bs 1310,40"): it is part of the report, not a question beside it. A
    method is no such fact ("¿ya verificaron mi pago móvil?"), nor a day ("¿cuánto debo
    hoy?")."""
    return any(field is not None for field in (reading.reference, reading.amount, reading.bank))


def continues(draft: ReportDraft, reading: ReportReading) -> bool:
    """Whether a message goes on with `draft`: it says the field just asked for, or any
    field but a day — "hoy" and "ayer" are in questions too ("¿cuánto debo hoy?"), so a day
    alone continues a draft only when the day was asked for."""
    if draft.asked is not None and getattr(reading, draft.asked) is not None:
        return True
    if draft.asked == "payment_date" and reading.day_in_doubt:
        return True  # "11/05" again: asked again which day, the draft kept
    return any(getattr(reading, name) is not None for name in FIELDS if name != "payment_date")


def merged(draft: ReportDraft | None, reading: ReportReading) -> ReportDraft:
    """The draft with what `reading` adds; a field said again is taken as corrected."""
    base = draft or ReportDraft()
    method = reading.method or base.method
    said = with_currency_of_method(reading, method)
    return replace(
        base,
        method=method,
        amount=str(said.amount) if said.amount is not None else base.amount,
        currency=said.currency or (base.currency if said.amount is None else None),
        reference=said.reference or base.reference,
        bank=said.bank or base.bank,
        payment_date=said.payment_date.isoformat() if said.payment_date else base.payment_date,
    )


def missing(draft: ReportDraft) -> str | None:
    """The next field to ask for (`FIELDS` order), or None when the report is complete. An
    amount whose currency could not be told is asked for again, currency included."""
    for name in FIELDS:
        if name == "bank" and draft.method not in NEEDS_BANK:
            continue
        if getattr(draft, name) is None or (name == "amount" and draft.currency is None):
            return name
    return None


def asking(draft: ReportDraft, field: str, now: datetime) -> ReportDraft:
    """The draft as stored while `field` is asked for."""
    return replace(draft, asked=field, until=now + DRAFT_TTL)


def question(field: str, language: Language) -> str:
    es, en = _QUESTIONS[field]
    return en if language is Language.ENGLISH else es


def which_day(readings: tuple[date, date], language: Language) -> str:
    """The question for a numeric date written two ways ("6/11"): both days named in words,
    so the answer ("November 6") can be read one way only."""
    one, other = (format_date(day, language) for day in readings)
    if language is Language.ENGLISH:
        return f"Which day do you mean: {one} or {other}? Please write it with the month's name."
    return f"¿Qué día quieres decir: el {one} o el {other}? Escríbelo con el nombre del mes."


def reported(draft: ReportDraft) -> ReportedPayment:
    """The complete draft in the contract's terms (`missing(draft)` is None)."""
    if draft.method is None or draft.amount is None or draft.currency is None:
        raise ValueError("the report is not complete")
    if draft.reference is None or draft.payment_date is None:
        raise ValueError("the report is not complete")
    return ReportedPayment(
        method=draft.method,
        amount=Decimal(draft.amount),
        currency=draft.currency,
        reference=draft.reference,
        payment_date=date.fromisoformat(draft.payment_date),
        bank=draft.bank,
    )


def idempotency_key(tenant: str, phone: str, message_id: str | None, draft: ReportDraft) -> str:
    """The report's `Idempotency-Key`: from the WhatsApp id of the message that completed it,
    so a redelivered webhook files nothing new. A turn with no message id (the CLI, the
    evaluation) keys on the report itself: the same payment said twice is one report."""
    said = message_id if message_id is not None else repr(reported(draft))
    digest = hashlib.sha256(f"{tenant}|{phone}|{said}".encode()).hexdigest()
    return f"wa-report-{digest[:40]}"
