"""`BillingSim`: one simulator as a test sees it, in-process or on loopback, one API.

Both fixtures hand out this class. It holds the app itself (the loopback server runs it in
a thread of the test process), so faults, the test clock and snapshots are plain Python
calls on the live state in both modes; only how the bound clients reach the app differs.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from billing_toolkit.pytest_plugin.faults import Faults
from billing_toolkit.pytest_plugin.options import SimOptions

if TYPE_CHECKING:
    import httpx
    from starlette.applications import Starlette

    from billing_toolkit.client import AsyncBillingClient, BillingClient
    from billing_toolkit.pytest_plugin.virtual_time import VirtualTime
    from billing_toolkit.simulator.control import (
        ClockControl,
        JournalControl,
        RateLimitControl,
        SimulatorControl,
    )

IN_PROCESS_URL = "http://billing-sim.test"
"""Base URL of the in-process simulator: never resolved, the transport is the app."""


class BillingSim:
    def __init__(
        self,
        app: Starlette,
        options: SimOptions,
        *,
        url: str | None = None,
        virtual_time: VirtualTime | None = None,
    ) -> None:
        from billing_toolkit.simulator.control import control_of

        self.app = app
        self.options = options
        self.control: SimulatorControl = control_of(app)
        self.url = url or IN_PROCESS_URL
        """Where the bound clients send requests (the loopback server, or a placeholder)."""
        self.loopback = url is not None
        self.fault_clock = virtual_time
        """In-process: the virtual clock latency faults and the bound clients' sleeps move
        (`fault_clock.slept` lists every wait). None on loopback, where time is real."""
        self.faults = Faults(
            self.control.faults, socket=self.loopback, emulate=options.emulate_socket_faults
        )
        self._closers: list[Any] = []
        self._async_client: AsyncBillingClient | None = None
        self._client: BillingClient | None = None
        self._http: httpx.Client | None = None

    # --- the dataset ---------------------------------------------------------------------

    @property
    def info(self) -> dict[str, Any]:
        """Tenants (API keys, sample customers, invoice numbers by status, near-duplicate
        pairs, another tenant's invoice) of the live state, as `billing-sim info` prints."""
        return self.control.info()

    def tenant_info(self, tenant: str | None = None) -> dict[str, Any]:
        wanted = tenant or self.options.tenant
        for entry in self.info["tenants"]:
            if entry["tenant_id"] == wanted:
                return dict(entry)
        raise KeyError(f"no tenant {wanted!r} in the simulated world")

    @property
    def api_key(self) -> str:
        return str(self.tenant_info()["api_key"])

    def sample(self, role: str, tenant: str | None = None) -> dict[str, Any]:
        """A sample customer of the bound tenant (or `tenant`) by role: `individual`,
        `business`, `open_invoice`, `overdue`, `credit`, `suspended`, `cancelled`, `ves`,
        `pending_change`."""
        samples = self.tenant_info(tenant)["samples"]
        if role not in samples:
            raise KeyError(f"no sample role {role!r}; roles are {', '.join(sorted(samples))}")
        found = samples[role]
        if found is None:
            raise LookupError(
                f"this dataset has no {role!r} customer; ask for more customers "
                "(@pytest.mark.billing_sim(customers=N))"
            )
        return dict(found)

    # --- the request journal ---------------------------------------------------------------

    @property
    def requests(self) -> JournalControl:
        """What the simulator was sent, masked: `requests.count(operation="createPayment")`,
        `requests.list(status=503, tenant="fibranet")`, `requests.list(body={"reference":
        "INV-7"})`, `requests.clear()`. Filters: operation, tenant, status, since/until
        (seconds on the fault clock), request_id, body (field → value as sent)."""
        return self.control.requests

    # --- time and state ------------------------------------------------------------------

    @property
    def clock(self) -> ClockControl:
        """The business test clock: `advance(days=31)` bills, makes overdue, suspends."""
        return self.control.clock

    @property
    def rate_limits(self) -> RateLimitControl:
        """The rate limiter: `set("3/min")`, `set("getBalance=1/s")`, `list()`, `clear()`;
        its buckets fill on the fault clock (in-process: `fault_clock`)."""
        return self.control.rate_limits

    def allow_prefer(self, allowed: bool = True) -> None:
        """Honour `Prefer: code=NNN` / `example=NAME` (off by default, as in `serve`)."""
        self.app.state.runtime.config.allow_prefer = allowed

    def snapshot(self, name: str | None = None) -> str:
        return self.control.snapshot(name)

    def restore(self, snapshot: str) -> None:
        self.control.restore(snapshot)

    def reset(self) -> None:
        """Back to the fresh dataset of the test's seed, with no fault rule, event or
        journaled request."""
        self.control.reset(self.options.seed, self.options.customers)
        self.faults.clear()
        self.faults.clear_events()
        self.requests.clear()
        self.rate_limits.clear()
        self.allow_prefer(False)

    # --- clients -------------------------------------------------------------------------

    @property
    def client(self) -> BillingClient:
        """A blocking `BillingClient` bound to the test's tenant (closed at teardown)."""
        if self._client is None:
            self._client = self.client_for(self.options.tenant)
        return self._client

    @property
    def async_client(self) -> AsyncBillingClient:
        """An `AsyncBillingClient` bound to the test's tenant."""
        if self._async_client is None:
            self._async_client = self.async_client_for(self.options.tenant)
        return self._async_client

    @property
    def http(self) -> httpx.Client:
        """A plain httpx client with the tenant's key: what the API answers, untouched."""
        if self._http is None:
            import httpx

            self._http = httpx.Client(
                base_url=self.url,
                headers={"Authorization": f"Bearer {self.api_key}"},
                transport=self._sync_transport(),
            )
            self._closers.append(self._http.close)
        return self._http

    def client_for(self, tenant: str, **settings: Any) -> BillingClient:
        """A blocking client for `tenant` (closed at teardown); `settings` go to
        `BillingClient` (timeouts, retry, breaker, transport, ...). In-process its clock and
        sleeps are the virtual clock unless given."""
        from billing_toolkit.client import BillingClient

        if self.fault_clock is not None:
            settings = {
                "clock": self.fault_clock,
                "sleep": self.fault_clock.sleep_sync,
                **settings,
            }
        if "transport" not in settings:
            settings["transport"] = self._sync_transport()
        made = BillingClient(
            self.url, self.tenant_info(tenant)["api_key"], **self._seeded(settings)
        )
        self._closers.append(made.close)
        return made

    def async_client_for(self, tenant: str, **settings: Any) -> AsyncBillingClient:
        """An asyncio client for `tenant`, `settings` as for `client_for`. On loopback it
        keeps no idle connection, so nothing outlives the test's event loop and there is
        nothing to close."""
        import httpx

        from billing_toolkit.client import AsyncBillingClient

        defaults: dict[str, Any]
        if self.fault_clock is not None:
            defaults = {
                "transport": httpx.ASGITransport(app=self.app),
                "clock": self.fault_clock,
                "sleep": self.fault_clock.sleep,
            }
        else:
            no_idle = httpx.Limits(max_keepalive_connections=0)
            defaults = {"transport": httpx.AsyncHTTPTransport(limits=no_idle)}
        return AsyncBillingClient(
            self.url, self.tenant_info(tenant)["api_key"], **self._seeded(defaults | settings)
        )

    def close(self) -> None:
        """Close every blocking client this handle made (the fixtures call it)."""
        while self._closers:
            self._closers.pop()()

    def _seeded(self, settings: dict[str, Any]) -> dict[str, Any]:
        """Retry jitter drawn from the test's seed: the same test retries the same way."""
        return {"rng": random.Random(self.options.seed), **settings}

    def _sync_transport(self) -> httpx.BaseTransport | None:
        if self.loopback:
            return None
        from billing_toolkit.client.asgi import BlockingASGITransport

        return BlockingASGITransport(self.app)

    def __repr__(self) -> str:
        mode = self.url if self.loopback else "in-process"
        return (
            f"<BillingSim {mode} seed={self.options.seed} tenant={self.options.tenant} "
            f"customers={self.options.customers}>"
        )
