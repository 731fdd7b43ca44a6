"""The template narrator: deterministic sentences around the API's own figures.

The embedded default, and the baseline any model must beat. It writes Spanish unless the
subscriber wrote English; every figure is the API's string, either verbatim or regrouped in
es-VE form (`USD 45,00`, `Bs. 1.234,56`), and every date is the API's date written with month
names. It never adds, subtracts or rounds: a difference between two bills is only stated when
the `bill_change` capability computed it. When the data does not have the shape it knows, it
falls back to quoting the tool's evidence text verbatim rather than guessing.

A policy answer quotes the sentences of the best chunk that share the question's content
words, not the whole chunk; it prefers policy chunks, and quotes a worked example only
labelled as one ("Ejemplo ilustrativo (no corresponde a tu cuenta)"), never as their bill.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from billing_toolkit.assistant.knowledge.banks import bank_named
from billing_toolkit.assistant.narrator.base import (
    EvidenceChunk,
    Narration,
    NarrationError,
    NarrationRequest,
)
from billing_toolkit.assistant.retrieval.stopwords import STOPWORDS
from billing_toolkit.assistant.text.dates import format_date
from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.text.money import format_amount
from billing_toolkit.assistant.text.sentences import split_sentences
from billing_toolkit.assistant.vocabulary.intents import Intent
from billing_toolkit.client.tool_result import ToolResult

Data = Mapping[str, Any]

_INVOICE_STATUS = {
    "open": ("pendiente", "open"),
    "paid": ("pagada", "paid"),
    "overdue": ("vencida", "overdue"),
    "void": ("anulada", "void"),
}
_LINE_KIND = {
    "plan_charge": ("Plan", "Plan"),
    "proration": ("Prorrateo", "Proration"),
    "late_fee": ("Recargo por mora", "Late fee"),
    "tax": ("IVA", "VAT (IVA)"),
    "installation": ("Instalación", "Installation"),
    "equipment": ("Equipo", "Equipment"),
    "reconnection": ("Reconexión", "Reconnection"),
    "discount": ("Descuento", "Discount"),
}
METHOD_NAMES = {  # public: the narration faults swap one for another
    "pago_movil": ("Pago Móvil", "Pago Móvil"),
    "bank_transfer": ("transferencia bancaria", "bank transfer"),
    "zelle": ("Zelle", "Zelle"),
    "cash": ("efectivo", "cash"),
    "card": ("tarjeta en punto de venta", "card at a point of sale"),
}
_SERVICE_STATUS = {
    "active": ("activo", "active"),
    "suspended": ("suspendido", "suspended"),
    "cancelled": ("cancelado", "cancelled"),
}


class _Writer:
    """Phrases in the subscriber's language, with the API's figures formatted for them."""

    def __init__(self, language: Language) -> None:
        self.language = language

    def t(self, es: str, en: str) -> str:
        return en if self.language is Language.ENGLISH else es

    def label(self, table: Mapping[str, tuple[str, str]], key: str) -> str:
        return self.t(*table[key])

    def money(self, amount: str, currency: str) -> str:
        return format_amount(amount, currency, self.language)

    def day(self, iso: str) -> str:
        return format_date(date.fromisoformat(iso[:10]), self.language)


def _balance(w: _Writer, data: Data) -> str:
    c = data["currency"]
    text = w.t(
        f"Según el sistema de facturación, tu cuenta {data['account_number']} tiene un saldo "
        f"neto de {w.money(data['net_balance'], c)}. Por pagar: {w.money(data['amount_due'], c)}; "
        f"vencido: {w.money(data['overdue_amount'], c)}; saldo a favor: "
        f"{w.money(data['credit_balance'], c)}.",
        f"According to the billing system, account {data['account_number']} has a net balance "
        f"of {w.money(data['net_balance'], c)}. Amount due: {w.money(data['amount_due'], c)}; "
        f"overdue: {w.money(data['overdue_amount'], c)}; credit: "
        f"{w.money(data['credit_balance'], c)}.",
    )
    if data.get("next_due_date"):
        day = w.day(data["next_due_date"])
        text += w.t(f" Tu próximo vencimiento es el {day}.", f" Your next due date is {day}.")
    days = data.get("days_until_due")
    if days is not None and days >= 0:
        text += w.t(
            f" Te quedan {days} días para pagar sin recargo.",
            f" You have {days} days left to pay without a late fee.",
        )
    return text


def _arrears(w: _Writer, data: Data) -> str:
    """What is overdue, how long and how much of it is late fees: figures the capability
    computed, never the narrator."""
    c = data["currency"]
    if not data["overdue_invoices"]:
        return w.t(
            "No tienes facturas vencidas: no hay mora en tu cuenta.",
            "You have no overdue invoices: nothing is in arrears on your account.",
        )
    overdue, fees = w.money(data["overdue_amount"], c), w.money(data["late_fees"], c)
    numbers = ", ".join(data["overdue_invoices"])
    since = w.day(data["oldest_due_date"])
    return w.t(
        f"Tienes {overdue} vencido ({numbers}). De eso, {fees} es recargo por mora ya "
        f"facturado. La factura vencida más antigua venció el {since} y lleva "
        f"{data['days_overdue']} días vencida.",
        f"You have {overdue} overdue ({numbers}). Of that, {fees} is late fees already "
        f"billed. The oldest overdue invoice fell due on {since} and has been overdue for "
        f"{data['days_overdue']} days.",
    )


def _invoice_line(w: _Writer, invoice: Data) -> str:
    c = invoice["currency"]
    status = w.label(_INVOICE_STATUS, invoice["status"])
    return w.t(
        f"• {invoice['invoice_number']}: emitida el {w.day(invoice['issue_date'])}, vence el "
        f"{w.day(invoice['due_date'])}, total {w.money(invoice['total'], c)}, por pagar "
        f"{w.money(invoice['amount_due'], c)} ({status}).",
        f"• {invoice['invoice_number']}: issued {w.day(invoice['issue_date'])}, due "
        f"{w.day(invoice['due_date'])}, total {w.money(invoice['total'], c)}, amount due "
        f"{w.money(invoice['amount_due'], c)} ({status}).",
    )


def _invoices(w: _Writer, data: Data) -> str:
    invoices: Sequence[Data] = data["invoices"]
    if not invoices:
        return w.t(
            "No encontré facturas con ese criterio en tu cuenta.",
            "I found no invoices like that on your account.",
        )
    header = (
        w.t("Tu factura más reciente:", "Your most recent invoice:")
        if len(invoices) == 1
        else w.t("Tus facturas más recientes:", "Your most recent invoices:")
    )
    return "\n".join([header, *(_invoice_line(w, invoice) for invoice in invoices)])


def _invoice(w: _Writer, invoice: Data) -> str:
    c = invoice["currency"]
    period = invoice["billing_period"]
    status = w.label(_INVOICE_STATUS, invoice["status"])
    lines = [
        f"• {w.label(_LINE_KIND, item['kind'])}: {w.money(item['amount'], c)}"
        for item in invoice["line_items"]
    ]
    head = w.t(
        f"Factura {invoice['invoice_number']} ({status}): período del {w.day(period['start'])} "
        f"al {w.day(period['end'])}, emitida el {w.day(invoice['issue_date'])}, vence el "
        f"{w.day(invoice['due_date'])}.\nDetalle:",
        f"Invoice {invoice['invoice_number']} ({status}): period {w.day(period['start'])} to "
        f"{w.day(period['end'])}, issued {w.day(invoice['issue_date'])}, due "
        f"{w.day(invoice['due_date'])}.\nDetails:",
    )
    totals = w.t(
        f"Subtotal {w.money(invoice['subtotal'], c)}; IVA {w.money(invoice['tax'], c)}; total "
        f"{w.money(invoice['total'], c)}; pagado {w.money(invoice['amount_paid'], c)}; por pagar "
        f"{w.money(invoice['amount_due'], c)}.",
        f"Subtotal {w.money(invoice['subtotal'], c)}; VAT {w.money(invoice['tax'], c)}; total "
        f"{w.money(invoice['total'], c)}; paid {w.money(invoice['amount_paid'], c)}; amount due "
        f"{w.money(invoice['amount_due'], c)}.",
    )
    return "\n".join([head, *lines, totals])


def _last_payment(w: _Writer, data: Data) -> str:
    payment = data["payment"]
    if payment is None:
        return w.t(
            "No encontré pagos registrados en tu cuenta.",
            "I could not find any payments on your account.",
        )
    return w.t("Tu último pago registrado es ", "Your last recorded payment is ") + _payment(
        w, payment
    )


def _payments(w: _Writer, data: Data) -> str:
    """The payments a month, "the one before" or "that one" named (`turn/payment_choice.py`)."""
    payments, asked = data["payments"], data.get("asked")
    if asked is None:
        lead = (
            w.t(f"Pagaste la factura {invoice} con ", f"You paid invoice {invoice} with ")
            if (invoice := data.get("of_invoice"))
            else w.t("Ese pago es ", "That payment is ")
            if data.get("shown")
            else w.t("El pago anterior es ", "The payment before that is ")
        )
        return "\n".join(lead + _payment(w, payment) for payment in payments)
    if len(payments) == 1:
        return w.t(f"Tu pago de {asked} es ", f"Your payment in {asked} is ") + _payment(
            w, payments[0]
        )
    head = w.t(
        f"En {asked} recibimos {len(payments)} pagos tuyos:",
        f"In {asked} we received {len(payments)} payments from you:",
    )
    return "\n".join([head, *(f"• {_payment(w, payment)}" for payment in payments)])


def _payment(w: _Writer, payment: Data) -> str:
    """One payment: its id, day, amount and method, reference, what it paid and what it left."""
    c = payment["currency"]
    method = w.label(METHOD_NAMES, payment["method"])
    text = w.t(
        f"{payment['payment_id']}, del {w.day(payment['received_at'])}, por "
        f"{w.money(payment['amount'], c)} ({method})",
        f"{payment['payment_id']}, on {w.day(payment['received_at'])}, for "
        f"{w.money(payment['amount'], c)} ({method})",
    )
    if payment.get("reference"):
        text += w.t(f", referencia {payment['reference']}", f", reference {payment['reference']}")
    text += "."
    allocations = "; ".join(
        f"{a['invoice_number']} ({w.money(a['amount'], c)})" for a in payment["allocations"]
    )
    if allocations:
        text += w.t(f" Se aplicó a: {allocations}.", f" It paid: {allocations}.")
    if Decimal(payment["unapplied_amount"]) != 0:
        unapplied = w.money(payment["unapplied_amount"], c)
        text += w.t(
            f" Quedaron {unapplied} como saldo a favor.",
            f" {unapplied} became credit on your account.",
        )
    return text


def _plan(w: _Writer, data: Data) -> str:
    subscription = data["subscription"]
    plan = subscription["plan"]
    price = w.money(plan["monthly_price"], plan["currency"])
    status = w.label(_SERVICE_STATUS, subscription["status"])
    text = w.t(
        f"Tu plan actual es {plan['name']} ({plan['plan_id']}): {plan['download_mbps']} Mbps de "
        f"bajada y {plan['upload_mbps']} Mbps de subida por {price} al mes. Estado del servicio: "
        f"{status}.",
        f"Your current plan is {plan['name']} ({plan['plan_id']}): {plan['download_mbps']} Mbps "
        f"down and {plan['upload_mbps']} Mbps up for {price} a month. Service status: {status}.",
    )
    if subscription.get("next_billing_date"):
        day = w.day(subscription["next_billing_date"])
        text += w.t(
            f" Tu próxima factura se emite el {day}.", f" Your next invoice is issued on {day}."
        )
    change = subscription.get("pending_change")
    if change:
        day = w.day(change["effective_date"])
        target = data.get("pending_plan") or {}
        name = f"{target['name']} ({change['plan_id']})" if target else change["plan_id"]
        text += w.t(
            f" Tienes un cambio programado al plan {name} a partir del {day}.",
            f" A change to plan {name} is scheduled from {day}.",
        )
    return text


def _direction(w: _Writer, difference: str, currency: str) -> str:
    """Up or down in words with the unsigned figure, as the tool's evidence states it."""
    if difference.startswith("-"):
        return w.t("bajó ", "went down by ") + w.money(difference[1:], currency)
    if Decimal(difference) == 0:
        return w.t("no cambió", "did not change")
    return w.t("subió ", "went up by ") + w.money(difference, currency)


