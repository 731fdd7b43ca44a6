"""Full walks of every paginated operation with small pages, and cursors used out of place.

The judges check every page and walk the run saw (`rules/pages.py`); this probe makes sure
there are small-page walks of each list and each filter to judge, compares each with a
walk in large pages (each item exactly once), and replays cursors where they do not
belong: with another filter, on another list, on another account and with another
tenant's key. A cursor must be refused there, never served as a page of another list.
"""

from __future__ import annotations

from billing_toolkit.conformance.calls import Call, paging
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.http import Identity
from billing_toolkit.conformance.probes.base import Probe, ProbeContext, ProbeFindings, finding
from billing_toolkit.contract.formats import IdentifierFormat

SMALL = 2
LARGE = 100
MAX_PAGES = 30


def walk(ctx: ProbeContext, request: Call, limit: int) -> tuple[list[str], list[Exchange]]:
    """(item ids, pages) of a cursor walk of `request` with `limit`, bounded."""
    names = paging(ctx.scenario.facts)
    ids: list[str] = []
    pages: list[Exchange] = []
    cursor: str | None = None
    while len(pages) < MAX_PAGES:
        params = {names.limit: str(limit), **({names.cursor: cursor} if cursor else {})}
        page = ctx.scenario.session.send(request.with_params(params))
        pages.append(page)
        body = page.json()
        if page.status != 200 or not isinstance(body, dict):
            break
        ids += [
            str(item.get(member_of(item)))
            for item in body.get("data") or []
            if isinstance(item, dict)
        ]
        cursor = body.get("next_cursor")
        if not cursor:
            break
    return ids, pages


def member_of(item: dict[str, object]) -> str:
    """The identifier member of a listed item (payments also name invoices, in allocations)."""
    return "payment_id" if "payment_id" in item else "invoice_number"


def _lists(ctx: ProbeContext) -> list[tuple[str, Call]]:
    scenario = ctx.scenario
    statuses = sorted({str(i.get("status")) for i in scenario.data.invoices})
    invoices = scenario.call("listInvoices")
    starts = sorted(str(i["billing_period"]["start"]) for i in scenario.data.invoices)
    middle = starts[len(starts) // 2] if starts else None
    periods = [{"period_from": middle}, {"period_to": middle}] if middle else []
    return [("listPayments", scenario.call("listPayments")), ("listInvoices", invoices)] + [
        (f"listInvoices {query}", invoices.with_params(query))
        for query in [{"status": status} for status in statuses] + periods
    ]


def _refused(reply: Exchange) -> bool:
    return reply.status in (400, 404)


def run(ctx: ProbeContext) -> ProbeFindings:
    found: ProbeFindings = {}
    walks = finding(found, "pagination.walk")
    bound = finding(found, "pagination.cursor_bound")
    names = paging(ctx.scenario.facts)
    cursors: dict[str, str] = {}
    for label, request in _lists(ctx):
        small, pages = walk(ctx, request, SMALL)
        large, _ = walk(ctx, request, LARGE)
        walks.inspected += 1
        if sorted(small) != sorted(large):
            missing = sorted(set(large) - set(small))[:3]
            twice = sorted({i for i in small if small.count(i) > 1})[:3]
            walks.add(
                f"{label} in pages of {SMALL}: {len(small)} items vs {len(large)} in "
                f"pages of {LARGE} (missing {missing}, repeated {twice})",
                pages[-1],
            )
        first = pages[0].json()
        if isinstance(first, dict) and isinstance(first.get("next_cursor"), str):
            cursors[label] = first["next_cursor"]
    scenario = ctx.scenario
    misuses: list[tuple[str, Call, Identity]] = []
    for label, cursor in cursors.items():
        with_cursor = {names.limit: str(SMALL), names.cursor: cursor}
        for other_label, other in _lists(ctx):
            if other_label != label:
                misuses.append(
                    (
                        f"a cursor of {label} sent to {other_label}",
                        other.with_params(with_cursor),
                        Identity.PRIMARY,
                    )
                )
        operation_id = label.split()[0]
        for account in ctx.related_accounts[:1]:
            known = {IdentifierFormat.ACCOUNT_NUMBER: account}
            misuses.append(
                (
                    f"a cursor of {label} sent for another account",
                    scenario.call(operation_id, known).with_params(with_cursor),
                    Identity.PRIMARY,
                )
            )
        if scenario.settings.other_tenant_key:
            own = next(request for lbl, request in _lists(ctx) if lbl == label)
            misuses.append(
                (
                    f"a cursor of {label} sent with another tenant's key",
                    own.with_params(with_cursor),
                    Identity.OTHER,
                )
            )
    for what, request, identity in misuses:
        reply = scenario.session.send(request, identity=identity)
        bound.inspected += 1
        if not _refused(reply):
            bound.add(f"{what}: expected 400 or 404, got {reply.describe()}", reply)
    if not cursors:
        bound.unable = "no list of the test account has more than one page of 2 items"
    return found


PROBE = Probe(name="page_walks", rules=("pagination.walk", "pagination.cursor_bound"), run=run)
