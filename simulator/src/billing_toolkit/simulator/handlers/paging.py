"""One page of a customer's list (invoices, payments), as the contract's `*Page` shape."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.pagination import BadCursor
from billing_toolkit.simulator.problems import Reply, invalid
from billing_toolkit.simulator.validation.messages import FieldError

T = TypeVar("T")


def page_reply(
    ctx: OperationContext,
    items: Sequence[T],
    sort_key: Callable[[T], str],
    scope: str,
    view: Callable[[T], dict[str, Any]],
) -> Reply:
    """Newest first after the request's cursor; a cursor not issued for `scope` is 400."""
    query = ctx.request.query
    try:
        page, cursor = ctx.runtime.cursors.page(
            items, sort_key, scope, query["limit"], query.get("cursor")
        )
    except BadCursor as error:
        return invalid([FieldError("query.cursor", str(error))])
    return Reply(200, {"data": [view(item) for item in page], "next_cursor": cursor})
