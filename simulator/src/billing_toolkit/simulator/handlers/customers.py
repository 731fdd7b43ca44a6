"""Customer lookup and retrieval, always inside the caller's tenant."""

from __future__ import annotations

from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.problems import Reply, customer_not_found, invalid
from billing_toolkit.simulator.representations import customer_view
from billing_toolkit.simulator.validation.messages import FieldError

LOOKUP_FIELDS = ("phone", "national_id", "account_number")


def lookup_customer(ctx: OperationContext) -> Reply:
    """Exactly one identifier, matched exactly on its canonical form (the API never guesses)."""
    given = [name for name in LOOKUP_FIELDS if name in ctx.request.query]
    if not given:
        return invalid(
            [FieldError("query.phone", "give exactly one of phone, national_id or account_number")]
        )
    if len(given) > 1:
        return invalid(
            [
                FieldError(
                    f"query.{name}", f"only one identifier may be given (got {', '.join(given)})"
                )
                for name in given[1:]
            ]
        )
    account = ctx.runtime.store.find_account(ctx.tenant_id, given[0], ctx.request.query[given[0]])
    if account is None:
        return customer_not_found()
    return Reply(200, customer_view(account.customer))


def get_customer(ctx: OperationContext) -> Reply:
    account = ctx.owned_account()
    if account is None:
        return customer_not_found()
    return Reply(200, customer_view(account.customer))
