"""One handler per operationId of `contract/simulator-admin.yaml`.

Each translates HTTP to one `SimulatorControl` call and back; no logic lives here that a
test using the control in-process would miss.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from billing_toolkit.simulator.control import FaultControl, JournalControl, ScenarioConflict
from billing_toolkit.simulator.faults.registry import UnknownState
from billing_toolkit.simulator.faults.rules import FaultRuleError
from billing_toolkit.simulator.faults.scenario import ScenarioError, parse_scenario_text
from billing_toolkit.simulator.handlers.context import OperationContext
from billing_toolkit.simulator.journal_filters import JournalQueryError, body_filters
from billing_toolkit.simulator.problems import Reply, invalid, problem
from billing_toolkit.simulator.rate_limit import RateLimitError
from billing_toolkit.simulator.representations import timestamp
from billing_toolkit.simulator.state.engine import DayReport
from billing_toolkit.simulator.state.store import UnknownSnapshot
from billing_toolkit.simulator.validation.messages import FieldError


def _body(ctx: OperationContext) -> dict[str, Any]:
    return ctx.request.body or {}


def rule_field_errors(error: Exception) -> list[FieldError]:
    """One FieldError per problem: `body.kind: unknown ...` names `body.kind` (the QA
    console shows the very same list under its form)."""
    problems = error.problems if isinstance(error, FaultRuleError) else [str(error)]
    errors = []
    for line in problems:
        field, sep, message = line.partition(": ")
        errors.append(FieldError(field, message) if sep else FieldError("body", line))
    return errors


def _rule_error(error: Exception) -> Reply:
    return invalid(rule_field_errors(error))


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
    try:
        ctx.runtime.control.reset(body.get("seed"), body.get("customers_per_tenant"))
    except ValueError as error:
        return invalid([FieldError("body", str(error))])
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
    text = ctx.request.body["now"]
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return invalid(
            [FieldError("body.now", f"{text!r} is not a date-time this clock can reach")]
        )
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
    try:
        return _report(ctx, ctx.runtime.control.clock.advance(**parts))
    except ValueError as error:
        return invalid([FieldError("body", str(error))])


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


def load_scenario_text(
    faults: FaultControl, text: str, replace: bool
) -> tuple[set[str], list[FieldError]]:
    """Load a scenario given as YAML text (never a path on the server's disk): the ids of
    the rules added, or every problem as a FieldError and nothing added (the API and the
    QA console answer with the same list)."""
    try:
        scenario = parse_scenario_text(text, faults.operations, "body", faults.statuses)
        return {rule.id for rule in faults.load_scenario(scenario, replace)}, []
    except ScenarioError as error:
        return set(), [FieldError("body", problem) for problem in error.problems]
    except ScenarioConflict as error:
        return set(), [FieldError("query.replace", str(error))]
    except ValueError as error:  # an id already taken
        return set(), [FieldError("body", str(error))]


def load_scenario(ctx: OperationContext) -> Reply:
    faults = ctx.runtime.control.faults
    replace = ctx.request.query.get("replace") == "true"
    added, errors = load_scenario_text(faults, str(ctx.request.body), replace)
    if errors:
        return invalid(errors)
    return Reply(201, {"data": [item for item in faults.list() if item["id"] in added]})


def unload_scenario(ctx: OperationContext) -> Reply:
    if not ctx.runtime.control.faults.unload_scenario(ctx.path("name")):
        return problem(404, "not_found", "No loaded scenario has this name.")
    return Reply(204, None)


def list_scenarios(ctx: OperationContext) -> Reply:
    return Reply(200, {"data": ctx.runtime.control.faults.scenarios()})


def set_scenario_state(ctx: OperationContext) -> Reply:
    try:
        return Reply(
            200, ctx.runtime.control.faults.set_state(ctx.path("name"), _body(ctx)["state"])
        )
    except KeyError:
        return problem(404, "not_found", "No loaded scenario with states has this name.")
    except UnknownState as error:
        return invalid([FieldError("body.state", str(error))])


def list_fault_events(ctx: OperationContext) -> Reply:
    events = ctx.runtime.control.faults.events(ctx.request.query.get("kind"))
    return Reply(200, {"data": [event.to_dict() for event in events]})


def clear_fault_events(ctx: OperationContext) -> Reply:
    ctx.runtime.control.faults.clear_events()
    return Reply(204, None)


def _journal_filters(ctx: OperationContext) -> dict[str, Any]:
    """The query's filters as `JournalControl` takes them; `JournalQueryError` names the
    parameter that cannot be applied."""
    query = ctx.request.query
    filters = {
        name: query[name]
        for name in ("operation", "tenant", "status", "since", "until", "request_id")
        if name in query
    }
    for name in ("since", "until"):  # decimal strings in the contract: floats here
        if name in filters:
            filters[name] = float(filters[name])
    if body := body_filters(ctx.raw_query):  # `body=F=V` and the open-ended `body.F=V`
        filters["body"] = body
    if "since" in filters and "until" in filters and filters["until"] < filters["since"]:
        raise JournalQueryError("query.until", "must not be before since")
    return filters


def _journal_read(
    ctx: OperationContext, read: Callable[[JournalControl, dict[str, Any]], dict[str, Any]]
) -> Reply:
    """`read`'s answer and the journal's capacity, or the 400 of a filter that cannot apply."""
    requests = ctx.runtime.control.requests
    try:
        filters = _journal_filters(ctx)
    except JournalQueryError as error:
        return invalid([FieldError(error.field, error.message)])
    return Reply(200, {**read(requests, filters), "capacity": requests.journal.capacity})


def list_requests(ctx: OperationContext) -> Reply:
    limit = ctx.request.query.get("limit", 100)
    return _journal_read(ctx, lambda journal, filters: {"data": journal.list(limit, **filters)})


def count_requests(ctx: OperationContext) -> Reply:
    return _journal_read(ctx, lambda journal, filters: {"count": journal.count(**filters)})


def clear_requests(ctx: OperationContext) -> Reply:
    ctx.runtime.control.requests.clear()
    return Reply(204, None)


def get_rate_limits(ctx: OperationContext) -> Reply:
    return Reply(200, {"data": ctx.runtime.control.rate_limits.list()})


def set_rate_limits(ctx: OperationContext) -> Reply:
    try:
        policies = ctx.runtime.control.rate_limits.set(*_body(ctx)["limits"], where="body.limits")
    except RateLimitError as error:
        field, _, message = str(error).partition(": ")
        return invalid([FieldError(field, message)])
    return Reply(200, {"data": policies})


def clear_rate_limits(ctx: OperationContext) -> Reply:
    ctx.runtime.control.rate_limits.clear()
    return Reply(204, None)


ADMIN_HANDLERS: dict[str, Callable[[OperationContext], Reply]] = {
    "getRateLimits": get_rate_limits,
    "setRateLimits": set_rate_limits,
    "clearRateLimits": clear_rate_limits,
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
    "unloadScenario": unload_scenario,
    "listScenarios": list_scenarios,
    "setScenarioState": set_scenario_state,
    "listFaultEvents": list_fault_events,
    "clearFaultEvents": clear_fault_events,
    "listRequests": list_requests,
    "countRequests": count_requests,
    "clearRequests": clear_requests,
}
