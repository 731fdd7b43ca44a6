"""What a customer owes right now (computed by the same function the invariants use)."""

from __future__ import annotations

from simulator.handlers.context import OperationContext
from simulator.problems import Reply, customer_not_found
from simulator.representations import balance_view


def get_balance(ctx: OperationContext) -> Reply:
    account = ctx.owned_account()
    if account is None:
        return customer_not_found()
    return Reply(200, balance_view(account, ctx.runtime.store.now))
