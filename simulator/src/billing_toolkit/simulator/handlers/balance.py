"""What a customer owes right now (computed by the same function the invariants use)."""

from __future__ import annotations

from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.problems import Reply, customer_not_found
from billing_toolkit.simulator.representations import balance_view


def get_balance(ctx: OperationContext) -> Reply:
    account = ctx.owned_account()
    if account is None:
        return customer_not_found()
    return Reply(200, balance_view(account, ctx.runtime.store.now))