def _change_lines(w: _Writer, data: Data, latest: Data) -> list[str]:
    c = latest["currency"]
    lines = []
    for kind in data["appeared"]:
        amounts = [item["amount"] for item in latest["line_items"] if item["kind"] == kind]
        amount = f" {w.t('de', 'of')} {w.money(amounts[0], c)}" if len(amounts) == 1 else ""
        lines.append(f"• {w.label(_LINE_KIND, kind)}: {w.t('cargo nuevo', 'new charge')}{amount}.")
    lines += [
        w.t(
            f"• {w.label(_LINE_KIND, kind)}: ya no aparece.",
            f"• {w.label(_LINE_KIND, kind)}: no longer charged.",
        )
        for kind in data["disappeared"]
    ]
    lines += [
        f"• {w.label(_LINE_KIND, kind)}: {_direction(w, difference, c)}."
        for kind, difference in data["changed"].items()
    ]
    return lines


def _bill_change(w: _Writer, data: Data) -> str:
    latest, previous = data["latest"], data["previous"]
    if previous is None:
        return w.t(
            f"No tienes una factura anterior a {latest['invoice_number']} con la que compararla.",
            f"You have no invoice before {latest['invoice_number']} to compare it with.",
        )
    head = w.t(
        f"Tu factura {latest['invoice_number']} es de "
        f"{w.money(latest['total'], latest['currency'])} y la anterior, "
        f"{previous['invoice_number']}, fue de {w.money(previous['total'], previous['currency'])}.",
        f"Your invoice {latest['invoice_number']} is "
        f"{w.money(latest['total'], latest['currency'])} and the previous one, "
        f"{previous['invoice_number']}, was {w.money(previous['total'], previous['currency'])}.",
    )
    if data["total_difference"] is None:
        return head + w.t(
            " Están en monedas distintas, así que no las comparo.",
            " They are in different currencies, so I do not compare them.",
        )
    total = _direction(w, data["total_difference"], latest["currency"])
    lines = _change_lines(w, data, latest)
    return "\n".join(
        [
            head + w.t(f" El total {total}.", f" The total {total}."),
            *([w.t("Lo que cambió:", "What changed:"), *lines] if lines else []),
        ]
    )


