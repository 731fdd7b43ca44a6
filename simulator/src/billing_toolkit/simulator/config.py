"""Everything that shapes one simulator instance, with defaults that serve out of the box."""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from billing_toolkit.simulator.faults.clock import FaultClock, RealClock
from billing_toolkit.simulator.faults.scenario import Scenario
from billing_toolkit.simulator.journal import DEFAULT_JOURNAL_SIZE
from billing_toolkit.simulator.state.dataset import DEFAULT_CUSTOMERS, DEFAULT_NOW
from billing_toolkit.simulator.state.report_verification import VERIFICATION_DELAY

ADMIN_TOKEN_ENV = "BILLING_SIM_ADMIN_TOKEN"
DEV_ADMIN_TOKEN = "sim-admin-dev-token"
"""Admin token when `BILLING_SIM_ADMIN_TOKEN` is not set: fine on a laptop (loopback only);
`serve` on any other address refuses to start with it (`network_token_refusal`)."""
ADMIN_PREFIX = "/_sim"
DEFAULT_MAX_BODY_BYTES = 1024 * 1024
"""1 MiB: the largest body of either contract (a scenario file) is a few kilobytes."""


def _admin_token_from_env() -> str:
    return os.environ.get(ADMIN_TOKEN_ENV) or DEV_ADMIN_TOKEN


def is_loopback(host: str) -> bool:
    """Whether `host` is reachable from this machine only (`127.0.0.1`, `::1`, `localhost`).
    Bias: anything else (`0.0.0.0`, a hostname, an interface address) is a network."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def network_token_refusal(host: str, admin_token: str, allow_dev_token: bool) -> str | None:
    """Why `serve` must not start on `host` with `admin_token`, or None. The published dev
    token on a reachable port lets anyone reset the state, inject faults and read the
    journal: off loopback it takes `--allow-dev-token` on purpose."""
    if admin_token != DEV_ADMIN_TOKEN or allow_dev_token or is_loopback(host):
        return None
    return (
        f"serving on {host} needs an admin token of your own: set {ADMIN_TOKEN_ENV}"
        " (or pass --allow-dev-token to serve the public dev token on purpose)"
    )


@dataclass(slots=True)
class SimulatorConfig:
    seed: int = 42
    """Dataset seed: the same seed gives byte-identical data."""
    customers_per_tenant: int = DEFAULT_CUSTOMERS
    state_path: Path | None = None
    """SQLite file that keeps the state across restarts; None keeps it in memory."""
    scenario: Path | Scenario | None = None
    """Fault rules active from start-up (a YAML file or an already parsed scenario)."""
    admin_token: str = field(default_factory=_admin_token_from_env)
    allow_fault_header: bool = False
    """Honour `X-Sim-Fault` on billing requests (off: the header is ignored and logged)."""
    allow_prefer: bool = False
    """Honour `Prefer: code=NNN` / `example=NAME` (off: ignored and logged), as Prism does."""
    rate_limits: tuple[str, ...] = ()
    """Rate-limit policies from start (`20/s`, `getBalance=5/min`, `*=10/s`); none: no limit."""
    validate_responses: bool = True
    """Check every response against the contract; a violation becomes a 500 and an error log."""
    raise_on_invalid_response: bool = False
    """Tests: raise `ContractViolation` instead of answering 500, so the test fails loudly."""
    validation_engine: str = "compiled"
    """`compiled` (jsonschema-rs, fast) or `openapi-core` (the reference)."""
    clock: FaultClock = field(default_factory=RealClock)
    """Monotonic clock and sleep for fault windows and delays (tests inject `ManualClock`)."""
    start_time: datetime = DEFAULT_NOW
    """Business time of a fresh dataset; the test clock moves it forward."""
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    """Largest request body read; a larger one is refused with 413 while it streams in."""
    fault_seed: int | None = None
    """Seed of the fault RNGs (probabilities, random delays); defaults to `seed`."""
    journal_size: int = DEFAULT_JOURNAL_SIZE
    """Requests the journal keeps (the oldest go first); 0 turns it off."""
    report_verification_delay: timedelta = VERIFICATION_DELAY
    """How long after it was made a payment report is judged against the bank statement, on
    the business test clock (`serve --report-verification-delay`)."""
