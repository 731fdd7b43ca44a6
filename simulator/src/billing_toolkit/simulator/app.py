"""`create_app`: the Starlette application serving the billing contract and the admin API."""

from __future__ import annotations

from collections.abc import Callable

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp

from billing_toolkit.contract import OPENAPI_PATH
from billing_toolkit.contract.matching import OperationMatcher
from billing_toolkit.contract.operations import Operation
from billing_toolkit.simulator.admin.handlers import ADMIN_HANDLERS
from billing_toolkit.simulator.admin.throttle import ThrottledAdmin
from billing_toolkit.simulator.config import SimulatorConfig
from billing_toolkit.simulator.console import console_mount
from billing_toolkit.simulator.contract_docs import ASSETS_PREFIX, DOCS_PATHS, ContractDocs
from billing_toolkit.simulator.endpoint import (
    admin_authenticator,
    make_endpoint,
    render,
    request_id_in,
    tenant_authenticator,
)
from billing_toolkit.simulator.fault_injection import FaultMiddleware
from billing_toolkit.simulator.handlers import BILLING_HANDLERS
from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.journal_layer import JournalRecorder
from billing_toolkit.simulator.metrics import RequestMetrics
from billing_toolkit.simulator.middleware import RequestContextMiddleware
from billing_toolkit.simulator.problems import Reply, problem
from billing_toolkit.simulator.routing import ContractDispatch, contract_routes
from billing_toolkit.simulator.runtime import build_runtime
from billing_toolkit.webconsole.throttle import MemoryFailureCounts, SignInThrottle


async def _http_error(request: Request, error: Exception) -> Response:
    """Unknown paths and methods get problem+json like everything else.

    A 405's `Allow` lists every method of the path across operations (Starlette's own
    would only list those of the first route that matched the path).
    """
    assert isinstance(error, HTTPException)
    if error.status_code == 405:
        reply = problem(
            405,
            "validation_error",
            f"{request.method} is not allowed on this path.",
            title="Method not allowed",
        )
        matchers = request.app.state.matchers
        reply.headers["Allow"] = ", ".join(
            sorted({m for matcher in matchers for m in matcher.methods(request.url.path)})
        )
    else:
        reply = problem(
            error.status_code, "not_found", "No such path in this API.", title="Not found"
        )
    rendered = render(reply, request_id_in(request.scope), request.url.path)
    return Response(rendered.body, rendered.status, rendered.headers, rendered.media_type)


def create_app(config: SimulatorConfig | None = None) -> Starlette:
    """A ready simulator: dataset loaded or generated, scenario rules active.

    Fails at start-up with `ContractMismatch` if an operation of either contract has no
    handler or a handler has no operation.
    """
    runtime = build_runtime(config or SimulatorConfig())
    billing = make_endpoint(runtime, runtime.validator, tenant_authenticator(runtime))
    throttle = SignInThrottle(MemoryFailureCounts(), runtime.config.clock.monotonic)
    admin_endpoint = make_endpoint(runtime, runtime.admin_validator, admin_authenticator(runtime))

    def admin(operation: Operation, handler: Callable[[OperationContext], Reply]) -> ASGIApp:
        return ThrottledAdmin(admin_endpoint(operation, handler), throttle)

    billing_routes = contract_routes(runtime.billing, BILLING_HANDLERS, billing)
    admin_routes = contract_routes(runtime.admin, ADMIN_HANDLERS, admin)
    matchers = (runtime.matcher, OperationMatcher(runtime.admin.operations.values()))
    tables = tuple(
        (matcher, {route.name: route.app for route in routes})
        for matcher, routes in zip(matchers, (billing_routes, admin_routes), strict=True)
    )
    journal = runtime.control.requests.journal
    recorder = (
        JournalRecorder(runtime, journal, DOCS_PATHS, (ASSETS_PREFIX,))
        if journal.enabled
        else None  # `--journal-size 0`: nothing is called
    )
    app = Starlette(
        routes=[
            *billing_routes,
            *admin_routes,
            *ContractDocs(OPENAPI_PATH).routes(),
            *console_mount(runtime, throttle),
        ],
        middleware=[
            Middleware(
                RequestContextMiddleware,
                runtime=runtime,
                metrics=RequestMetrics(),
                recorder=recorder,
            ),
            Middleware(FaultMiddleware, runtime=runtime),
            Middleware(ContractDispatch, tables=tables),
        ],
        exception_handlers={404: _http_error, 405: _http_error},
    )
    app.state.control = runtime.control
    app.state.matchers = matchers
    app.state.runtime = runtime
    return app
