"""The plan catalogue and a customer's subscription."""

from __future__ import annotations

from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.problems import Reply, customer_not_found
from billing_toolkit.simulator.representations import plan_view, subscription_view


def list_plans(ctx: OperationContext) -> Reply:
    assert ctx.tenant is not None
    plans = sorted(ctx.tenant.plans, key=lambda plan: plan.plan_id)
    return Reply(200, {"data": [plan_view(plan) for plan in plans]})


def get_subscription(ctx: OperationContext) -> Reply:
    account = ctx.owned_account()
    if account is None:
        return customer_not_found()
    assert ctx.tenant is not None
    customer = account.customer
    plan = ctx.tenant.plan(customer.plan_id)
    return Reply(200, subscription_view(customer, plan, ctx.runtime.store.now))
