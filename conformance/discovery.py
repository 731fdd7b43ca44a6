"""Find the data the checks need through the public API only (staging has no admin API).

From what the team named (an account number or a customer phone, optionally an invoice)
the kit reads the customer and walks its invoices. If the named data is not there, the run
stops with a one-line error: checks over data the kit could not find would pass vacuously.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conformance.errors import KitError
from conformance.exchange import Exchange
from conformance.http import ApiSession
from conformance.masking import mask_identifier
from conformance.settings import KitSettings

MAX_PAGES = 50
PAGE_SIZE = 100


@dataclass(frozen=True)
class TestData:
    """The tenant data a run reads: one account, its currency and its invoices."""

    account_number: str
    currency: str
    customer: dict[str, Any]
    invoices: tuple[dict[str, Any], ...]
    invoice_number: str | None

    @property
    def invoice_numbers(self) -> frozenset[str]:
        return frozenset(inv["invoice_number"] for inv in self.invoices)


def discover(session: ApiSession, settings: KitSettings) -> TestData:
    """Resolve the named account and list its invoices; `KitError` when that is impossible."""
    account = settings.account_number
    if settings.customer_phone is not None:
        found = _expect_ok(
            session.get("/v1/customer-lookup", params={"phone": settings.customer_phone}),
            f"customer with phone {mask_identifier(settings.customer_phone)}",
        )
        looked_up = str(found.get("account_number"))
        if account is not None and looked_up != account:
            raise KitError(
                f"--customer-phone belongs to account {mask_identifier(looked_up)}, "
                f"not to --account-number {mask_identifier(account)}"
            )
        account = looked_up
    assert account is not None  # build_settings demands one of the two
    customer = _expect_ok(
        session.get(f"/v1/customers/{account}"), f"account {mask_identifier(account)}"
    )
    invoices, failed_page = walk_invoices(session, account)
    if failed_page is not None:
        raise KitError(f"cannot list the invoices of the test account: {failed_page.describe()}")
    invoice_number = settings.invoice_number
    if invoice_number is not None:
        _expect_ok(session.get(f"/v1/invoices/{invoice_number}"), f"invoice {invoice_number}")
    elif invoices:
        invoice_number = invoices[0]["invoice_number"]
    return TestData(
        account_number=account,
        currency=str(customer.get("currency")),
        customer=customer,
        invoices=tuple(invoices),
        invoice_number=invoice_number,
    )


def walk_invoices(
    session: ApiSession, account: str
) -> tuple[list[dict[str, Any]], Exchange | None]:
    """Every invoice of `account` in pages of `PAGE_SIZE`, and the first page that failed."""
    found: list[dict[str, Any]] = []
    for page in iterate_pages(session, f"/v1/customers/{account}/invoices", PAGE_SIZE):
        body = page.json()
        if (
            page.status != 200
            or not isinstance(body, dict)
            or not isinstance(body.get("data"), list)
        ):
            return found, page
        found.extend(item for item in body["data"] if isinstance(item, dict))
    return found, None


def iterate_pages(session: ApiSession, path: str, limit: int) -> list[Exchange]:
    """The exchanges of a cursor walk, stopping at a null cursor, an error or `MAX_PAGES`."""
    pages: list[Exchange] = []
    cursor: str | None = None
    while len(pages) < MAX_PAGES:
        params: dict[str, Any] = {"limit": limit}
        if cursor is not None:
            params["cursor"] = cursor
        page = session.get(path, params=params)
        pages.append(page)
        body = page.json()
        if page.status != 200 or not isinstance(body, dict):
            break
        cursor = body.get("next_cursor")
        if not cursor:
            break
    return pages


def _expect_ok(exchange: Exchange, what: str) -> dict[str, Any]:
    body = exchange.json()
    if exchange.status == 200 and isinstance(body, dict):
        return body
    if exchange.status == 0:
        raise KitError(f"cannot reach the API: {exchange.response_body.decode(errors='replace')}")
    if exchange.status == 401:
        raise KitError("the API refused the API key (401): check --api-key / $BILLING_API_KEY")
    raise KitError(f"{what} not found with this API key: {exchange.describe()}")