def _rate_figure(w: _Writer, rate: str) -> str:
    """The rate as the evidence spells it for the subscriber (a decimal comma in Spanish),
    with no currency beside it: four decimals make it a rate, not an amount."""
    return rate.replace(".", ",") if w.language is Language.SPANISH else rate


def _exchange_rate(w: _Writer, data: Data) -> str:
    """The rate of the day asked and, when it was not published that day, the day it is
    from; with an amount, that amount at the rate (computed by the capability)."""
    rate, source = _rate_figure(w, data["rate"]), data["source"]
    if data["carried_over"]:
        text = w.t(
            f"El {w.day(data['date'])} no hubo publicación de tasa; rige la última publicada, "
            f"la del {w.day(data['effective_date'])}: {rate} por dólar, en bolívares "
            f"(fuente: {source}).",
            f"No rate was published for {w.day(data['date'])}; the last published rate "
            f"applies, that of {w.day(data['effective_date'])}: {rate} per dollar, in bolívars "
            f"(source: {source}).",
        )
    else:
        text = w.t(
            f"La tasa oficial del {w.day(data['date'])} es de {rate} por dólar, en bolívares "
            f"(fuente: {source}).",
            f"The official rate for {w.day(data['date'])} is {rate} per dollar, in bolívars "
            f"(source: {source}).",
        )
    if data.get("ves_amount") is None:
        return text
    usd, ves = w.money(data["usd_amount"], "USD"), w.money(data["ves_amount"], "VES")
    return text + w.t(f" A esa tasa, {usd} son {ves}.", f" At that rate, {usd} is {ves}.")


