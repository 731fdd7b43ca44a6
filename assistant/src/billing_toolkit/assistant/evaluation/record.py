"""The system of record, read straight from the billing API (no client, no assistant code).

The evaluation judges the assistant's replies against what the billing API itself says about
a customer, so this reader shares nothing with the code under test: plain httpx, the
contract's paths, every page.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import httpx

PAGE = 100


@dataclass(frozen=True, slots=True)
class CustomerRecord:
    """Everything the billing API holds about one customer, as JSON."""

    customer: dict[str, Any]
    balance: dict[str, Any]
    subscription: dict[str, Any]
    invoices: tuple[dict[str, Any], ...]
    payments: tuple[dict[str, Any], ...]

    @property
    def account_number(self) -> str:
        return str(self.customer["account_number"])

    def invoices_by_issue(self) -> list[dict[str, Any]]:
        """Oldest first; ties on invoice number."""
        return sorted(self.invoices, key=lambda i: (i["issue_date"], i["invoice_number"]))


class SystemOfRecord:
    """Reads one tenant's data with its API key; a 404 is `None`, anything else raises."""

    def __init__(self, http: httpx.Client) -> None:
        self._http = http
        self.record = cache(self._record)

    def _get(self, path: str, **params: Any) -> dict[str, Any] | None:
        response = self._http.get(path, params=params)
        if response.status_code == 404:
            return None
        response.raise_for_status()
        body: dict[str, Any] = response.json()
        return body

    def _required(self, path: str, **params: Any) -> dict[str, Any]:
        body = self._get(path, **params)
        if body is None:
            raise LookupError(f"the billing API has nothing at {path}")
        return body

    def _pages(self, path: str) -> tuple[dict[str, Any], ...]:
        items: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            page = self._required(path, limit=PAGE, **({"cursor": cursor} if cursor else {}))
            items += page["data"]
            cursor = page.get("next_cursor")
            if not cursor:
                return tuple(items)

    def _record(self, account_number: str) -> CustomerRecord:
        base = f"/v1/customers/{account_number}"
        return CustomerRecord(
            customer=self._required(base),
            balance=self._required(f"{base}/balance"),
            subscription=self._required(f"{base}/subscription"),
            invoices=self._pages(f"{base}/invoices"),
            payments=self._pages(f"{base}/payments"),
        )

    def payment_reports(self, account_number: str) -> tuple[dict[str, Any], ...]:
        """The account's payment reports as they are now (not cached: a turn files them)."""
        return self._pages(f"/v1/customers/{account_number}/payment-reports")

    def exchange_rate(self, day: str) -> dict[str, Any] | None:
        """The official rate of an ISO day, or None when none is published for it."""
        return self._get(f"/v1/exchange-rates/{day}")

    def invoice(self, invoice_number: str) -> dict[str, Any] | None:
        return self._get(f"/v1/invoices/{invoice_number}")

    def customer(self, account_number: str) -> dict[str, Any] | None:
        return self._get(f"/v1/customers/{account_number}")

    def customer_by_phone(self, phone: str) -> dict[str, Any] | None:
        return self._get("/v1/customer-lookup", phone=phone)
