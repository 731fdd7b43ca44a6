"""Find the data the checks need through the public API only (staging has no admin API).

From what the team named (an account number or a customer phone, optionally an invoice)
the kit reads the customer and walks its invoices. If the named data is not there, the run
stops with a one-line error: checks over data the kit could not find would pass vacuously.
Those errors end up in CI logs, so they name an account or a phone masked by the project's
one policy (`contract.masking.hide`), and the request they quote is masked the same way
(`contract.masking.mask`); the report's curl commands keep the exact identifiers, which the
team needs to reproduce a failure on their own staging data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from billing_toolkit.conformance.billing_answer import expect_billing_answer, refuse_foreign
from billing_toolkit.conformance.calls import call, paging
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.http import ApiSession
from billing_toolkit.conformance.settings import KitSettings
from billing_toolkit.contract.formats import IdentifierFormat
from billing_toolkit.contract.masking import hide, mask

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

    @property
    def identifiers(self) -> dict[IdentifierFormat, str]:
        """The test data's identifiers by contract format, to fill the kit's requests."""
        known = {IdentifierFormat.ACCOUNT_NUMBER: self.account_number}
        if self.invoice_number is not None:
            known[IdentifierFormat.INVOICE_NUMBER] = self.invoice_number
        return known


def discover(session: ApiSession, settings: KitSettings, facts: ContractFacts) -> TestData:
    """Resolve the named account and list its invoices; `KitError` when that is impossible."""
    account = settings.account_number
    if settings.customer_phone is not None:
        by_phone = {IdentifierFormat.PHONE: settings.customer_phone}
        found = expect_billing_answer(
            session.send(call(facts, "lookupCustomer", by_phone)),
            facts,
            f"customer with phone {hide(settings.customer_phone)}",
        )
        looked_up = str(found.get("account_number"))
        if account is not None and looked_up != account:
            raise KitError(
                f"--customer-phone belongs to account {hide(looked_up)}, "
                f"not to --account-number {hide(account)}"
            )
        account = looked_up
    assert account is not None  # build_settings demands one of the two
    by_account = {IdentifierFormat.ACCOUNT_NUMBER: account}
    customer = expect_billing_answer(
        session.send(call(facts, "getCustomer", by_account)), facts, f"account {hide(account)}"
    )
    invoices, failed_page = walk_invoices(session, facts, account)
    if failed_page is not None:
        refuse_foreign(failed_page, facts)
        raise KitError(
            f"cannot list the invoices of the test account: {mask(failed_page.describe())}"
        )
    invoice_number = settings.invoice_number
    if invoice_number is not None:
        by_number = {IdentifierFormat.INVOICE_NUMBER: invoice_number}
        expect_billing_answer(
            session.send(call(facts, "getInvoice", by_number)), facts, f"invoice {invoice_number}"
        )
    elif invoices:
        invoice_number = invoices[0]["invoice_number"]
    return TestData(
        account_number=account,
        currency=str(customer.get("currency") or _invoiced_currency(invoices)),
        customer=customer,
        invoices=tuple(invoices),
        invoice_number=invoice_number,
    )


def _invoiced_currency(invoices: list[dict[str, Any]]) -> str | None:
    """The currency the account's invoices are in: the fallback when the customer record
    breaks its schema by leaving `currency` out (`schema.response` fails that), so the
    kit's payment is still sent in the account's currency."""
    return next((str(i["currency"]) for i in invoices if isinstance(i.get("currency"), str)), None)


def walk_invoices(
    session: ApiSession, facts: ContractFacts, account: str
) -> tuple[list[dict[str, Any]], Exchange | None]:
    """Every invoice of `account` in pages of `PAGE_SIZE`, and the first page that failed."""
    found: list[dict[str, Any]] = []
    for page in iterate_pages(session, facts, account, PAGE_SIZE):
        body = page.json()
        if (
            page.status != 200
            or not isinstance(body, dict)
            or not isinstance(body.get("data"), list)
        ):
            return found, page
        found.extend(item for item in body["data"] if isinstance(item, dict))
    return found, None


def iterate_pages(
    session: ApiSession,
    facts: ContractFacts,
    account: str,
    limit: int,
    *,
    operation_id: str = "listInvoices",
) -> list[Exchange]:
    """The exchanges of a cursor walk over one of `account`'s lists (its invoices unless
    `operation_id` says otherwise), stopping at a null cursor, an error or `MAX_PAGES`."""
    listing = call(facts, operation_id, {IdentifierFormat.ACCOUNT_NUMBER: account})
    names = paging(facts)
    pages: list[Exchange] = []
    cursor: str | None = None
    while len(pages) < MAX_PAGES:
        params = {names.limit: str(limit)}
        if cursor is not None:
            params[names.cursor] = cursor
        page = session.send(listing.with_params(params))
        pages.append(page)
        body = page.json()
        if page.status != 200 or not isinstance(body, dict):
            break
        cursor = body.get("next_cursor")
        if not cursor:
            break
    return pages
