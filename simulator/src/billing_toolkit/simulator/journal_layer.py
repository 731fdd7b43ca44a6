"""Records every billing request in the journal (never `/_sim`, never the contract
documents): when it ends, with its status, faults and timing.

Not a layer of its own: the request-context layer, which already sees every request start
and end with its status (and takes its start time), calls `begin` and `end` (an extra ASGI
layer, with its own `send` wrapper, cost more per request than recording itself). It runs
outside fault injection, so a fault's answer — or a connection cut with no answer at all —
is what gets recorded. With `--journal-size 0` there is no recorder and nothing is called.

Built to cost nothing measurable (`benchmarks/simulator_request_path.py` and
`simulator_throughput.py` show journal on vs off): a GET makes no object of its own (one
float, the arrival on the fault clock), only a request with a body gets a `BodyTap`, and
`end` hands the journal raw references — it masks and filters only when read.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.datastructures import Headers
from starlette.types import Message, Receive, Scope

from billing_toolkit.simulator.config import ADMIN_PREFIX
from billing_toolkit.simulator.endpoint import bearer_token
from billing_toolkit.simulator.journal import BODY_KEPT, RequestJournal
from billing_toolkit.simulator.request_record import RequestRecord
from billing_toolkit.simulator.routing import operation_match
from billing_toolkit.simulator.runtime import Runtime

_WITH_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""Only these pay for keeping the body (most requests are GETs)."""


class BodyTap:
    """The body a request carried so far, kept as it is read (up to `BODY_KEPT`).

    `receive` is a bound method of this object, which has the connection's `transport`
    like uvicorn's own receive has, so the socket faults still find the connection they
    cut (`faults.socket.transport_of`)."""

    __slots__ = ("_receive", "chunks", "size", "transport")

    def __init__(self, receive: Receive) -> None:
        self._receive = receive
        self.transport = getattr(getattr(receive, "__self__", None), "transport", None)
        self.chunks: list[bytes] = []
        self.size = 0

    async def receive(self) -> Message:
        message = await self._receive()
        body = message.get("body")
        if body and self.size <= BODY_KEPT:  # one byte more than kept: the journal says "cut"
            piece = body[: BODY_KEPT + 1 - self.size]
            self.chunks.append(piece)
            self.size += len(piece)
        return message


class JournalRecorder:
    def __init__(
        self,
        runtime: Runtime,
        journal: RequestJournal,
        skip: frozenset[str],
        skip_prefixes: tuple[str, ...],
    ) -> None:
        """`skip`, `skip_prefixes`: paths never recorded (`ADMIN_PREFIX` always is one)."""
        self.runtime, self.journal, self.skip = runtime, journal, skip
        self.skip_prefixes = (ADMIN_PREFIX, *skip_prefixes)
        self._clock = runtime.config.clock
        self._started = runtime.faults.started_at

    def begin(self, scope: Scope, receive: Receive) -> tuple[Receive, float | None, BodyTap | None]:
        """The `receive` to hand on, the arrival on the fault clock (None: not recorded)
        and the tap of a body method's body, all three for `end`."""
        path = scope["path"]
        if path.startswith(self.skip_prefixes) or path in self.skip:
            return receive, None, None
        arrived = self._clock.monotonic() - self._started
        if scope["method"] in _WITH_BODY:
            tap = BodyTap(receive)
            return tap.receive, arrived, tap
        return receive, arrived, None

    def end(
        self,
        scope: Scope,
        arrived: float,
        tap: BodyTap | None,
        started: float,
        status: int | None,
    ) -> RequestRecord:
        """The request's record, kept in the journal. `started`: the request-context
        layer's `perf_counter` at the request's start (the journal turns it into a date
        when read)."""
        state: dict[str, Any] = scope["state"]
        operation_id, tenant = state.get("operation_id"), state.get("tenant")
        if operation_id is None:  # a fault answered before the endpoint ran (or a 404)
            operation_id, tenant = who_asked(scope, self.runtime)
        return self.journal.record(
            started, arrived, state["request_id"], scope["method"], scope["path"],
            scope.get("query_string", b""), operation_id, tenant, status,
            state.get("faults"), time.perf_counter() - started, scope["headers"],
            b"".join(tap.chunks) if tap is not None else b"",
        )  # fmt: skip


def who_asked(scope: Scope, runtime: Runtime) -> tuple[str | None, str | None]:
    """Operation and tenant of a request no endpoint saw (a 404, a fault that answered
    first): what a journal filter asks for and what its log line says."""
    found = operation_match(scope, runtime.matcher)
    token = bearer_token(Headers(scope=scope))
    tenant = runtime.store.tenant_for_key(token) if token else None
    return (found[0].operation_id if found else None), (tenant.tenant_id if tenant else None)
