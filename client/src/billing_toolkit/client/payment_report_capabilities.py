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
from collections.abc import Generator
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, Generic, TypeVar

from billing_toolkit.client.capability_flows import Ask, CapabilityFlow, guarded
from billing_toolkit.client.errors import NotFoundError, ValidationError
from billing_toolkit.client.evidence import day, instant
from billing_toolkit.client.models.billing import ExchangeRate, PaymentReport
from billing_toolkit.client.money import format_amount, money
from billing_toolkit.client.tool_result import ToolResult
from billing_toolkit.contract.conversion import CENT, to_usd, to_ves

R = TypeVar("R")


OTHER_CURRENCY = {"USD": "VES", "VES": "USD"}
"""The contract's two currencies (`Currency`), each the other's conversion."""


usd_to_ves = to_ves
"""VES = USD × rate, half-up to the cent (the kernel's `conversion.to_ves`)."""
ves_to_usd = to_usd
"""USD = VES ÷ rate, half-up to the cent (the kernel's `conversion.to_usd`)."""


MAX_AMOUNT = Decimal(10**12)
"""The contract's `Amount` has at most twelve integer digits."""


def convertible(usd: Decimal) -> Decimal:
    """`usd` when it is an amount to convert: an `Amount` (not negative, two decimals).

    Bias: refuse. Rounding `32.485` first would convert a figure nobody gave, and a negative
    sum has no bolívares figure; the refusal is a business "no", never a crash.
    """
    if not usd.is_finite() or not 0 <= usd < MAX_AMOUNT or usd != usd.quantize(CENT):
        raise ValidationError(
            f"{usd} is not a dollar amount to convert (an amount with two decimals).",
            operation_id="getExchangeRate",
        )
    return usd


def rate_evidence(rate: ExchangeRate) -> str:
    """The rate as the API gives it, and as a Venezuelan reply writes it (a decimal comma):
    a rate has 2 to 8 decimals (its `scale`), so it is no amount and a reply can only quote
    its literal. A carried rate says so and names the day it was published for."""
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


def credit_evidence(report: PaymentReport, credited: Decimal) -> str:
    """What a verified report credited, with its currency and where the figure comes from.

    A report does not carry its account's currency; `exchange_rate.conversion` names a rate
    only when the report's currency is not the account's, so the credited currency is the
    other one of the contract's two then, and the report's own otherwise. Stating it (and
    the rate's date and unit) keeps a reader from guessing which currency a figure is in.
    """
    paid = money(report.currency.value, report.amount)
    if report.exchange_rate is None:
        credited_money = money(report.currency.value, credited)
        return (
            f" It became payment {report.payment_id}, credited {credited_money} to the "
            f"account (the reported {paid}, in the account's currency, not converted)."
        )
    credited_currency = OTHER_CURRENCY[report.currency.value]
    return (
        f" It became payment {report.payment_id}, credited {money(credited_currency, credited)}"
        f" to the account (the reported {paid} converted at the official rate of "
        f"{day(report.payment_date)}, VES {report.exchange_rate} per USD 1.00, rounded "
        "half-up to the cent)."
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
        return said + credit_evidence(report, report.credited_amount)
    if report.status.value == "rejected" and report.rejection_reason is not None:
        return said + f" Rejection reason: {report.rejection_reason.value}."
    return said + " Nothing is booked until the billing team verifies it against the bank."


def _exchange_rate(on: date, usd: Decimal | None) -> CapabilityFlow:
    """The rate of `on`; an amount that cannot be converted is refused before any call."""
    amount = None if usd is None else convertible(usd)
    rate = yield lambda c: c.get_exchange_rate(on)
    data: dict[str, Any] = rate.model_dump(mode="json")
    evidence = rate_evidence(rate)
    if amount is not None:
        ves = usd_to_ves(amount, Decimal(rate.rate))
        data |= {"usd_amount": format_amount(amount), "ves_amount": format_amount(ves)}
        evidence += conversion_evidence(amount, ves, rate)
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


REFERENCE_PAGE = 50
"""Reports per page when looking for one by its reference."""
REFERENCE_MAX_PAGES = 4
"""Pages walked for a reference (the newest 200 reports): a subscriber asks about a recent
payment; past that the answer is "none on record", never a guess."""


def _newest_of(
    account_number: str, reference: str | None
) -> Generator[Ask, Any, PaymentReport | None]:
    """The newest report (the list is newest first), or the newest of `reference` (compared
    as the bank prints it, without regard to case), or None."""
    wanted = reference.upper() if reference is not None else None
    limit, pages = (1, 1) if wanted is None else (REFERENCE_PAGE, REFERENCE_MAX_PAGES)
    cursor = None
    for _ in range(pages):
        page = yield lambda c, after=cursor: c.list_payment_reports(
            account_number, limit=limit, cursor=after
        )
        found = next((r for r in page.data if wanted in (None, r.reference.upper())), None)
        cursor = page.next_cursor
        if found is not None or cursor is None:
            return found
    return None


def _latest_report(account_number: str, reference: str | None) -> CapabilityFlow:
    """The account's newest report, or its newest of `reference`; none on record is an
    answer too (ok, `report` None)."""
    report = yield from _newest_of(account_number, reference)
    if report is None:
        of = f" with reference {reference}" if reference is not None else ""
        text = f"Account {account_number} has no payment reports{of} on record."
        data = {"account_number": account_number, "report": None, "reference": reference}
        return ToolResult("latest_payment_report", True, text, data)
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

    def latest_payment_report(self, account_number: str, reference: str | None = None) -> R:
        """The account's newest payment report ("¿ya verificaron mi pago?" names none), or
        with `reference` its newest report of that reference ("¿qué pasó con la referencia
        0045127?")."""
        flow = _latest_report(account_number, reference)
        subject = f"customer with account {account_number}"
        return self._run(guarded("latest_payment_report", subject, flow))
