"""Walking `next_cursor` yields every invoice exactly once, newest first.

A duplicated or skipped invoice on a page boundary makes the assistant say "you have three
open invoices" when there are two. The kit walks the test account's invoices with a small
page size and compares the result with a walk in large pages.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from billing_toolkit.conformance.checks.base import Findings, Scenario, ScenarioContext
from billing_toolkit.conformance.discovery import PAGE_SIZE, iterate_pages
from billing_toolkit.conformance.exchange import Exchange

# The small-page walk takes at most this many pages, so long histories stay bounded.
SMALL_WALK_PAGES = 25


def walk(
    ctx: ScenarioContext, limit: int, findings: Findings
) -> tuple[list[dict[str, Any]], Exchange | None]:
    """The invoices of a cursor walk, recording page-level violations in `findings`."""
    pages = iterate_pages(ctx.session, ctx.facts, ctx.data.account_number, limit)
    items: list[dict[str, Any]] = []
    for page in pages:
        body = page.json()
        findings.inspected += 1
        if (
            page.status != 200
            or not isinstance(body, dict)
            or not isinstance(body.get("data"), list)
        ):
            findings.add(f"page request failed: {page.describe()}", page)
            return items, page
        if len(body["data"]) > limit:
            findings.add(f"a page holds {len(body['data'])} invoices with limit={limit}", page)
        items.extend(item for item in body["data"] if isinstance(item, dict))
    last = pages[-1]
    last_body = last.json()
    if isinstance(last_body, dict) and last_body.get("next_cursor"):
        findings.add(f"next_cursor still set after {len(pages)} pages (a cursor loop?)", last)
    return items, last


def order_key(invoice: dict[str, Any]) -> tuple[str, str]:
    return str(invoice.get("issue_date")), str(invoice.get("invoice_number"))


def run(ctx: ScenarioContext) -> Findings:
    findings = Findings(passed_summary="each invoice exactly once, newest first")
    reference, _ = walk(ctx, PAGE_SIZE, findings)
    if findings.violations:
        return findings
    if len(reference) < 2:
        findings.unable = "the test account has fewer than 2 invoices: no page boundary to test"
        return findings
    limit = max(1, math.ceil(len(reference) / SMALL_WALK_PAGES))
    small, last = walk(ctx, limit, findings)
    numbers = [str(item.get("invoice_number")) for item in small]
    repeated = sorted(number for number, count in Counter(numbers).items() if count > 1)
    if repeated:
        findings.add(f"with limit={limit}, {', '.join(repeated)} came back more than once", last)
    expected = {str(item.get("invoice_number")) for item in reference}
    missing = sorted(expected - set(numbers))
    if missing:
        findings.add(f"with limit={limit}, the walk skipped {', '.join(missing[:5])}", last)
    extra = sorted(set(numbers) - expected)
    if extra:
        findings.add(f"with limit={limit}, the walk yielded unknown {', '.join(extra[:5])}", last)
    if [order_key(i) for i in small] != sorted((order_key(i) for i in small), reverse=True):
        findings.add(
            "invoices are not newest first (issue_date, then invoice_number, descending)", last
        )
    return findings


SCENARIO = Scenario(
    name="pagination",
    meaning=(
        "Listing the test account's invoices in small pages (following next_cursor until it "
        "is null) yields each invoice exactly once, the same set as a walk with limit=100, "
        "newest first (issue_date, then invoice_number, descending), never more than `limit` "
        "per page, and ends."
    ),
    remedy=(
        "Use a keyset cursor that encodes the last (issue_date, invoice_number) returned and "
        "a strict `<` comparison on that pair, with the ORDER BY on both columns; offset "
        "cursors skip or repeat rows when the data changes between pages."
    ),
    run=run,
)
