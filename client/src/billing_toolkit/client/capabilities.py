"""Capabilities: what the assistant calls by name, each returning a `ToolResult`.

A capability never raises for a billing failure: data comes back `ok=True` with evidence;
a business "no" (not found, invalid identifier) comes back `ok=False,
should_escalate=False`, because it is an answer; any infrastructure failure (and a
rejected API key) comes back `should_escalate=True`, because it is an outage. The flows
live in `billing_toolkit.client.capability_flows`; the methods are written once here
(`CapabilityMethods`) and the two classes only drive a flow — blocking or awaiting — handing
each call's failure back to the flow, which decides what it means (as `call.py` does for
calls).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable
from contextlib import closing
from typing import Generic, TypeVar

from billing_toolkit.client import capability_flows as flows
from billing_toolkit.client.async_client import AsyncBillingClient
from billing_toolkit.client.call import advance
from billing_toolkit.client.capability_flows import CapabilityFlow
from billing_toolkit.client.errors import BillingError
from billing_toolkit.client.payment_report_capabilities import PaymentReportMethods
from billing_toolkit.client.sync_client import BillingClient
from billing_toolkit.client.tool_result import ToolResult

DEFAULT_INVOICES = 6
DEFAULT_PAYMENTS = 12
"""A year of monthly payments: enough to find "the one of August" or "the one before"."""

R = TypeVar("R", ToolResult, Awaitable[ToolResult])
"""What a method returns: the result (sync) or something to await for it (async)."""


class CapabilityMethods(PaymentReportMethods[R], ABC, Generic[R]):
    """The capabilities, once: each method names its flow; the twin's `_run` drives it.

    Identifiers are taken as the contract writes them (the caller normalises; lookups never
    guess): phone in E.164 (`+584121234567`), national ID without dots (`V-12345678`,
    `J-12345678-9`), account number of ten digits. A malformed one is answered
    `ok=False, should_escalate=False` without calling the API.
    """

    @abstractmethod
    def _run(self, flow: CapabilityFlow) -> R:
        """Drive `flow` to its result: blocking in `Capabilities`, awaited in the async twin."""

    def customer_by_phone(self, phone: str) -> R:
        return self._run(flows.customer_by_phone(phone))

    def customer_by_account(self, account_number: str) -> R:
        return self._run(flows.customer_by_account(account_number))

    def customer_by_national_id(self, national_id: str) -> R:
        return self._run(flows.customer_by_national_id(national_id))

    def balance(self, account_number: str) -> R:
        return self._run(flows.balance(account_number))

    def invoices(
        self, account_number: str, *, status: str | None = None, limit: int = DEFAULT_INVOICES
    ) -> R:
        """The most recent invoices (newest first), optionally only those with `status`."""
        return self._run(flows.invoices(account_number, status, limit))

    def invoice_by_number(self, account_number: str, invoice_number: str) -> R:
        """Exact lookup; another customer's invoice is reported exactly like a missing one."""
        return self._run(flows.invoice_by_number(account_number, invoice_number))

    def arrears(self, account_number: str) -> R:
        """What is overdue, the late fees billed on it and the days since it fell due."""
        return self._run(flows.arrears(account_number))

    def last_payment(self, account_number: str) -> R:
        return self._run(flows.last_payment(account_number))

    def payments(self, account_number: str, *, limit: int = DEFAULT_PAYMENTS) -> R:
        """The most recent payments (newest first): a payment asked for by its month, or the
        one before the last."""
        return self._run(flows.payments(account_number, limit))

    def plan(self, account_number: str) -> R:
        """The current plan and any change scheduled for the next billing day."""
        return self._run(flows.plan(account_number))

    def bill_change(self, account_number: str, invoice_number: str | None = None) -> R:
        """Latest invoice vs the previous one — or `invoice_number` vs the one before it (a
        month asked: "¿por qué subió la de octubre?"): lines that appeared, disappeared or
        changed."""
        return self._run(flows.bill_change(account_number, invoice_number))


class Capabilities(CapabilityMethods[ToolResult]):
    """The assistant's view of billing, over a blocking `BillingClient`."""

    def __init__(self, client: BillingClient) -> None:
        self.client = client

    def _run(self, flow: CapabilityFlow) -> ToolResult:
        with closing(flow):
            step = advance(flow, None, BillingError)
            while not isinstance(step, ToolResult):
                try:
                    reply = step(self.client)
                except BillingError as error:
                    reply = error
                step = advance(flow, reply, BillingError)
            return step


class AsyncCapabilities(CapabilityMethods[Awaitable[ToolResult]]):
    """`Capabilities` over an `AsyncBillingClient`: the same methods, awaitable."""

    def __init__(self, client: AsyncBillingClient) -> None:
        self.client = client

    async def _drive(self, flow: CapabilityFlow) -> ToolResult:
        with closing(flow):
            step = advance(flow, None, BillingError)
            while not isinstance(step, ToolResult):
                try:
                    reply = await step(self.client)
                except BillingError as error:
                    reply = error
                step = advance(flow, reply, BillingError)
            return step

    def _run(self, flow: CapabilityFlow) -> Awaitable[ToolResult]:
        return self._drive(flow)
