"""The outermost layer: a request id for every request, its metrics, its journal entry and
one log line when it ends.

`X-Request-Id` is echoed when the client sent a usable one (1–128 visible ASCII
characters) and generated otherwise, and it is set on every response — including the
router's own 404/405 and fault answers. A pure ASGI layer (no `BaseHTTPMiddleware`): it
runs on every request, so it only reads the scope and rewrites the start message. The
metrics and the journal are not layers of their own but recorders this one calls when a
request ends: it already takes the start time and sees the status go by, and each extra
layer (a coroutine, a `send` wrapper, its own clock readings) cost more than its work.
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from billing_toolkit.simulator.endpoint import new_request_id
from billing_toolkit.simulator.journal_layer import JournalRecorder, who_asked
from billing_toolkit.simulator.logs import REQUEST_QUEUES, log_request
from billing_toolkit.simulator.metrics import METRICS_PATH, UNMATCHED, RequestMetrics
from billing_toolkit.simulator.request_record import RequestRecord, unjournaled
from billing_toolkit.simulator.routing import operation_match
from billing_toolkit.simulator.runtime import Runtime

_queue_of = REQUEST_QUEUES.get
_USABLE_ID = re.compile(r"^[\x21-\x7e]{1,128}$")
_REQUEST_ID = b"x-request-id"


def _request_id(scope: Scope) -> str:
    for key, value in scope["headers"]:
        if key == _REQUEST_ID:
            sent = value.decode("latin-1")
            return sent if _USABLE_ID.match(sent) else new_request_id()
    return new_request_id()


class RequestContextMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        runtime: Runtime,
        metrics: RequestMetrics,
        recorder: JournalRecorder | None = None,
    ) -> None:
        """`metrics`: counts every request that ends and answers `GET /metrics`;
        `recorder`: the request journal's, told of each request's start and end."""
        self.app, self.runtime, self.metrics, self.recorder = app, runtime, metrics, recorder

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["path"] == METRICS_PATH and scope["method"] == "GET":
            await self.metrics.expose(send)  # no request id, no log line, not counted
            return
        request_id = _request_id(scope)
        state: dict[str, Any] = scope.setdefault("state", {})
        state["request_id"] = request_id
        header = (_REQUEST_ID, request_id.encode())
        started = time.perf_counter()
        status: int | None = None
        recorder = self.recorder
        arrived = tap = None  # arrived: the fault clock's reading when journaled, else None
        record: RequestRecord | None = None  # the journal's, once it has one: the log's too
        if recorder is not None:
            receive, arrived, tap = recorder.begin(scope, receive)

        async def send_with_id(message: Message) -> None:
            nonlocal status, arrived, record
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = message.get("headers", [])
                if header not in headers:  # endpoints set it already; a redirect does not
                    headers = [item for item in headers if item[0].lower() != _REQUEST_ID]
                    message = {**message, "headers": [*headers, header]}
            elif arrived is not None and not message.get("more_body"):
                # journaled before the last byte leaves: a client that asks the journal
                # right after its answer finds its request there
                record = recorder.end(scope, arrived, tap, started, status)  # type: ignore[union-attr]
                arrived = None
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if arrived is not None:  # no complete answer: cut, reset or crashed
                record = recorder.end(scope, arrived, tap, started, status)  # type: ignore[union-attr]
            elapsed = time.perf_counter() - started
            found = operation_match(scope, self.runtime.matcher)
            self.metrics.observe(
                found[0].operation_id if found is not None else UNMATCHED,
                status,
                elapsed,
                state.get("faults", ()),
            )
            log = self.runtime.log
            queue = _queue_of(log.name)  # `serve`'s writer: one append, it checks the rest
            if queue is not None or log.isEnabledFor(logging.INFO):  # warning: no line
                if record is None:  # not journaled: the log's own record
                    operation_id, tenant = state.get("operation_id"), state.get("tenant")
                    if operation_id is None:  # as the journal would say it
                        operation_id, tenant = who_asked(scope, self.runtime)
                    record = unjournaled(
                        started, request_id, scope["method"], scope["path"],
                        scope.get("query_string", b""), operation_id, tenant, status,
                        tuple(state.get("faults", ())), elapsed,
                    )  # fmt: skip
                if queue is not None:
                    queue((log.name, record))
                else:
                    log_request(log, record)
