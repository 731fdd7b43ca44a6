"""Capabilities: what the assistant calls by name, each returning a `ToolResult`.

A capability never raises for a billing failure: data comes back `ok=True` with evidence;
a business "no" (not found, invalid identifier) comes back `ok=False,
should_escalate=False`, because it is an answer; any infrastructure failure (and a
rejected API key) comes back `should_escalate=True`, because it is an outage. The flows
live in `billing_toolkit.client.capability_flows`; the two classes here only drive them, handing each
call's failure back to the flow, which decides what it means.
"""

from __future__ import annotations

from billing_toolkit.client import capability_flows as flows
from billing_toolkit.client.async_client import AsyncBillingClient
from billing_toolkit.client.capability_flows import CapabilityFlow
from billing_toolkit.client.errors import BillingError
from billing_toolkit.client.sync_client import BillingClient
from billing_toolkit.client.tool_result import ToolResult

DEFAULT_INVOICES = 6


class Capabilities:
    """The assistant's view of billing, over a blocking `BillingClient`.

    Identifiers are taken as the contract writes them (the caller normalises; lookups never
    guess): phone in E.164 (`+584121234567`), national ID without dots (`V-12345678`,
    `J-12345678-9`), account number of ten digits. A malformed one is answered
    `ok=False, should_escalate=False` without calling the API.
    """

    def __init__(self, client: BillingClient) -> None:
        self.client = client

    def customer_by_phone(self, phone: str) -> ToolResult:
        return self._run(flows.customer_by_phone(phone))

    def customer_by_account(self, account_number: str) -> ToolResult:
        return self._run(flows.customer_by_account(account_number))

    def customer_by_national_id(self, national_id: str) -> ToolResult:
        return self._run(flows.customer_by_national_id(national_id))

    def balance(self, account_number: str) -> ToolResult:
        return self._run(flows.balance(account_number))

    def invoices(
        self, account_number: str, *, status: str | None = None, limit: int = DEFAULT_INVOICES
    ) -> ToolResult:
        """The most recent invoices (newest first), optionally only those with `status`."""
        return self._run(flows.invoices(account_number, status, limit))

    def invoice_by_number(self, account_number: str, invoice_number: str) -> ToolResult:
        """Exact lookup; another customer's invoice is reported exactly like a missing one."""
        return self._run(flows.invoice_by_number(account_number, invoice_number))

    def last_payment(self, account_number: str) -> ToolResult:
        return self._run(flows.last_payment(account_number))

    def plan(self, account_number: str) -> ToolResult:
        """The current plan and any change scheduled for the next billing day."""
        return self._run(flows.plan(account_number))

    def bill_change(self, account_number: str) -> ToolResult:
        """Latest invoice vs the previous one: lines that appeared, disappeared or changed."""
        return self._run(flows.bill_change(account_number))

    def _run(self, flow: CapabilityFlow) -> ToolResult:
        try:
            ask = next(flow)
            while True:
                try:
                    reply = ask(self.client)
                except BillingError as error:
                    ask = flow.throw(error)
                else:
                    ask = flow.send(reply)
        except StopIteration as done:
            result: ToolResult = done.value
            return result
        finally:
            flow.close()


class AsyncCapabilities:
    """`Capabilities` over an `AsyncBillingClient`: the same methods, awaitable."""

    def __init__(self, client: AsyncBillingClient) -> None:
        self.client = client

    async def customer_by_phone(self, phone: str) -> ToolResult:
        return await self._run(flows.customer_by_phone(phone))

    async def customer_by_account(self, account_number: str) -> ToolResult:
        return await self._run(flows.customer_by_account(account_number))

    async def customer_by_national_id(self, national_id: str) -> ToolResult:
        return await self._run(flows.customer_by_national_id(national_id))

    async def balance(self, account_number: str) -> ToolResult:
        return await self._run(flows.balance(account_number))

    async def invoices(
        self, account_number: str, *, status: str | None = None, limit: int = DEFAULT_INVOICES
    ) -> ToolResult:
        return await self._run(flows.invoices(account_number, status, limit))

    async def invoice_by_number(self, account_number: str, invoice_number: str) -> ToolResult:
        return await self._run(flows.invoice_by_number(account_number, invoice_number))

    async def last_payment(self, account_number: str) -> ToolResult:
        return await self._run(flows.last_payment(account_number))

    async def plan(self, account_number: str) -> ToolResult:
        return await self._run(flows.plan(account_number))

    async def bill_change(self, account_number: str) -> ToolResult:
        return await self._run(flows.bill_change(account_number))

    async def _run(self, flow: CapabilityFlow) -> ToolResult:
        try:
            ask = next(flow)
            while True:
                try:
                    reply = await ask(self.client)
                except BillingError as error:
                    ask = flow.throw(error)
                else:
                    ask = flow.send(reply)
        except StopIteration as done:
            result: ToolResult = done.value
            return result
        finally:
            flow.close()
