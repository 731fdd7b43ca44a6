"""Liveness and readiness: no key needed; faults can take readiness down like any operation."""

from __future__ import annotations

from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.problems import Reply


def get_liveness(ctx: OperationContext) -> Reply:
    return Reply(200, {"status": "ok"})


def get_readiness(ctx: OperationContext) -> Reply:
    return Reply(200, {"status": "ready"})
