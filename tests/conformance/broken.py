"""Deliberately broken billing APIs: ASGI wrappers around the simulator, one defect each.

Each wrapper calls the real simulator app and bends one thing on the way in or out, so
the rest of the API stays correct and the kit must name exactly the check that the
defect breaks. `SCHEMA_BROKEN` and `MUTANTS` map each wrapper to the checks the kit must
fail on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_DOWN, Decimal
from typing import Any
from urllib.parse import parse_qs, urlencode

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

INVOICE_PATH = re.compile(r"^/v1/invoices/(INV-\d{4}-\d{6})$")
PAYMENTS_PATH = re.compile(r"^/v1/customers/\d{10}/payments$")


@dataclass
class Reply:
    """A fully buffered response: easy to inspect and rewrite."""

    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes

    def header(self, name: bytes) -> bytes | None:
        return next((v for k, v in self.headers if k.lower() == name), None)

    def without(self, name: bytes) -> list[tuple[bytes, bytes]]:
        return [(k, v) for k, v in self.headers if k.lower() != name]

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    def with_json(self, body: Any, status: int | None = None) -> Reply:
        return Reply(status or self.status, self.headers, json.dumps(body).encode())


async def call(app: ASGIApp, scope: Scope, body: bytes) -> Reply:
    """Run `app` on one request and buffer what it answers."""
    sent_body = False

    async def receive() -> Message:
        nonlocal sent_body
        if sent_body:
            return {"type": "http.disconnect"}
        sent_body = True
        return {"type": "http.request", "body": body, "more_body": False}

    reply = Reply(500, [], b"")
    chunks: list[bytes] = []

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            reply.status = message["status"]
            reply.headers = list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    reply.body = b"".join(chunks)
    return reply


def with_header(scope: Scope, name: bytes, value: bytes) -> Scope:
    headers = [(k, v) for k, v in scope["headers"] if k.lower() != name] + [(name, value)]
    return {**scope, "headers": headers}


def request_header(scope: Scope, name: bytes) -> bytes | None:
    return next((v for k, v in scope["headers"] if k.lower() == name), None)


class Wrapper:
    """Buffers each HTTP request and response; subclasses override `handle`."""

    def __init__(self, app: ASGIApp, primary_key: str) -> None:
        self.app = app
        self.primary_key = primary_key

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        reply = await self.handle(scope, b"".join(chunks))
        headers = [(k, v) for k, v in reply.headers if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(reply.body)).encode()))
        await send({"type": "http.response.start", "status": reply.status, "headers": headers})
        await send({"type": "http.response.body", "body": reply.body})

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        return await call(self.app, scope, body)


class MoneyAsNumber(Wrapper):
    """Sends every `amount` and `total` as a JSON number (the float trap)."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        data = reply.json()
        if reply.status >= 400 or data is None:
            return reply
        return reply.with_json(_numbers_for_money(data))


def _numbers_for_money(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: float(Decimal(v))
            if k in ("amount", "total") and isinstance(v, str)
            else _numbers_for_money(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_numbers_for_money(v) for v in value]
    return value


class DropsRequiredField(Wrapper):
    """Leaves `currency` out of every invoice (a required property)."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        data = reply.json()
        if reply.status == 200 and isinstance(data, dict) and INVOICE_PATH.match(scope["path"]):
            data.pop("currency", None)
            return reply.with_json(data)
        return reply


class LeaksOtherTenant(Wrapper):
    """Serves any tenant's invoice to any valid key (answers 200 for another tenant's invoice)."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        if INVOICE_PATH.match(scope["path"]) and reply.status == 404:
            as_owner = with_header(scope, b"authorization", f"Bearer {self.primary_key}".encode())
            leaked = await call(self.app, as_owner, body)
            if leaked.status == 200:
                return leaked
        return reply


class AppliesReplayTwice(Wrapper):
    """Ignores Idempotency-Key: a replayed payment is recorded again."""

    def __init__(self, app: ASGIApp, primary_key: str) -> None:
        super().__init__(app, primary_key)
        self.counter = 0

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        key = request_header(scope, b"idempotency-key")
        if scope["method"] == "POST" and PAYMENTS_PATH.match(scope["path"]) and key:
            self.counter += 1
            scope = with_header(scope, b"idempotency-key", key + f"-{self.counter}".encode())
        return await call(self.app, scope, body)


class ReturnsNeighbour(Wrapper):
    """On an unknown invoice number, returns an invoice one transposition away."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        match = INVOICE_PATH.match(scope["path"])
        if not match or reply.status != 404:
            return reply
        prefix, sequence = match.group(1).rsplit("-", 1)
        for i in range(len(sequence) - 1):
            swapped = sequence[:i] + sequence[i + 1] + sequence[i] + sequence[i + 2 :]
            path = f"/v1/invoices/{prefix}-{swapped}"
            neighbour = await call(
                self.app, {**scope, "path": path, "raw_path": path.encode()}, body
            )
            if neighbour.status == 200:
                return neighbour
        return reply


class CrashesOnBadLimit(Wrapper):
    """Answers 500 when `limit` is not a number from 1 to 100 (a parse error left unhandled)."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        query = parse_qs(scope.get("query_string", b"").decode())
        limits = query.get("limit", [])
        if limits and not (limits[0].isdigit() and 1 <= int(limits[0]) <= 100):
            reply = await call(self.app, {**scope, "query_string": b""}, body)
            problem = {
                "type": "about:blank",
                "title": "Internal error",
                "status": 500,
                "code": "internal",
            }
            headers = reply.without(b"content-type") + [
                (b"content-type", b"application/problem+json")
            ]
            return Reply(500, headers, json.dumps(problem).encode())
        return await call(self.app, scope, body)


