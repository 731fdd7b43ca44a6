"""The official USD→VES rate of a date, from the seeded series (`state.exchange_rates`)."""

from __future__ import annotations

from datetime import date
from typing import Any

from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.problems import Reply, problem
from billing_toolkit.simulator.representations import timestamp
from billing_toolkit.simulator.state.exchange_rates import SCALE, SOURCE, PublishedRate, rate_on


def exchange_rate_view(published: PublishedRate) -> dict[str, Any]:
    return {
        "date": published.day.isoformat(),
        "rate": str(published.rate),
        "scale": SCALE,
        "source": SOURCE,
        "effective_date": published.effective_date.isoformat(),
        "carried_over": published.carried_over,
        "published_at": timestamp(published.published_at),
    }


def get_exchange_rate(ctx: OperationContext) -> Reply:
    """A date after today has no rate yet and one before the series never had one: 404."""
    day = date.fromisoformat(ctx.path("date"))
    store = ctx.runtime.store
    published = None if day > store.now.date() else rate_on(store.state.seed, day)
    if published is None:
        return problem(404, "not_found", f"No rate is published for {day.isoformat()}.")
    return Reply(200, exchange_rate_view(published))
