"""One handler per operationId of `contract/simulator-admin.yaml`.

Each translates HTTP to one `SimulatorControl` call and back; no logic lives here that a
test using the control in-process would miss.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from billing_toolkit.simulator.faults.rules import FaultRuleError
from billing_toolkit.simulator.faults.scenario import ScenarioError
from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.problems import Reply, invalid, problem
from billing_toolkit.simulator.representations import timestamp
from billing_toolkit.simulator.state.engine import DayReport
from billing_toolkit.simulator.state.store import UnknownSnapshot
from billing_toolkit.simulator.validation.messages import FieldError


def _body(ctx: OperationContext) -> dict[str, Any]:
    return ctx.request.body or {}


def _rule_error(error: Exception) -> Reply:
    field, _, message = str(error).partition(": ")
    return invalid([FieldError(field if message else "body", message or str(error))])


def _report(ctx: OperationContext, report: DayReport) -> Reply:
    return Reply(
        200,
        {
            "now": timestamp(ctx.runtime.control.clock.now()),
            "days": report.days,
            "invoices_issued": report.invoices_issued,
            "invoices_overdue": report.invoices_overdue,
            "accounts_suspended": report.accounts_suspended,
        },
    )


def get_simulator_info(ctx: OperationContext) -> Reply:
    return Reply(200, ctx.runtime.control.info())


def reset_simulator(ctx: OperationContext) -> Reply:
    body = _body(ctx)
    ctx.runtime.control.reset(body.get("seed"), body.get("customers_per_tenant"))
    return Reply(200, ctx.runtime.control.info())


def list_snapshots(ctx: OperationContext) -> Reply:
    return Reply(200, {"data": ctx.runtime.control.snapshots()})


def create_snapshot(ctx: OperationContext) -> Reply:
    return Reply(201, {"snapshot_id": ctx.runtime.control.snapshot(_body(ctx).get("snapshot_id"))})


def restore_snapshot(ctx: OperationContext) -> Reply:
    snapshot_id = ctx.path("snapshotId")
    try:
        ctx.runtime.control.restore(snapshot_id)
    except UnknownSnapshot:
        return problem(404, "not_found", "No snapshot has this id.")
    return Reply(200, {"snapshot_id": snapshot_id})


def get_clock(ctx: OperationContext) -> Reply:
    return Reply(200, {"now": timestamp(ctx.runtime.control.clock.now())})


def set_clock(ctx: OperationContext) -> Reply:
    moment = datetime.fromisoformat(ctx.request.body["now"])
    try:
        return _report(ctx, ctx.runtime.control.clock.set(moment))
    except ValueError as error:
        return invalid([FieldError("body.now", str(error))])


def advance_clock(ctx: OperationContext) -> Reply:
    body = _body(ctx)
    parts = {name: body.get(name, 0) for name in ("days", "hours", "minutes", "seconds")}
    if not any(parts.values()):
        return invalid(
            [
                FieldError(
                    "body.days",
                    "move the clock by a positive amount (days, hours, minutes or seconds)",
                )
            ]
        )
    return _report(ctx, ctx.runtime.control.clock.advance(**parts))


def list_faults(ctx: OperationContext) -> Reply:
    return Reply(200, {"data": ctx.runtime.control.faults.list()})


def add_fault(ctx: OperationContext) -> Reply:
    faults = ctx.runtime.control.faults
    try:
        rule = faults.add_rule(_body(ctx), where="body")
    except (FaultRuleError, ValueError) as error:
        return _rule_error(error)
    return Reply(201, next(item for item in faults.list() if item["id"] == rule.id))


def clear_faults(ctx: OperationContext) -> Reply:
    ctx.runtime.control.faults.clear()
    return Reply(204, None)


def delete_fault(ctx: OperationContext) -> Reply:
    if not ctx.runtime.control.faults.remove(ctx.path("faultId")):
        return problem(404, "not_found", "No fault rule has this id.")
    return Reply(204, None)


def load_scenario(ctx: OperationContext) -> Reply:
    faults = ctx.runtime.control.faults
    try:
        added = {rule.id for rule in faults.load_scenario(str(ctx.request.body))}
    except (ScenarioError, FaultRuleError) as error:
        return invalid([FieldError("body", str(error))])
    return Reply(201, {"data": [item for item in faults.list() if item["id"] in added]})


def list_fault_events(ctx: OperationContext) -> Reply:
    return Reply(200, {"data": [event.to_dict() for event in ctx.runtime.control.faults.events()]})


def clear_fault_events(ctx: OperationContext) -> Reply:
    ctx.runtime.control.faults.clear_events()
    return Reply(204, None)


ADMIN_HANDLERS: dict[str, Callable[[OperationContext], Reply]] = {
    "getSimulatorInfo": get_simulator_info,
    "resetSimulator": reset_simulator,
    "listSnapshots": list_snapshots,
    "createSnapshot": create_snapshot,
    "restoreSnapshot": restore_snapshot,
    "getClock": get_clock,
    "setClock": set_clock,
    "advanceClock": advance_clock,
    "listFaults": list_faults,
    "addFault": add_fault,
    "clearFaults": clear_faults,
    "deleteFault": delete_fault,
    "loadScenario": load_scenario,
    "listFaultEvents": list_fault_events,
    "clearFaultEvents": clear_fault_events,
}