class OmitsRetryAfter(Wrapper):
    """Strips Retry-After from every response (429 and 503 included)."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        return Reply(reply.status, reply.without(b"retry-after"), reply.body)


class OmitsRequestId(Wrapper):
    """Strips X-Request-Id from error responses only (a common middleware-order bug)."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        if reply.status < 400:
            return reply
        return Reply(reply.status, reply.without(b"x-request-id"), reply.body)


class TotalOffByOneCent(Wrapper):
    """Adds a cent to every invoice total, so total ≠ subtotal + tax."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        data = reply.json()
        if reply.status == 200 and isinstance(data, dict) and INVOICE_PATH.match(scope["path"]):
            data["total"] = f"{Decimal(data['total']) + Decimal('0.01'):.2f}"
            return reply.with_json(data)
        return reply


class AcceptsAnyKey(Wrapper):
    """Serves a request refused with 401 as the primary tenant (an authentication bypass)."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        if reply.status != 401:
            return reply
        as_primary = with_header(scope, b"authorization", f"Bearer {self.primary_key}".encode())
        return await call(self.app, as_primary, body)


# Schema defects → the checks the kit must fail: schemathesis's and the kit's own
# `schema.response`. The wrappers the kit's checks and rules catch are in `MUTANTS`, at the
# end of this module.
SCHEMA_BROKEN: dict[type[Wrapper], frozenset[str]] = {
    DropsRequiredField: frozenset({"schema.response", "schemathesis.response_schema_conformance"}),
}


# --- business-rule mutants (issue 19): each a realistic bug of one rule family -----------

BALANCE_PATH = re.compile(r"^/v1/customers/(\d{10})/balance$")
INVOICES_PATH = re.compile(r"^/v1/customers/(\d{10})/invoices$")
LIST_PAYMENTS_PATH = PAYMENTS_PATH
CUSTOMER_PATH = re.compile(r"^/v1/customers/([^/]+)$")
LOOKUP_PATH = "/v1/customer-lookup"


def query_of(scope: Scope) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(scope.get("query_string", b"").decode()).items()}


def with_query(scope: Scope, query: dict[str, str]) -> Scope:
    return {**scope, "query_string": urlencode(query).encode()}


def with_path(scope: Scope, path: str) -> Scope:
    return {**scope, "path": path, "raw_path": path.encode()}


def as_primary(wrapper: Wrapper, scope: Scope) -> Scope:
    return with_header(scope, b"authorization", f"Bearer {wrapper.primary_key}".encode())


def money(value: Decimal) -> str:
    return f"{value:.2f}"


class JsonRewriter(Wrapper):
    """Rewrites the JSON of successful responses whose path matches `PATH`."""

    PATH: re.Pattern[str] = re.compile(r"^$")

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        data = reply.json()
        if 200 <= reply.status < 300 and data is not None and self.PATH.match(scope["path"]):
            return reply.with_json(self.rewrite(data, scope))
        return reply

    def rewrite(self, data: Any, scope: Scope) -> Any:
        return data


def each_invoice(data: Any) -> list[dict[str, Any]]:
    """The invoice of a getInvoice body or every invoice of a page."""
    if isinstance(data, dict) and "line_items" in data:
        return [data]
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        return [item for item in data["data"] if isinstance(item, dict) and "line_items" in item]
    return []


def each_payment(data: Any) -> list[dict[str, Any]]:
    if isinstance(data, dict) and "allocations" in data:
        return [data]
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        return [item for item in data["data"] if isinstance(item, dict) and "allocations" in item]
    return []


class CreditAddedToNet(JsonRewriter):
    """balance.net: a sign error: net_balance = amount_due + credit_balance (only visible on
    an account with credit, which the kit has to find)."""

    PATH = BALANCE_PATH

    def rewrite(self, data: Any, scope: Scope) -> Any:
        data["net_balance"] = money(Decimal(data["amount_due"]) + Decimal(data["credit_balance"]))
        return data


class BalanceCachedAcrossPayments(Wrapper):
    """balance.amount_due: the balance is cached per account on first read and never
    invalidated when a payment is booked."""

    def __init__(self, app: ASGIApp, primary_key: str) -> None:
        super().__init__(app, primary_key)
        self.cache: dict[str, Reply] = {}

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        if scope["method"] != "GET" or not BALANCE_PATH.match(scope["path"]):
            return await call(self.app, scope, body)
        key = scope["path"] + (request_header(scope, b"authorization") or b"").decode()
        if key not in self.cache:
            self.cache[key] = await call(self.app, scope, body)
        return self.cache[key]


