"""`BillingClient`: one blocking method per contract operation, on httpx."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import Any, TypeVar, cast

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


class BillingClient(ClientCore):
    """Blocking client of the billing API.

    Every method returns the contract's model for the operation, or raises a
    `BusinessError` (the API said no) or an `InfrastructureError` (it did not work); see
    `client.errors`. `transport` is the seam for tests (respx, `httpx.MockTransport`, or an
    in-process ASGI app through `httpx.ASGITransport` for the async twin).
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        **settings: Any,
    ) -> None:
        super().__init__(base_url, api_key, **settings)
        self._sleep = sleep
        self._http = httpx.Client(transport=transport)

    # -- lifecycle ------------------------------------------------------------------------

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> BillingClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- operations (one per operationId of the contract) ---------------------------------

    def get_liveness(self) -> Health:
        return self._call(Health, self._flow("getLiveness"))

    def get_readiness(self) -> Health:
        return self._call(Health, self._flow("getReadiness"))

    def lookup_customer(
        self,
        *,
        phone: str | None = None,
        national_id: str | None = None,
        account_number: str | None = None,
    ) -> Customer:
        arguments = {"phone": phone, "national_id": national_id, "account_number": account_number}
        return self._call(Customer, self._flow("lookupCustomer", lookup_arguments(arguments)))

    def get_customer(self, account_number: str) -> Customer:
        return self._call(Customer, self._flow("getCustomer", {"account_number": account_number}))

    def get_subscription(self, account_number: str) -> Subscription:
        flow = self._flow("getSubscription", {"account_number": account_number})
        return self._call(Subscription, flow)

    def list_plans(self) -> PlanList:
        return self._call(PlanList, self._flow("listPlans"))

    def get_balance(self, account_number: str) -> Balance:
        return self._call(Balance, self._flow("getBalance", {"account_number": account_number}))

    def list_invoices(
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
        return self._call(InvoicePage, self._flow("listInvoices", arguments))

    def get_invoice(self, invoice_number: str) -> Invoice:
        return self._call(Invoice, self._flow("getInvoice", {"invoice_number": invoice_number}))

    def list_payments(
        self, account_number: str, *, limit: int | None = None, cursor: str | None = None
    ) -> PaymentPage:
        arguments = {"account_number": account_number, "limit": limit, "cursor": cursor}
        return self._call(PaymentPage, self._flow("listPayments", arguments))

    def create_payment(
        self,
        account_number: str,
        *,
        amount: Decimal,
        currency: str,
        method: str,
        reference: str | None = None,
        idempotency_key: str | None = None,
    ) -> Payment:
        """Record a payment. Without `idempotency_key` a fresh one is made for this call (and
        reused by its retries); pass your own to make retries of *your* call safe too."""
        body = {"amount": amount, "currency": currency, "method": method, "reference": reference}
        arguments = self._payment_arguments(account_number, idempotency_key)
        return self._call(Payment, self._flow("createPayment", arguments, body))

    # -- driving a flow -------------------------------------------------------------------

    def _call(self, model: type[M], flow: CallFlow) -> M:
        try:
            effect = next(flow)
            while True:
                try:
                    reply = self._perform(effect)
                except InfrastructureError as exc:
                    effect = flow.throw(exc)
                else:
                    effect = flow.send(reply)
        except StopIteration as done:
            return cast(M, done.value)
        finally:
            flow.close()

    def _perform(self, effect: Send | Sleep) -> RawResponse | None:
        if isinstance(effect, Sleep):
            self._sleep(effect.seconds)
            return None
        effect.request.extensions["timeout"] = effect.timeout.as_dict()
        reader = BodyReader(effect.deadline, self.clock, effect.operation_id)
        try:
            response = self._http.send(effect.request, stream=True)
            try:
                for chunk in response.iter_bytes():
                    reader.add(chunk)
            finally:
                response.close()
        except httpx.RequestError as exc:
            raise infrastructure_error(exc, effect.operation_id) from exc
        return RawResponse(response.status_code, response.headers, reader.body())
