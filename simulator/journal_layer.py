"""Records every billing request in the journal (never `/_sim`, never the contract
documents): when it ends, with its status, faults and timing.

Not a layer of its own: the request-context layer, which already sees every request start
and end with its status, calls `begin` and `end` (an extra ASGI layer, with its own `send`
wrapper, cost more per request than recording itself). It runs outside fault injection, so a
fault's answer — or a connection cut with no answer at all — is what gets recorded. With
`--journal-size 0` there is no recorder and nothing is called.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.datastructures import Headers
from starlette.types import Message, Receive, Scope

from billing_toolkit.simulator.config import ADMIN_PREFIX
from billing_toolkit.simulator.endpoint import bearer_token
from billing_toolkit.simulator.journal import BODY_KEPT, RequestJournal
from billing_toolkit.simulator.runtime import Runtime

_WITH_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""Only these pay for keeping the body (most requests are GETs)."""


class Mark:
    """One request being recorded: when it came, and the body it carried so far.

    `receive` is a bound method of this object, which has the connection's `transport`
    like uvicorn's own receive has, so the socket faults still find the connection they
    cut (`faults.socket.transport_of`)."""

    __slots__ = ("_receive", "chunks", "elapsed", "size", "transport", "wall")

    def __init__(self, receive: Receive, wall: float, elapsed: float) -> None:
        self._receive = receive
        self.transport = getattr(getattr(receive, "__self__", None), "transport", None)
        self.chunks: list[bytes] = []
        self.size = 0
        self.wall, self.elapsed = wall, elapsed

    async def receive(self) -> Message:
        message = await self._receive()
        body = message.get("body")
        if body and self.size <= BODY_KEPT:
            self.chunks.append(body)
            self.size += len(body)
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

    def begin(self, scope: Scope, receive: Receive) -> tuple[Receive, Mark | None]:
        """The `receive` to hand on, and the mark `end` needs (None: not recorded)."""
        path = scope["path"]
        if path.startswith(self.skip_prefixes) or path in self.skip:
            return receive, None
        mark = Mark(receive, time.time(), self._clock.monotonic() - self._started)
        return (mark.receive if scope["method"] in _WITH_BODY else receive), mark

    def end(self, scope: Scope, mark: Mark, status: int | None, duration_s: float) -> None:
        state: dict[str, Any] = scope["state"]
        operation_id, tenant = state.get("operation_id"), state.get("tenant")
        if operation_id is None:  # a fault answered before the endpoint ran (or a 404)
            operation_id, tenant = self._who(scope)
        self.journal.record(
            mark.wall, mark.elapsed, state["request_id"], scope["method"], scope["path"],
            scope.get("query_string", b""), operation_id, tenant, status,
            state.get("faults", ()), duration_s, scope["headers"], b"".join(mark.chunks),
        )  # fmt: skip

    def _who(self, scope: Scope) -> tuple[str | None, str | None]:
        """Operation and tenant of a request no endpoint saw: what a filter asks for."""
        found = self.runtime.matcher.match(scope["method"], scope["path"])
        token = bearer_token(Headers(scope=scope))
        tenant = self.runtime.store.tenant_for_key(token) if token else None
        return (found[0].operation_id if found else None), (tenant.tenant_id if tenant else None)