class NextDueFromNewestInvoice(Wrapper):
    """balance.next_due_date: taken from the newest invoice, whatever its status."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        match = BALANCE_PATH.match(scope["path"])
        if reply.status != 200 or not match:
            return reply
        listing = await call(
            self.app,
            with_query(
                with_path(scope, scope["path"][: -len("/balance")] + "/invoices"), {"limit": "1"}
            ),
            b"",
        )
        newest = (listing.json() or {}).get("data") or []
        data = reply.json()
        data["next_due_date"] = newest[0]["due_date"] if newest else None
        return reply.with_json(data)


class SubtotalIgnoresDiscounts(JsonRewriter):
    """invoice.arithmetic: the subtotal sums only the positive non-tax lines, so a discounted
    invoice (three or more lines) shows a subtotal the lines do not add up to."""

    PATH = re.compile(r"^/v1/(invoices/|customers/\d{10}/invoices$)")

    def rewrite(self, data: Any, scope: Scope) -> Any:
        for invoice in each_invoice(data):
            lines = [Decimal(li["amount"]) for li in invoice["line_items"] if li["kind"] != "tax"]
            invoice["subtotal"] = money(sum((a for a in lines if a > 0), Decimal("0.00")))
        return data


class OverdueJobNotRun(JsonRewriter):
    """invoice.status: the nightly job that marks invoices overdue did not run, so invoices
    past their due date are still reported open."""

    PATH = re.compile(r"^/v1/(invoices/|customers/\d{10}/invoices$)")

    def rewrite(self, data: Any, scope: Scope) -> Any:
        for invoice in each_invoice(data):
            if invoice["status"] == "overdue":
                invoice["status"] = "open"
        return data


class PeriodEndExclusive(JsonRewriter):
    """invoice.billing_period: the period's end is the next billing day (an exclusive bound
    printed as the inclusive last day)."""

    PATH = re.compile(r"^/v1/(invoices/|customers/\d{10}/invoices$)")

    def rewrite(self, data: Any, scope: Scope) -> Any:
        for invoice in each_invoice(data):
            end = date.fromisoformat(invoice["billing_period"]["end"]) + timedelta(days=1)
            invoice["billing_period"]["end"] = end.isoformat()
        return data


class UnappliedNotSerialised(JsonRewriter):
    """payment.allocation: unapplied_amount always serialised as 0.00 (a column read from
    the wrong table), so an overpayment's credit vanishes from the payment."""

    PATH = re.compile(r"^/v1/customers/\d{10}/payments$")

    def rewrite(self, data: Any, scope: Scope) -> Any:
        for payment in each_payment(data):
            payment["unapplied_amount"] = "0.00"
        return data


class InvoiceCurrencyFromTenantDefault(JsonRewriter):
    """currency.account: invoices take the tenant's default currency (USD), so a VES
    account's invoices say USD."""

    PATH = re.compile(r"^/v1/(invoices/|customers/\d{10}/invoices$)")

    def rewrite(self, data: Any, scope: Scope) -> Any:
        for invoice in each_invoice(data):
            invoice["currency"] = "USD"
        return data


