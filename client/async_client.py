"""`AsyncBillingClient`: the awaitable twin of `BillingClient`, same methods, same rules."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import date
from decimal import Decimal
from typing import Any, TypeVar, cast

import anyio
import httpx
import pydantic

from client.base import ClientCore
from client.call import CallFlow, Send, Sleep
from client.errors import InfrastructureError
from client.models.billing import (
    Balance,
    Customer,
    Health,
    Invoice,
    InvoicePage,
    Payment,
    PaymentPage,
    PlanList,
    Subscription,
)
from client.request import lookup_arguments
from client.responses import RawResponse
from client.transport import BodyReader, infrastructure_error

M = TypeVar("M", bound=pydantic.BaseModel)


class AsyncBillingClient(ClientCore):
    """Awaitable client of the billing API; see `BillingClient` for the contract of each method.

    Pass `transport=httpx.ASGITransport(app)` to talk to an in-process server. A cancelled
    call (task cancellation, a timeout around it) releases its breaker ticket, so a cancelled
    probe never leaves the circuit stuck in HALF_OPEN.
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Callable[[float], Awaitable[None]] = anyio.sleep,
        **settings: Any,
    ) -> None:
        super().__init__(base_url, api_key, **settings)
        self._sleep = sleep
        self._http = httpx.AsyncClient(transport=transport)

    # -- lifecycle ------------------------------------------------------------------------

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncBillingClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    # -- operations (one per operationId of the contract) ---------------------------------

    async def get_liveness(self) -> Health:
        return await self._call(Health, self._flow("getLiveness"))

    async def get_readiness(self) -> Health:
        return await self._call(Health, self._flow("getReadiness"))

    async def lookup_customer(
        self,
        *,
        phone: str | None = None,
        national_id: str | None = None,
        account_number: str | None = None,
    ) -> Customer:
        arguments = {"phone": phone, "national_id": national_id, "account_number": account_number}
        return await self._call(Customer, self._flow("lookupCustomer", lookup_arguments(arguments)))

    async def get_customer(self, account_number: str) -> Customer:
        flow = self._flow("getCustomer", {"account_number": account_number})
        return await self._call(Customer, flow)

    async def get_subscription(self, account_number: str) -> Subscription:
        flow = self._flow("getSubscription", {"account_number": account_number})
        return await self._call(Subscription, flow)

    async def list_plans(self) -> PlanList:
        return await self._call(PlanList, self._flow("listPlans"))

    async def get_balance(self, account_number: str) -> Balance:
        flow = self._flow("getBalance", {"account_number": account_number})
        return await self._call(Balance, flow)

    async def list_invoices(
        self,
        account_number: str,
        *,
        status: str | None = None,
        period_from: date | None = None,
        period_to: date | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> InvoicePage:
        arguments = {
            "account_number": account_number,
            "status": status,
            "period_from": period_from,
            "period_to": period_to,
            "limit": limit,
            "cursor": cursor,
        }
        return await self._call(InvoicePage, self._flow("listInvoices", arguments))

    async def get_invoice(self, invoice_number: str) -> Invoice:
        flow = self._flow("getInvoice", {"invoice_number": invoice_number})
        return await self._call(Invoice, flow)

    async def list_payments(
        self, account_number: str, *, limit: int | None = None, cursor: str | None = None
    ) -> PaymentPage:
        arguments = {"account_number": account_number, "limit": limit, "cursor": cursor}
        return await self._call(PaymentPage, self._flow("listPayments", arguments))

    async def create_payment(
        self,
        account_number: str,
        *,
        amount: Decimal,
        currency: str,
        method: str,
        reference: str | None = None,
        idempotency_key: str | None = None,
    ) -> Payment:
        """Record a payment; see `BillingClient.create_payment`."""
        body = {"amount": amount, "currency": currency, "method": method, "reference": reference}
        arguments = self._payment_arguments(account_number, idempotency_key)
        return await self._call(Payment, self._flow("createPayment", arguments, body))

    # -- driving a flow -------------------------------------------------------------------

    async def _call(self, model: type[M], flow: CallFlow) -> M:
        try:
            effect = next(flow)
            while True:
                try:
                    reply = await self._perform(effect)
                except InfrastructureError as exc:
                    effect = flow.throw(exc)
                else:
                    effect = flow.send(reply)
        except StopIteration as done:
            return cast(M, done.value)
        finally:
            flow.close()

    async def _perform(self, effect: Send | Sleep) -> RawResponse | None:
        if isinstance(effect, Sleep):
            await self._sleep(effect.seconds)
            return None
        effect.request.extensions["timeout"] = effect.timeout.as_dict()
        reader = BodyReader(effect.deadline, self.clock, effect.operation_id)
        try:
            response = await self._http.send(effect.request, stream=True)
            try:
                async for chunk in response.aiter_bytes():
                    reader.add(chunk)
            finally:
                await response.aclose()
        except httpx.RequestError as exc:
            raise infrastructure_error(exc, effect.operation_id) from exc
        return RawResponse(response.status_code, response.headers, reader.body())
