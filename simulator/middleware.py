"""The outermost layer: a request id for every request, and one log line when it ends.

`X-Request-Id` is echoed when the client sent a usable one (1–128 visible ASCII
characters) and generated otherwise, and it is set on every response — including the
router's own 404/405 and fault answers.
"""

from __future__ import annotations

import re
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from simulator.endpoint import new_request_id
from simulator.runtime import Runtime

_USABLE_ID = re.compile(r"^[\x21-\x7e]{1,128}$")


class RequestContextMiddleware:
    def __init__(self, app: ASGIApp, runtime: Runtime) -> None:
        self.app, self.runtime = app, runtime

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        sent = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"x-request-id"), "")
        request_id = sent if _USABLE_ID.match(sent) else new_request_id()
        state: dict[str, Any] = scope.setdefault("state", {})
        state["request_id"] = request_id
        started = time.perf_counter()
        status: list[int] = []

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])
                headers = [
                    (k, v) for k, v in message.get("headers", []) if k.lower() != b"x-request-id"
                ]
                message = {**message, "headers": [*headers, (b"x-request-id", request_id.encode())]}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            self.runtime.log.info(
                "request",
                extra={
                    "request_id": request_id,
                    "method": scope["method"],
                    "path": scope["path"],
                    "query": scope.get("query_string", b"").decode("latin-1"),
                    "operation_id": state.get("operation_id"),
                    "status": status[0] if status else None,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 3),
                    "tenant": state.get("tenant"),
                    "faults": state.get("faults", []),
                },
            )