class ConvertsForeignCurrency(Wrapper):
    """currency.payment: a payment in the other currency is "converted" by relabelling it
    with the account's currency at face value, and booked."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        if scope["method"] == "POST" and PAYMENTS_PATH.match(scope["path"]):
            reply = await call(self.app, scope, body)
            if reply.status == 422 and body:
                sent = json.loads(body)
                for currency in ("USD", "VES"):
                    retry = json.dumps({**sent, "currency": currency}).encode()
                    converted = await call(self.app, scope, retry)
                    if converted.status == 201:
                        return converted
            return reply
        return await call(self.app, scope, body)


class IdempotencyCacheIgnoresTenant(Wrapper):
    """idempotency.tenant_scope: a gateway caches payment responses by Idempotency-Key
    alone, so another tenant's request with the same key gets the first tenant's payment."""

    def __init__(self, app: ASGIApp, primary_key: str) -> None:
        super().__init__(app, primary_key)
        self.cache: dict[bytes, Reply] = {}

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        key = request_header(scope, b"idempotency-key")
        if scope["method"] != "POST" or key is None or not PAYMENTS_PATH.match(scope["path"]):
            return await call(self.app, scope, body)
        if key in self.cache:
            return self.cache[key]
        reply = await call(self.app, scope, body)
        if reply.status == 201:
            self.cache[key] = reply
        return reply


class FingerprintOverAmountOnly(Wrapper):
    """idempotency.fingerprint: the fingerprint is the amount only, so the same key with
    another method or reference replays the first payment instead of a 409."""

    def __init__(self, app: ASGIApp, primary_key: str) -> None:
        super().__init__(app, primary_key)
        self.first: dict[bytes, tuple[str, bytes]] = {}

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        key = request_header(scope, b"idempotency-key")
        if scope["method"] != "POST" or key is None or not body:
            return await call(self.app, scope, body)
        sent = json.loads(body)
        first = self.first.setdefault(key, (sent.get("amount"), body))
        if first[0] == sent.get("amount"):
            body = first[1]  # same amount: treated as the same request
        return await call(self.app, scope, body)


class CheckThenInsertRace(Wrapper):
    """idempotency.concurrency: the key is looked up, then the payment booked, then the key
    stored, with no lock: a retry that arrives while the first is in flight books again."""

    WINDOW_S = 0.2

    def __init__(self, app: ASGIApp, primary_key: str) -> None:
        super().__init__(app, primary_key)
        self.in_flight: dict[bytes, asyncio.Event] = {}
        self.stored: set[bytes] = set()
        self.copies = 0

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        key = request_header(scope, b"idempotency-key")
        if scope["method"] != "POST" or key is None or key in self.stored:
            return await call(self.app, scope, body)
        if key in self.in_flight:  # not stored yet: looks new, books a second payment
            self.in_flight[key].set()
            self.copies += 1
            scope = with_header(scope, b"idempotency-key", key + f"-{self.copies}".encode())
            return await call(self.app, scope, body)
        arrived = self.in_flight[key] = asyncio.Event()
        reply = await call(self.app, scope, body)
        with contextlib.suppress(TimeoutError):  # the slow insert of the key
            await asyncio.wait_for(arrived.wait(), self.WINDOW_S)
        self.stored.add(key)
        del self.in_flight[key]
        return reply


class FakeClock:
    """The kit's `sleep` and a mutant's clock in one: tests never wait for real."""

    def __init__(self) -> None:
        self.now = 0.0

    def sleep(self, seconds: float) -> None:
        self.now += seconds


class KeysKeptOneSecond(Wrapper):
    """idempotency.retention: keys live in a cache with a one-second TTL, so a client's
    delayed retry books the payment again."""

    TTL_S = 1.0

    def __init__(self, app: ASGIApp, primary_key: str) -> None:
        super().__init__(app, primary_key)
        self.clock = FakeClock()
        self.born: dict[bytes, float] = {}
        self.renewals = 0

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        key = request_header(scope, b"idempotency-key")
        if scope["method"] == "POST" and key is not None:
            born = self.born.setdefault(key, self.clock.now)
            if self.clock.now - born > self.TTL_S:
                self.renewals += 1
                scope = with_header(scope, b"idempotency-key", key + f"-r{self.renewals}".encode())
        return await call(self.app, scope, body)


class MintsMissingKey(Wrapper):
    """idempotency.key_required: a "helpful" middleware mints an Idempotency-Key when the
    client sent none, so an unkeyed (unsafe to retry) payment is booked."""

    def __init__(self, app: ASGIApp, primary_key: str) -> None:
        super().__init__(app, primary_key)
        self.minted = 0

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        if scope["method"] == "POST" and request_header(scope, b"idempotency-key") is None:
            self.minted += 1
            scope = with_header(scope, b"idempotency-key", f"minted-key-{self.minted:04d}".encode())
        return await call(self.app, scope, body)


class BooksKeylessThenRefuses(MintsMissingKey):
    """idempotency.replay, half-applied: a keyless payment is booked under a minted key and
    only then does the key check answer the contract's 400, so a refused request moved
    money; only the kit's after-the-fact look at the balance and the listing shows it."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        booked = await super().handle(scope, body)
        if request_header(scope, b"idempotency-key") is None:
            return await call(self.app, scope, body)  # the real answer: 400, nothing booked
        return booked


class ReplayNotMarked(Wrapper):
    """idempotency.replay: replays are served without Idempotent-Replayed: true."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        return Reply(reply.status, reply.without(b"idempotent-replayed"), reply.body)


class PhoneNormalisedOnLookup(Wrapper):
    """identifier.exact: the lookup "helps" by normalising the phone (separators dropped,
    00 and national 0 prefixes rewritten to +58), resolving forms the format rejects."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        query = query_of(scope)
        if scope["path"] == LOOKUP_PATH and "phone" in query:
            phone = re.sub(r"[\s()\-]", "", query["phone"])
            if phone.startswith("00"):
                phone = "+" + phone[2:]
            elif phone.startswith("0"):
                phone = "+58" + phone[1:]
            elif not phone.startswith("+"):
                phone = "+" + phone
            scope = with_query(scope, {**query, "phone": phone})
        return await call(self.app, scope, body)


class AccountNumberZerosStripped(Wrapper):
    """identifier.exact: account numbers are parsed as integers, so '01000004821' (and
    any zero-padded form) is the account 1000004821."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        match = CUSTOMER_PATH.match(scope["path"])
        if match and match.group(1).isdigit() and match.group(1).startswith("0"):
            scope = with_path(scope, f"/v1/customers/{int(match.group(1))}")
        return await call(self.app, scope, body)


class StatusFilterForgetsTenant(Wrapper):
    """tenancy.isolation: the status-filtered invoice query was written without the tenant
    condition, so another tenant's key lists this tenant's open invoices."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        if (
            reply.status == 404
            and INVOICES_PATH.match(scope["path"])
            and "status" in query_of(scope)
        ):
            leaked = await call(self.app, as_primary(self, scope), body)
            if leaked.status == 200:
                return leaked
        return reply