def _amount_due(w: _Writer, data: Data) -> str:
    """The amount due alone (or the overdue part, when that is what was converted): the
    rate's part says what it is in bolívares."""
    if data.get("converted") == "overdue_amount":
        overdue = w.money(data["overdue_amount"], data["currency"])
        return w.t(
            f"Tu cuenta {data['account_number']} tiene {overdue} vencido.",
            f"Account {data['account_number']} has {overdue} overdue.",
        )
    return w.t(
        f"Tu cuenta {data['account_number']} tiene por pagar "
        f"{w.money(data['amount_due'], data['currency'])}.",
        f"Account {data['account_number']} has {w.money(data['amount_due'], data['currency'])} "
        "due.",
    )


_REPORT_METHOD = {
    "pago_movil": ("Pago Móvil", "Pago Móvil"),
    "bank_transfer": ("transferencia", "bank transfer"),
    "zelle": ("Zelle", "Zelle"),
}
_REJECTION = {
    "reference_not_found": (
        "esa referencia no aparece en el estado de cuenta del banco",
        "that reference does not appear on the bank statement",
    ),
    "amount_mismatch": (
        "el monto no coincide con el que muestra el banco para esa referencia",
        "the amount does not match what the bank shows for that reference",
    ),
    "duplicate_reference": (
        "esa referencia ya había sido reportada antes",
        "that reference had already been reported",
    ),
    "currency_not_allowed": (
        (
            "ese método de pago no se recibe en esa moneda (Zelle es solo en dólares; Pago Móvil "
            "y transferencia, en bolívares)"
        ),
        (
            "that payment method is not taken in that currency (Zelle is in dollars only; Pago "
            "Móvil and bank transfers in bolívares)"
        ),
    ),
}


