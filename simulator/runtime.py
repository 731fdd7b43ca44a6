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
from billing_toolkit.simulator.faults.registry import FaultRegistry, operations_with_404
from billing_toolkit.simulator.faults.scenario import load_scenario
from billing_toolkit.simulator.pagination import Cursors
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


def open_store(config: SimulatorConfig) -> BillingStore:
    """The saved state when `state_path` holds one, else a fresh dataset (saved if persistent)."""
    persistence: Persistence = (
        SQLitePersistence(Path(config.state_path)) if config.state_path else MemoryPersistence()
    )
    state = persistence.load()
    if state is None:
        state = dataset.generate(config.seed, config.customers_per_tenant, config.start_time)
        persistence.save_all(state)
    return BillingStore(state, persistence, config.start_time)


def build_runtime(config: SimulatorConfig) -> Runtime:
    billing = load_contract(OPENAPI_PATH)
    admin = load_contract(ADMIN_OPENAPI_PATH)
    operations = operations_with_404(billing.operations)
    registry = FaultRegistry(
        config.clock, EventLog(), config.seed if config.fault_seed is None else config.fault_seed
    )
    store = open_store(config)
    control = SimulatorControl(store, registry, operations)
    if config.scenario is not None:
        scenario = (
            load_scenario(config.scenario, operations)
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
    )