class NationalIdLookupAcrossTenants(Wrapper):
    """tenancy.isolation: the national-ID lookup searches every tenant's customers."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        if (
            reply.status == 404
            and scope["path"] == LOOKUP_PATH
            and "national_id" in query_of(scope)
        ):
            leaked = await call(self.app, as_primary(self, scope), body)
            if leaked.status == 200:
                return leaked
        return reply


class PaymentPagesOverlap(Wrapper):
    """pagination.walk: the payments list pages by offset computed one too low, so the
    last payment of a page is repeated first on the next (and the last one is lost)."""

    def __init__(self, app: ASGIApp, primary_key: str) -> None:
        super().__init__(app, primary_key)
        self.last_of: dict[str, Any] = {}

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        data = reply.json()
        if (
            reply.status != 200
            or not PAYMENTS_PATH.match(scope["path"])
            or scope["method"] != "GET"
        ):
            return reply
        items = data["data"]
        repeated = self.last_of.get(query_of(scope).get("cursor", ""))
        if repeated is not None and items:
            items = [repeated, *items[:-1]]
        if data.get("next_cursor") and data["data"]:
            self.last_of[data["next_cursor"]] = data["data"][-1]
        return reply.with_json({**data, "data": items})


class PeriodFromIgnored(Wrapper):
    """pagination.filter: the invoice list ignores period_from (a parameter renamed in the
    handler but not in the query builder)."""

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        query = query_of(scope)
        if INVOICES_PATH.match(scope["path"]) and "period_from" in query:
            scope = with_query(scope, {k: v for k, v in query.items() if k != "period_from"})
        return await call(self.app, scope, body)


class CursorCarriesItsOwnList(Wrapper):
    """pagination.cursor_bound: the cursor is a server-side handle to the query that made
    it, so any request carrying it gets the next page of that query, whoever asks."""

    def __init__(self, app: ASGIApp, primary_key: str) -> None:
        super().__init__(app, primary_key)
        self.origin: dict[str, Scope] = {}

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        cursor = query_of(scope).get("cursor")
        if cursor is not None and cursor in self.origin:
            origin = self.origin[cursor]
            scope = {
                **origin,
                "query_string": with_query(origin, {**query_of(origin), "cursor": cursor})[
                    "query_string"
                ],
            }
        reply = await call(self.app, scope, body)
        data = reply.json()
        if reply.status == 200 and isinstance(data, dict) and data.get("next_cursor"):
            self.origin[data["next_cursor"]] = scope
        return reply


class ErrorsMintRequestId(Wrapper):
    """request_id.echo: the error handler mints a fresh request id for every 4xx instead of
    echoing the client's (header and problem body alike)."""

    def __init__(self, app: ASGIApp, primary_key: str) -> None:
        super().__init__(app, primary_key)
        self.minted = 0

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        if not 400 <= reply.status < 500 or request_header(scope, b"x-request-id") is None:
            return reply
        self.minted += 1
        fresh = f"err-{self.minted:06d}"
        data = reply.json()
        if isinstance(data, dict) and "request_id" in data:
            reply = reply.with_json({**data, "request_id": fresh})
        return Reply(
            reply.status,
            reply.without(b"x-request-id") + [(b"x-request-id", fresh.encode())],
            reply.body,
        )


SUBSCRIPTION_PATH = re.compile(r"^/v1/customers/\d{10}/subscription$")