def _report_said(w: _Writer, report: Data) -> str:
    """The report as recorded: method, amount, reference, bank and day paid."""
    bank = bank_named(report["bank"]) if report.get("bank") else None
    at = f", {bank.name}" if bank else ""
    return (
        f"{report['report_id']} ({w.label(_REPORT_METHOD, report['method'])} "
        f"{w.money(report['amount'], report['currency'])}, "
        f"{w.t('referencia', 'reference')} {report['reference']}{at}, "
        f"{w.t('del', 'of')} {w.day(report['payment_date'])})"
    )


def _report_status(w: _Writer, report: Data) -> str:
    """A report's status in plain words; never a balance (none changes while pending, and a
    verified report's effect on the balance is the balance question's to answer). The
    payment a verified report became is named in a sentence of its own: a figure in a
    sentence naming the payment is read as the payment's."""
    said = _report_said(w, report)
    if report["status"] == "verified":
        return w.t(
            f"Tu reporte de pago {said} fue verificado. Quedó registrado como el pago "
            f"{report['payment_id']}.",
            f"Your payment report {said} was verified. It was recorded as payment "
            f"{report['payment_id']}.",
        )
    if report["status"] == "rejected":
        reason = w.label(_REJECTION, report["rejection_reason"])
        return w.t(
            f"Tu reporte de pago {said} fue rechazado: {reason}. Si crees que es un error, "
            "escríbenos y un asesor lo revisa.",
            f"Your payment report {said} was rejected: {reason}. If you think this is a "
            "mistake, write to us and an agent will look into it.",
        )
    return w.t(f"Tu reporte de pago {said} ", f"Your payment report {said} ") + _pending(w)


def _pending(w: _Writer) -> str:
    return w.t(
        "está pendiente de verificación: el equipo de facturación lo compara con el estado de "
        "cuenta del banco, y tu saldo no cambia mientras tanto.",
        "is pending verification: the billing team checks it against the bank statement, and "
        "your balance does not change in the meantime.",
    )


def _filed_report(w: _Writer, data: Data) -> str:
    """The 201: the report as recorded, and its status (pending, as every new report is)."""
    if data["status"] != "pending_verification":
        return _report_status(w, data)
    said = _report_said(w, data)
    return w.t(
        f"Registré tu reporte de pago {said}. Ahora ", f"I recorded your payment report {said}. It "
    ) + _pending(w)


def _latest_report(w: _Writer, data: Data) -> str:
    if data["report"] is None and data.get("reference"):  # asked by a reference none has
        reference = data["reference"]
        return w.t(
            f"No encontré un reporte de pago con la referencia {reference} en tu cuenta.",
            f"I could not find a payment report with reference {reference} on your account.",
        )
    if data["report"] is None:
        return w.t(
            "No encontré reportes de pago en tu cuenta.",
            "I could not find any payment reports on your account.",
        )
    return _report_status(w, data["report"])


