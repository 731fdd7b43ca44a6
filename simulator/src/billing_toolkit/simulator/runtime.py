"""Builds the services one simulator instance needs, before any HTTP layer exists."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from pathlib import Path

from billing_toolkit.contract import ADMIN_OPENAPI_PATH, OPENAPI_PATH
from billing_toolkit.contract.matching import OperationMatcher
from billing_toolkit.contract.operations import Contract, load_contract
from billing_toolkit.simulator.config import SimulatorConfig
from billing_toolkit.simulator.control import SimulatorControl
from billing_toolkit.simulator.faults.events import EventLog
from billing_toolkit.simulator.faults.holds import FaultHolds
from billing_toolkit.simulator.faults.registry import (
    FaultRegistry,
    operation_statuses,
    operations_with_404,
)
from billing_toolkit.simulator.faults.scenario import load_scenario
from billing_toolkit.simulator.journal import RequestJournal
from billing_toolkit.simulator.pagination import Cursors
from billing_toolkit.simulator.rate_limit import RateLimiter, parse_policy
from billing_toolkit.simulator.state import dataset
from billing_toolkit.simulator.state.persistence import (
    MemoryPersistence,
    Persistence,
    SQLitePersistence,
)
from billing_toolkit.simulator.state.store import BillingStore
from billing_toolkit.simulator.validation import ContractValidator, build_validator

LOGGER_NAME = "billing_sim"


@dataclass(frozen=True, slots=True)
class Runtime:
    config: SimulatorConfig
    billing: Contract
    admin: Contract
    validator: ContractValidator
    admin_validator: ContractValidator
    matcher: OperationMatcher
    """Which billing operation a request is, for the layers in front of the endpoints."""
    store: BillingStore
    cursors: Cursors
    faults: FaultRegistry
    control: SimulatorControl
    log: logging.Logger
    holds: FaultHolds
    """Fault waits (held timeouts, delays) that a stopping server ends at once."""
    limiter: RateLimiter
    """Token buckets per API key (inactive unless a policy is set)."""


class StateMismatch(ValueError):
    """The state file was made with another seed than the one asked for."""


def open_store(config: SimulatorConfig) -> BillingStore:
    """The saved state when `state_path` holds one, else a fresh dataset (saved if persistent).

    A saved state must have been made with `config.seed` (a reset to another seed records
    the new one): a mismatch is refused, never silently served."""
    persistence: Persistence = (
        SQLitePersistence(Path(config.state_path)) if config.state_path else MemoryPersistence()
    )
    state = persistence.load()
    if state is not None and state.seed != config.seed:
        # serving another seed's data under this one would break "same seed, same data"
        raise StateMismatch(
            f"{config.state_path} holds the dataset of seed {state.seed}, not {config.seed}:"
            f" serve it with --seed {state.seed}, or give another --state file"
        )
    if state is None:
        state = dataset.generate(config.seed, config.customers_per_tenant, config.start_time)
        persistence.save_all(state)
    return BillingStore(state, persistence, config.start_time, config.report_verification_delay)


def build_runtime(config: SimulatorConfig) -> Runtime:
    billing = load_contract(OPENAPI_PATH)
    admin = load_contract(ADMIN_OPENAPI_PATH)
    operations = operations_with_404(billing.operations)
    statuses = operation_statuses(billing.operations)
    registry = FaultRegistry(
        config.clock, EventLog(), config.seed if config.fault_seed is None else config.fault_seed
    )
    store = open_store(config)
    limiter = RateLimiter(
        config.clock, [parse_policy(text, billing.operations) for text in config.rate_limits]
    )
    control = SimulatorControl(
        store,
        registry,
        operations,
        RequestJournal(config.journal_size),
        limiter=limiter,
        statuses=statuses,
    )
    if config.scenario is not None:
        scenario = (
            load_scenario(config.scenario, operations, statuses)
            if isinstance(config.scenario, Path)
            else config.scenario
        )
        control.faults.load_scenario(scenario)
    return Runtime(
        config=config,
        billing=billing,
        admin=admin,
        validator=build_validator(billing, config.validation_engine),
        admin_validator=build_validator(admin, config.validation_engine),
        matcher=OperationMatcher(billing.operations.values()),
        store=store,
        cursors=Cursors(hashlib.sha256(f"billing-sim-cursor:{store.state.seed}".encode()).digest()),
        faults=registry,
        control=control,
        log=logging.getLogger(LOGGER_NAME),
        holds=FaultHolds(config.clock),
        limiter=limiter,
    )