def shifted(day: str, *, days: int = 0, months: int = 0) -> str:
    moved = date.fromisoformat(day) + timedelta(days=days)
    month = moved.month - 1 + months
    return moved.replace(year=moved.year + month // 12, month=month % 12 + 1).isoformat()


class NextBillingDateOneDayLate(JsonRewriter):
    """subscription.billing_dates: the next billing date is the day after the billing day
    (an exclusive bound printed as the date), so subscribers are told a wrong date."""

    PATH = SUBSCRIPTION_PATH

    def rewrite(self, data: Any, scope: Scope) -> Any:
        if data.get("next_billing_date"):
            data["next_billing_date"] = shifted(data["next_billing_date"], days=1)
        return data


class PlanChangeAMonthLate(JsonRewriter):
    """subscription.pending_change: a scheduled change takes effect a billing cycle late
    (the effective date computed from the period after the current one)."""

    PATH = SUBSCRIPTION_PATH

    def rewrite(self, data: Any, scope: Scope) -> Any:
        change = data.get("pending_change")
        if isinstance(change, dict):
            change["effective_date"] = shifted(change["effective_date"], months=1)
        return data


class CataloguePricesWithTax(JsonRewriter):
    """plan.catalogue: the catalogue shows prices with IVA while subscriptions show them
    without, so the price the assistant quotes is not the one billed."""

    PATH = re.compile(r"^/v1/plans$")

    def rewrite(self, data: Any, scope: Scope) -> Any:
        for plan in data.get("data", []):
            plan["monthly_price"] = money(Decimal(plan["monthly_price"]) * Decimal("1.16"))
        return data


class SuspensionNotShown(JsonRewriter):
    """customer.status: the customer record reads a stale status column, so a customer cut
    off for non-payment is reported active."""

    PATH = re.compile(r"^/v1/(customers/\d{10}|customer-lookup)$")

    def rewrite(self, data: Any, scope: Scope) -> Any:
        if data.get("status") == "suspended":
            data["status"] = "active"
        return data


class ListedPaymentsLoseReference(JsonRewriter):
    """payment.listed: the list query forgets the reference column, so a listed payment is
    not the one its 201 returned."""

    PATH = LIST_PAYMENTS_PATH

    def rewrite(self, data: Any, scope: Scope) -> Any:
        if scope["method"] == "GET":
            for payment in each_payment(data):
                payment["reference"] = None
        return data


class CustomerWithoutCurrency(JsonRewriter):
    """schema.response: the customer record leaves out its required `currency`: the billing
    API with a bug, which verify must fail with a report (exit 1), not call foreign."""

    PATH = CUSTOMER_PATH

    def rewrite(self, data: Any, scope: Scope) -> Any:
        data.pop("currency", None)
        return data


class CreditHidden(JsonRewriter):
    """Not a defect: a tenant none of whose accounts holds a credit (the balance says 0.00
    credit, consistently), so `balance.net` has no case that tells a sign error."""

    PATH = BALANCE_PATH

    def rewrite(self, data: Any, scope: Scope) -> Any:
        data["credit_balance"], data["net_balance"] = "0.00", data["amount_due"]
        return data


# Mutant → (the rule family it breaks, every check the kit must fail on it, exactly).
# A bug often breaks more than one promise (a booked replay also moves money twice); the
# table pins all of them, so a check that starts failing on the wrong mutant shows up too.
MUTANTS: dict[type[Wrapper], tuple[str, frozenset[str]]] = {
    MoneyAsNumber: ("money", frozenset({"money", "schema.response"})),
    LeaksOtherTenant: ("tenancy", frozenset({"tenancy", "tenancy.isolation"})),
    AppliesReplayTwice: (
        "idempotency",
        frozenset(
            {
                "idempotency",
                "idempotency.concurrency",
                "idempotency.fingerprint",
                "idempotency.replay",
                "idempotency.retention",
            }
        ),
    ),
    ReturnsNeighbour: ("identifier", frozenset({"exact_lookup", "identifier.exact"})),
    CrashesOnBadLimit: ("validation", frozenset({"validation"})),
    OmitsRequestId: ("request_id", frozenset({"request_id", "request_id.echo"})),
    TotalOffByOneCent: ("invoice", frozenset({"invoice.arithmetic", "totals"})),
    AcceptsAnyKey: ("authentication", frozenset({"authentication"})),
    CreditAddedToNet: ("balance", frozenset({"balance.net"})),
    BalanceCachedAcrossPayments: (
        "balance",
        frozenset({"balance.amount_due", "idempotency", "idempotency.replay"}),
    ),
    NextDueFromNewestInvoice: ("balance", frozenset({"balance.next_due_date"})),
    SubtotalIgnoresDiscounts: ("invoice", frozenset({"invoice.arithmetic", "totals"})),
    # A suspended customer then shows no overdue invoice that explains the suspension.
    OverdueJobNotRun: (
        "invoice",
        frozenset(
            {"balance.amount_due", "balance.next_due_date", "customer.status", "invoice.status"}
        ),
    ),
    PeriodEndExclusive: ("invoice", frozenset({"invoice.billing_period"})),
    UnappliedNotSerialised: ("payment", frozenset({"payment.allocation", "totals"})),
    InvoiceCurrencyFromTenantDefault: ("currency", frozenset({"currency.account"})),
    ConvertsForeignCurrency: ("currency", frozenset({"currency.payment", "idempotency.replay"})),
    IdempotencyCacheIgnoresTenant: (
        "idempotency",
        frozenset(
            {
                "idempotency",
                "idempotency.fingerprint",
                "idempotency.retention",
                "idempotency.tenant_scope",
                "tenancy.isolation",
            }
        ),
    ),
    FingerprintOverAmountOnly: ("idempotency", frozenset({"idempotency.fingerprint"})),
    # The scenario fails too: it uses the run's one payment, booked by the concurrent burst,
    # and sees net_balance drop by more than one payment.
    CheckThenInsertRace: (
        "idempotency",
        frozenset({"idempotency", "idempotency.concurrency", "idempotency.replay"}),
    ),
    KeysKeptOneSecond: (
        "idempotency",
        frozenset({"idempotency.fingerprint", "idempotency.replay", "idempotency.retention"}),
    ),
    MintsMissingKey: (
        "idempotency",
        frozenset({"idempotency", "idempotency.key_required", "idempotency.replay"}),
    ),
    # The hidden booking also leaves a balance that no invoice walk of the run explains.
    BooksKeylessThenRefuses: (
        "idempotency",
        frozenset({"balance.amount_due", "idempotency", "idempotency.replay"}),
    ),
    ReplayNotMarked: ("idempotency", frozenset({"idempotency", "idempotency.retention"})),
    PhoneNormalisedOnLookup: ("identifier", frozenset({"identifier.exact"})),
    AccountNumberZerosStripped: ("identifier", frozenset({"identifier.exact"})),
    StatusFilterForgetsTenant: (
        "tenancy",
        frozenset({"pagination.cursor_bound", "tenancy.isolation"}),
    ),
    NationalIdLookupAcrossTenants: ("tenancy", frozenset({"tenancy.isolation"})),
    PaymentPagesOverlap: ("pagination", frozenset({"pagination.walk"})),
    PeriodFromIgnored: (
        "pagination",
        frozenset({"pagination.cursor_bound", "pagination.filter", "validation"}),
    ),
    CursorCarriesItsOwnList: (
        "pagination",
        frozenset(
            {"pagination.cursor_bound", "pagination.filter", "schema.response", "tenancy.isolation"}
        ),
    ),
    ErrorsMintRequestId: ("request_id", frozenset({"request_id", "request_id.echo"})),
    # A scheduled change then no longer starts on the (wrong) next billing date either.
    NextBillingDateOneDayLate: (
        "subscription",
        frozenset({"subscription.billing_dates", "subscription.pending_change"}),
    ),
    PlanChangeAMonthLate: ("subscription", frozenset({"subscription.pending_change"})),
    CataloguePricesWithTax: ("plan", frozenset({"plan.catalogue"})),
    SuspensionNotShown: ("customer", frozenset({"customer.status"})),
    ListedPaymentsLoseReference: (
        "payment",
        frozenset({"payment.listed", "payment_report.verified"}),  # the seeded verified report's
    ),
    CustomerWithoutCurrency: ("schema", frozenset({"schema.response"})),
}


# --- contract 1.1: exchange rates and payment reports --------------------------------------

RATE_PATH = re.compile(r"^/v1/exchange-rates/(\d{4}-\d{2}-\d{2})$")
REPORTS_PATH = re.compile(
    r"^/v1/customers/\d{10}/payment-reports$|^/v1/payment-reports/PRP-\d{10}$"
)


def each_report(data: Any) -> list[dict[str, Any]]:
    """The report of a single body or every report of a page."""
    if isinstance(data, dict) and "report_id" in data:
        return [data]
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        return [item for item in data["data"] if isinstance(item, dict) and "report_id" in item]
    return []


class RateTruncatedToCents(JsonRewriter):
    """exchange_rate.conversion: the rate column is serialised as money, two decimals, while
    `scale` still says four (so every conversion a client makes from it is off)."""

    PATH = RATE_PATH

    def rewrite(self, data: Any, scope: Scope) -> Any:
        data["rate"] = str(Decimal(data["rate"]).quantize(Decimal("0.01")))
        return data


class WeekendServedAsPublished(JsonRewriter):
    """exchange_rate.carried_over: a weekend answers as if it had its own publication
    (the carried rate relabelled with the day asked)."""

    PATH = RATE_PATH

    def rewrite(self, data: Any, scope: Scope) -> Any:
        if date.fromisoformat(data["date"]).weekday() >= 5:
            data["effective_date"], data["carried_over"] = data["date"], False
        return data


class ResolvedAtStampedOnIntake(JsonRewriter):
    """payment_report.pending: `resolved_at` defaults to the creation time, so a pending
    report looks resolved (consistently, wherever it is read)."""

    PATH = REPORTS_PATH

    def rewrite(self, data: Any, scope: Scope) -> Any:
        for found in each_report(data):
            if found["status"] == "pending_verification":
                found["resolved_at"] = found["created_at"]
        return data


class RejectedKeepsMatchedPayment(JsonRewriter):
    """payment_report.verified: a rejected report keeps the payment it was provisionally
    matched to."""

    PATH = REPORTS_PATH

    def rewrite(self, data: Any, scope: Scope) -> Any:
        for found in each_report(data):
            if found["status"] == "rejected":
                found["payment_id"] = "PAY-" + found["report_id"][4:]
        return data


class VerifiesEveryClaim(JsonRewriter):
    """payment_report.duplicate_reference: every report read back is verified on sight,
    the kit's two reports of one reference included (each its own payment)."""

    PATH = re.compile(r"^/v1/payment-reports/PRP-\d{10}$")

    def rewrite(self, data: Any, scope: Scope) -> Any:
        if data["status"] == "pending_verification":
            data.update(
                status="verified",
                resolved_at=data["created_at"],
                payment_id="PAY-" + data["report_id"][4:],
                credited_amount=data["amount"],
            )
        return data


class RejectionReasonAlwaysCurrency(JsonRewriter):
    """payment_report.method_currency: every rejection is filed as currency_not_allowed,
    Pago Móvil in bolívares included."""

    PATH = REPORTS_PATH

    def rewrite(self, data: Any, scope: Scope) -> Any:
        for found in each_report(data):
            if found["status"] == "rejected":
                found["rejection_reason"] = "currency_not_allowed"
        return data


class ReportKeyIgnored(Wrapper):
    """payment_report.idempotency: the report endpoint ignores Idempotency-Key (each
    request is stored under a key of its own), so a redelivered message reports twice."""

    def __init__(self, app: ASGIApp, primary_key: str) -> None:
        super().__init__(app, primary_key)
        self.sent = 0

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        if scope["method"] == "POST" and scope["path"].endswith("/payment-reports"):
            self.sent += 1
            if request_header(scope, b"idempotency-key") is not None:
                scope = with_header(scope, b"idempotency-key", f"own-key-{self.sent:06d}".encode())
        return await call(self.app, scope, body)


class ReportsOldestFirst(JsonRewriter):
    """payment_report.listed: the report list is ORDER BY created_at ASC within a page."""

    PATH = re.compile(r"^/v1/customers/\d{10}/payment-reports$")

    def rewrite(self, data: Any, scope: Scope) -> Any:
        if scope["method"] == "GET":
            data["data"] = list(reversed(data["data"]))
        return data


MUTANTS.update(
    {
        RateTruncatedToCents: ("exchange_rate", frozenset({"exchange_rate.conversion"})),
        WeekendServedAsPublished: ("exchange_rate", frozenset({"exchange_rate.carried_over"})),
        ResolvedAtStampedOnIntake: ("payment_report", frozenset({"payment_report.pending"})),
        RejectedKeepsMatchedPayment: ("payment_report", frozenset({"payment_report.verified"})),
        VerifiesEveryClaim: (
            "payment_report",
            frozenset({"payment_report.duplicate_reference"}),
        ),
        RejectionReasonAlwaysCurrency: (
            "payment_report",
            frozenset({"payment_report.method_currency"}),
        ),
        ReportKeyIgnored: ("payment_report", frozenset({"payment_report.idempotency"})),
        ReportsOldestFirst: ("payment_report", frozenset({"payment_report.listed"})),
    }
)


REPORT_POST = re.compile(r"^/v1/customers/\d{10}/payment-reports$")


class ReportKeyOverAccountOnly(Wrapper):
    """payment_report.idempotency: the report fingerprint covers the account only, so the
    same key with a changed amount replays the first report instead of a 409."""

    def __init__(self, app: ASGIApp, primary_key: str) -> None:
        super().__init__(app, primary_key)
        self.first: dict[tuple[str, bytes], bytes] = {}

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        key = request_header(scope, b"idempotency-key")
        if scope["method"] == "POST" and REPORT_POST.match(scope["path"]) and key is not None:
            body = self.first.setdefault((scope["path"], key), body)
        return await call(self.app, scope, body)


class PendingReportCredited(Wrapper):
    """payment_report.pending: a new report is credited provisionally (its amount counts
    as credit on the balance, consistently with `net_balance`) before anyone verified it."""

    def __init__(self, app: ASGIApp, primary_key: str) -> None:
        super().__init__(app, primary_key)
        self.provisional: dict[str, Decimal] = {}

    async def handle(self, scope: Scope, body: bytes) -> Reply:
        reply = await call(self.app, scope, body)
        account = scope["path"].split("/")[3] if scope["path"].count("/") >= 3 else ""
        if scope["method"] == "POST" and REPORT_POST.match(scope["path"]) and reply.status == 201:
            credit = self.provisional.get(account, Decimal(0)) + Decimal(json.loads(body)["amount"])
            self.provisional[account] = credit
        data = reply.json()
        extra = self.provisional.get(account)
        if BALANCE_PATH.match(scope["path"]) and reply.status == 200 and extra is not None:
            data["credit_balance"] = money(Decimal(data["credit_balance"]) + extra)
            data["net_balance"] = money(Decimal(data["net_balance"]) - extra)
            return reply.with_json(data)
        return reply


MUTANTS.update(
    {
        ReportKeyOverAccountOnly: ("payment_report", frozenset({"payment_report.idempotency"})),
        PendingReportCredited: ("payment_report", frozenset({"payment_report.pending"})),
    }
)


class ConversionRoundedDown(JsonRewriter):
    """exchange_rate.conversion: a verified report in bolívares credits its dollars cut to
    the cent (VES ÷ rate rounded down) instead of rounded half-up."""

    PATH = REPORTS_PATH

    def rewrite(self, data: Any, scope: Scope) -> Any:
        for found in each_report(data):
            if (
                found["status"] == "verified"
                and found.get("exchange_rate")
                and found["currency"] == "VES"
            ):
                exact = Decimal(found["amount"]) / Decimal(found["exchange_rate"])
                found["credited_amount"] = money(exact.quantize(Decimal("0.01"), ROUND_DOWN))
        return data


MUTANTS[ConversionRoundedDown] = (
    "payment_report",
    frozenset({"exchange_rate.conversion", "payment_report.verified"}),  # its payment differs
)


class ZelleInBolivaresVerified(JsonRewriter):
    """payment_report.method_currency: every report is shown as Zelle, whatever it was
    paid in — a verified report in bolívares included."""

    PATH = REPORTS_PATH

    def rewrite(self, data: Any, scope: Scope) -> Any:
        for found in each_report(data):
            found["method"] = "zelle"
        return data


MUTANTS[ZelleInBolivaresVerified] = (
    "payment_report",
    frozenset({"payment_report.method_currency", "payment_report.verified"}),  # not its payment's
)


OTHER_VES_METHOD = {"pago_movil": "bank_transfer", "bank_transfer": "pago_movil"}


class ReportPaymentsSwapMethods(JsonRewriter):
    """payment_report.verified: the payments of bolívar reports are listed with the other
    bolívar method (a Pago Móvil booked as a transfer, a transfer as a Pago Móvil)."""

    PATH = LIST_PAYMENTS_PATH

    def rewrite(self, data: Any, scope: Scope) -> Any:
        for found in each_payment(data):
            found["method"] = OTHER_VES_METHOD.get(found["method"], found["method"])
        return data


MUTANTS[ReportPaymentsSwapMethods] = ("payment_report", frozenset({"payment_report.verified"}))