_BY_INTENT: dict[Intent, Callable[[_Writer, Data], str]] = {
    Intent.BALANCE: _balance,
    Intent.INVOICES: _invoices,
    Intent.INVOICE: _invoice,
    Intent.LAST_PAYMENT: _last_payment,
    Intent.PLAN: _plan,
    Intent.BILL_CHANGE: _bill_change,
    Intent.EXCHANGE_RATE: _exchange_rate,
    Intent.DUE_IN_BOLIVARES: _amount_due,
    Intent.PAYMENT_REPORT: _filed_report,
    Intent.REPORT_STATUS: _latest_report,
}

_BY_CAPABILITY: dict[str, Callable[[_Writer, Data], str]] = {
    "arrears": _arrears,
    "exchange_rate": _exchange_rate,
    "payments": _payments,
}
"""Capabilities whose data has a shape of its own, whatever the intent."""


def _from_tool(w: _Writer, intent: Intent, result: ToolResult) -> str:
    """Narrate one tool result, or quote its evidence when its data has an unknown shape."""
    try:
        narrate = _BY_CAPABILITY.get(result.capability) or _BY_INTENT[intent]
        return narrate(w, result.data or {})
    except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
        if not result.evidence_text:
            raise NarrationError(f"cannot narrate {result.capability}: {exc!r}") from exc
        return (
            w.t(
                "Esto es lo que indica el sistema de facturación: ",
                "This is what the billing system shows: ",
            )
            + result.evidence_text
        )


def _service(w: _Writer, data: Data) -> str:
    """The state of the subscriber's service, from their subscription."""
    subscription = data["subscription"]
    status = subscription["status"]
    text = w.t(
        f"Según el sistema de facturación, tu servicio está {w.label(_SERVICE_STATUS, status)}.",
        f"According to the billing system, your service is {w.label(_SERVICE_STATUS, status)}.",
    )
    if status == "active":
        text += w.t(
            " En tu cuenta no hay una suspensión: si no tienes conexión puede ser una "
            "falla técnica.",
            " There is no suspension on your account: if you have no connection it may "
            "be a technical fault.",
        )
    return text


def _overdue(w: _Writer, data: Data) -> str:
    c = data["currency"]
    if Decimal(data["overdue_amount"]) == 0:
        return w.t("No tienes montos vencidos.", "You have nothing overdue.")
    return w.t(
        f"Tienes {w.money(data['overdue_amount'], c)} vencido; al pagarlo se reconecta "
        "el servicio.",
        f"You have {w.money(data['overdue_amount'], c)} overdue; paying it reconnects the service.",
    )


_SERVICE_PARTS: dict[str, Callable[[_Writer, Data], str]] = {"plan": _service, "balance": _overdue}
_WORD = re.compile(r"\w+")
MAX_SENTENCES = 3


_SAME_MEANING: dict[str, str] = {
    "corta": "suspe",
    "corte": "suspe",
    "cut": "suspe",
    "cutof": "suspe",
}
"""Stems a subscriber uses for what the policy calls otherwise: "¿cuándo me cortan el
servicio?" asks about the suspension ("se suspende"), not the reconnection."""


def _content_words(text: str) -> set[str]:
    """Folded words minus stopwords, cut to five letters so "pago" meets "pagos"/"pagar"
    (and a subscriber's "cortan" the policy's "suspende", `_SAME_MEANING`)."""
    stems = (word[:5] for word in _WORD.findall(fold(text)) if word not in STOPWORDS)
    return {_SAME_MEANING.get(stem) or stem for stem in stems if len(stem) > 2}


def _sentences(chunk: EvidenceChunk) -> list[str]:
    """The chunk's sentences; a list (or table) stays whole and joins the sentence that
    introduces it ("usa estos datos:"), since the items are what that sentence promises."""
    units: list[str] = []
    for line in chunk.text.strip().splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if (
            stripped[0] in "-*|•"
            and units
            and (units[-1].endswith(":") or units[-1][0] in "-*|•" or "\n" in units[-1])
        ):
            units[-1] += "\n" + stripped
        elif stripped[0] in "-*|•":
            units.append(stripped)
        else:
            units += split_sentences(stripped)
    return units


_ILLUSTRATION = re.compile(
    r"\b(?:por ejemplo|ejemplo|for example|for instance|e\.g\.)|"
    r"^(?:si|if) (?:tu|your)(?: \w+){1,3} (?:es|is|fuera|were) (?:el |the )?\d"
)


