"""A proxy run put together: judge, session, recorder and ASGI app, served by uvicorn.

`open_proxy` is the one assembly the CLI, the tests and the benchmark share; the CLI serves
it with `uvicorn_config` until SIGINT/SIGTERM and then writes the report (tests serve the
same app in a thread with the simulator's `serve_in_thread`, which takes any ASGI app).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import IO

import uvicorn

from billing_toolkit.conformance.contract_facts import load_facts
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.proxy.app import MAX_BODY_BYTES, ProxyApp
from billing_toolkit.conformance.proxy.judging import ExchangeJudge
from billing_toolkit.conformance.proxy.recording import Recorder
from billing_toolkit.conformance.proxy.session import Log, Session
from billing_toolkit.contract import OPENAPI_PATH

LOOPBACK = "127.0.0.1"


@dataclass
class ProxyRun:
    """One validating proxy: its app, the session judging its traffic, its recorder."""

    upstream: str
    app: ProxyApp
    session: Session
    recorder: Recorder | None

    def _observe(self, exchange: Exchange) -> None:
        self.session.observe(exchange)
        if self.recorder is not None:
            self.recorder.record(exchange)


def uvicorn_config(app: ProxyApp, host: str = LOOPBACK, port: int = 0) -> uvicorn.Config:
    """uvicorn settings: no access log (it would print unmasked paths), the app's lifespan
    (it closes the upstream connections)."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        lifespan="on",
        log_config=None,
    )


def open_proxy(
    upstream: str,
    *,
    log: Log,
    record: IO[str] | None = None,
    masked: bool = True,
    contract: Path = OPENAPI_PATH,
    max_body: int = MAX_BODY_BYTES,
) -> ProxyRun:
    """A validating proxy to `upstream`, logging each violation with `log`, recording to the
    open text stream `record` when given."""
    session = Session(ExchangeJudge(load_facts(contract)), log=log)
    recorder = Recorder(record, masked=masked) if record is not None else None
    app = ProxyApp(upstream, max_body=max_body)
    run = ProxyRun(upstream, app, session, recorder)
    app.observe = run._observe
    return run


def pass_through(upstream: str) -> ProxyApp:
    """The bare proxy (forwarding only): the baseline the overhead benchmark compares with."""
    return ProxyApp(upstream)
