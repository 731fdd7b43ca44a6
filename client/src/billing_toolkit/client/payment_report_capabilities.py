"""Capabilities for the two messages Venezuelan subscribers send most: the rate, and "I paid".

`exchange_rate` answers the official USD→VES rate of a date and, given a dollar amount,
its figure in bolívares computed here with the contract's rounding (`exchange_rate.
conversion`: VES = USD × rate, half-up to the cent), so the narrator quotes a number the
evidence states instead of multiplying on its own. `report_payment` records a payment
report and says it is pending: the evidence never states a new balance, because nothing
is booked until the billing team verifies it. `payment_report_status` and
`latest_payment_report` answer from the report's own status. The flows follow `capability_flows` (generators over client calls),
and `PaymentReportMethods` is mixed into `CapabilityMethods`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Generic, TypeVar

from billing_toolkit.client.capability_flows import CapabilityFlow, guarded
from billing_toolkit.client.errors import NotFoundError
from billing_toolkit.client.evidence import day, instant
from billing_toolkit.client.models.billing import ExchangeRate, PaymentReport
from billing_toolkit.client.money import format_amount, money
from billing_toolkit.client.tool_result import ToolResult

CENT = Decimal("0.01")

R = TypeVar("R")


def usd_to_ves(usd: Decimal, rate: Decimal) -> Decimal:
    """VES = USD × rate, rounded half-up to the cent (the contract's rounding)."""
    return (usd * rate).quantize(CENT, rounding=ROUND_HALF_UP)


def rate_evidence(rate: ExchangeRate) -> str:
    """The rate as the API gives it, and as a Venezuelan reply writes it (a decimal comma):
    a rate has four decimals, so it is no amount and a reply can only quote its literal."""
    carried = (
        f"no rate was published for {day(rate.date)}; this is the last published rate, "
        f"of {day(rate.effective_date)}"
        if rate.carried_over
        else f"published for {day(rate.effective_date)}"
    )
    return (
        f"Official exchange rate for {day(rate.date)}: VES {rate.rate} per USD 1.00 "
        f"(in es-VE notation {rate.rate.replace('.', ',')} per dollar; source {rate.source}, "
        f"{carried}, published {instant(rate.published_at)})."
    )


def conversion_evidence(usd: Decimal, ves: Decimal, rate: ExchangeRate) -> str:
    return (
        f" {money('USD', usd)} at the rate of {day(rate.date)} is {money('VES', ves)} "
        f"(USD × {rate.rate}, rounded half-up to the cent)."
    )


def report_evidence(report: PaymentReport) -> str:
    """The report as recorded and its status; a pending report says nothing was booked."""
    bank = f", bank {report.bank}" if report.bank else ""
    said = (
        f"Payment report {report.report_id} for account {report.account_number}: "
        f"{report.method.value} {money(report.currency.value, report.amount)}, reference "
        f"{report.reference}{bank}, paid {day(report.payment_date)}, reported "
        f"{instant(report.created_at)}; status {report.status.value}."
    )
    if report.status.value == "verified" and report.credited_amount is not None:
        rate = f" at rate {report.exchange_rate}" if report.exchange_rate else ""
        return said + (
            f" It became payment {report.payment_id}, credited "
            f"{format_amount(report.credited_amount)} in the account's currency{rate}."
        )
    if report.status.value == "rejected" and report.rejection_reason is not None:
        return said + f" Rejection reason: {report.rejection_reason.value}."
    return said + " Nothing is booked until the billing team verifies it against the bank."


def _exchange_rate(on: date, usd: Decimal | None) -> CapabilityFlow:
    rate = yield lambda c: c.get_exchange_rate(on)
    data: dict[str, Any] = rate.model_dump(mode="json")
    evidence = rate_evidence(rate)
    if usd is not None:
        ves = usd_to_ves(usd, Decimal(rate.rate))
        data |= {"usd_amount": format_amount(usd), "ves_amount": format_amount(ves)}
        evidence += conversion_evidence(usd, ves, rate)
    return ToolResult("exchange_rate", True, evidence, data)


@dataclass(frozen=True, slots=True)
class ReportedPayment:
    """What a subscriber said they paid, in the contract's terms (`PaymentReportCreate`)."""

    method: str
    amount: Decimal
    currency: str
    reference: str
    payment_date: date
    bank: str | None = None
    payer_phone: str | None = None
    payer_national_id: str | None = None


def _report_payment(account_number: str, paid: ReportedPayment, key: str) -> CapabilityFlow:
    report = yield lambda c: c.create_payment_report(
        account_number,
        method=paid.method,
        amount=paid.amount,
        currency=paid.currency,
        reference=paid.reference,
        bank=paid.bank,
        payment_date=paid.payment_date,
        payer_phone=paid.payer_phone,
        payer_national_id=paid.payer_national_id,
        idempotency_key=key,
    )
    return ToolResult(
        "report_payment", True, report_evidence(report), report.model_dump(mode="json")
    )


def _report_status(account_number: str, report_id: str) -> CapabilityFlow:
    """Another account's report answers exactly like a missing one."""
    report = yield lambda c: c.get_payment_report(report_id)
    if report.account_number != account_number:
        raise NotFoundError("No payment report has this id.", operation_id="getPaymentReport")
    return ToolResult(
        "payment_report_status", True, report_evidence(report), report.model_dump(mode="json")
    )


def _latest_report(account_number: str) -> CapabilityFlow:
    """The account's newest report (the list is newest first), or none on record."""
    page = yield lambda c: c.list_payment_reports(account_number, limit=1)
    if not page.data:
        text = f"Account {account_number} has no payment reports on record."
        return ToolResult(
            "latest_payment_report", True, text, {"account_number": account_number, "report": None}
        )
    report = page.data[0]
    data = {"account_number": account_number, "report": report.model_dump(mode="json")}
    return ToolResult("latest_payment_report", True, report_evidence(report), data)


class PaymentReportMethods(ABC, Generic[R]):
    """The rate and payment-report capabilities; the class they are mixed into runs them."""

    @abstractmethod
    def _run(self, flow: CapabilityFlow) -> R:
        """Drive `flow` to its result (blocking or awaited)."""

    def exchange_rate(self, on: date, usd_amount: Decimal | None = None) -> R:
        """The official rate of `on`; with `usd_amount`, its VES figure at that rate."""
        flow = _exchange_rate(on, usd_amount)
        return self._run(guarded("exchange_rate", f"exchange rate for {on.isoformat()}", flow))

    def report_payment(
        self, account_number: str, paid: ReportedPayment, *, idempotency_key: str
    ) -> R:
        """Record the report under `idempotency_key` (derive it from the message that
        reported the payment, so a redelivered message never reports twice)."""
        flow = _report_payment(account_number, paid, idempotency_key)
        return self._run(guarded("report_payment", f"customer with account {account_number}", flow))

    def payment_report_status(self, account_number: str, report_id: str) -> R:
        flow = _report_status(account_number, report_id)
        subject = f"payment report {report_id} on account {account_number}"
        return self._run(guarded("payment_report_status", subject, flow))

    def latest_payment_report(self, account_number: str) -> R:
        """The account's newest payment report ("¿ya verificaron mi pago?" names none)."""
        flow = _latest_report(account_number)
        subject = f"customer with account {account_number}"
        return self._run(guarded("latest_payment_report", subject, flow))
