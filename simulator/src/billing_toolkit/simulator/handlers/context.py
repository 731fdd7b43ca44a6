"""What a handler gets: the caller's tenant, the validated request and the services."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from billing_toolkit.simulator.state.models import Account, Tenant
from billing_toolkit.simulator.validation.messages import ValidatedRequest

if TYPE_CHECKING:
    from billing_toolkit.simulator.runtime import Runtime


class OperationContext(NamedTuple):
    """Built once per request: a NamedTuple, cheaper than a frozen dataclass."""

    tenant: Tenant | None
    """None only for operations without security (health probes, admin)."""
    request: ValidatedRequest
    runtime: Runtime
    request_id: str
    raw_query: Sequence[tuple[str, str]] = ()
    """The query as sent, undeclared names too: for parameters whose names are open-ended
    (the journal's `body.FIELD=VALUE`), which no contract can list one by one."""

    @property
    def tenant_id(self) -> str:
        assert self.tenant is not None, "a secured operation always has a tenant"
        return self.tenant.tenant_id

    def path(self, name: str) -> Any:
        return self.request.path[name]

    def owned_account(self) -> Account | None:
        """The path's account if it belongs to the caller's tenant; None otherwise (404)."""
        return self.runtime.store.account(self.tenant_id, self.path("accountNumber"))