def is_illustration(sentence: str) -> bool:
    """A worked example inside a policy paragraph ("Si tu día es el 5, la factura emitida el
    5 de marzo…", "For example, …"): its figures are made up, so they must never read as the
    subscriber's."""
    return bool(_ILLUSTRATION.search(fold(sentence)))


def _answering_sentences(question: str, chunk: EvidenceChunk) -> list[str]:
    """The sentences of `chunk` that share the most content words with the question (at
    most `MAX_SENTENCES`, in the document's order); the chunk's opening ones when none does
    (the retriever already judged the chunk relevant). Illustrations are left out (the rule
    they illustrate is quoted instead), unless the chunk has nothing else."""
    wanted = _content_words(question)
    sentences = [s for s in _sentences(chunk) if not is_illustration(s)] or _sentences(chunk)
    scored = sorted(
        range(len(sentences)), key=lambda i: (-len(wanted & _content_words(sentences[i])), i)
    )
    best = [i for i in scored[:MAX_SENTENCES] if wanted & _content_words(sentences[i])]
    return [sentences[i] for i in sorted(best or range(min(2, len(sentences))))]


def _policy_text(w: _Writer, request: NarrationRequest) -> tuple[str, str] | None:
    """(text, chunk id) answering the question from the best chunk: a policy chunk in the
    subscriber's language first; an example is quoted only as one, labelled."""
    if not request.chunks:
        return None
    same_language = [c for c in request.chunks if c.language == request.language.value]
    candidates = same_language or list(request.chunks)
    policies = [c for c in candidates if c.kind == "policy"] or candidates
    wanted = _content_words(request.question)
    # The chunk that shares the most content words with the question; among equals the one
    # whose article title and section heading share the most ("¿cómo puedo pagar?": the
    # payment-methods article's opening, not the billing cycle's "para pagar"), then the one
    # retrieval ranked first (the chunks come in fused-rank order). A vector score alone
    # prefers a chunk about paying in general to the one about the method asked for.
    chunk = min(
        enumerate(policies),
        key=lambda ic: (
            -len(wanted & _content_words(ic[1].text)),
            -len(wanted & _content_words(ic[1].heading)),
            ic[0],
        ),
    )[1]
    chosen = _answering_sentences(request.question, chunk)
    body = " ".join(chosen)
    if chunk.kind != "policy" or all(is_illustration(sentence) for sentence in chosen):
        body = (
            w.t(
                "Ejemplo ilustrativo (no corresponde a tu cuenta): ",
                "Illustrative example (not your account): ",
            )
            + body
        )
    return body, chunk.chunk_id


def _policy(w: _Writer, request: NarrationRequest) -> Narration:
    found = _policy_text(w, request)
    if found is None:
        raise NarrationError("a policy answer needs at least one knowledge-base chunk")
    body, chunk_id = found
    return Narration(
        w.t("Según nuestras políticas: ", "According to our policies: ") + body, (chunk_id,)
    )


def _service_status(w: _Writer, request: NarrationRequest) -> Narration:
    """ "No tengo internet": the service state from their data, then what the suspension
    policy says about it."""
    parts = [
        _SERVICE_PARTS[r.capability](w, r.data or {})
        for r in request.tool_results
        if r.capability in _SERVICE_PARTS
    ]
    policy = _policy_text(w, request)
    used: tuple[str, ...] = ()
    if policy is not None:
        parts.append(policy[0])
        used = (policy[1],)
    if not parts:
        raise NarrationError("no service data or policy to narrate")
    return Narration(" ".join(parts), used)


class TemplateNarrator:
    """Deterministic narration; see the module docstring for what it will and won't do."""

    def narrate(self, request: NarrationRequest) -> Narration:
        w = _Writer(request.language)
        if request.intent is Intent.SERVICE:
            return _service_status(w, request)
        if request.intent not in _BY_INTENT:
            return _policy(w, request)
        if not request.tool_results:
            raise NarrationError(f"no tool result to narrate for intent {request.intent}")
        parts = [_from_tool(w, request.intent, result) for result in request.tool_results]
        return Narration("\n\n".join(parts), ())
