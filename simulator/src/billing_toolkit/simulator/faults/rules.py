"""Fault rules: what to break, for whom, how often and when — and their validation.

One rule reads like the sentence QA would say: "getBalance answers 503 for 30 s, then
recovers" is `{operation: getBalance, kind: http_503, duration_s: 30}`. Parsing rejects
anything it does not understand (bias: a typo in a scenario must fail loudly, not quietly
inject nothing), and every message names the field (`rules[2].probability: ...`).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

from pydantic import Field

from billing_toolkit.simulator.faults.bounded_yaml import quoted
from billing_toolkit.simulator.faults.kinds import KINDS, Kind
from billing_toolkit.simulator.faults.sequence import PASS, Step
from billing_toolkit.simulator.numbers import Settings, SettingsRefused, read
from billing_toolkit.simulator.state.tenants import TENANT_SPECS

ANY_OPERATION = "*"
COMMON_FIELDS = (
    "kind", "operation", "path", "method", "tenant", "customer",
    "probability", "times", "after_s", "duration_s", "id",
)  # fmt: skip
SEQUENCE = "sequence"
"""The `kind` a rule given as `steps` reports (its steps say what each request gets)."""
SEQUENCE_FIELDS = ("steps", "repeat", "operation", "path", "method", "tenant", "customer",
                   "after_s", "duration_s", "id")  # fmt: skip
STEP_FIELDS = ("kind", "times", "duration_s")
MAX_STEPS = 100


class FaultRuleError(ValueError):
    """A rule that cannot be used; the message names the field at fault. `problems` is
    every problem found, one line each (the message joins them)."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or [message]


@dataclass(frozen=True, slots=True)
class RequestFacts:
    """What a rule can match on, known before the request reaches billing."""

    operation_id: str
    method: str
    path: str
    tenant: str | None
    customer: str | None


@dataclass(slots=True)
class FaultRule:
    kind: str
    operation: str | None = None
    path: str | None = None
    method: str | None = None
    tenant: str | None = None
    customer: str | None = None
    probability: float = 1.0
    times: int | None = None
    after_s: float = 0.0
    duration_s: float | None = None
    params: dict[str, float] = field(default_factory=dict)
    id: str = ""
    steps: tuple[Step, ...] = ()
    """A sequence (`kind` is `sequence`): what each matching request gets, step by step."""
    repeat: bool = False

    def matches(self, facts: RequestFacts) -> bool:
        if self.operation not in (None, ANY_OPERATION, facts.operation_id):
            return False
        if self.path is not None and not fnmatch.fnmatchcase(facts.path, self.path):
            return False
        if self.method is not None and self.method.upper() != facts.method.upper():
            return False
        if self.tenant is not None and self.tenant != facts.tenant:
            return False
        return self.customer is None or self.customer == facts.customer

    def in_window(self, elapsed: float) -> bool:
        """Active from `after_s` after the rule was added, for `duration_s` (or for ever)."""
        if elapsed < self.after_s:
            return False
        return self.duration_s is None or elapsed < self.after_s + self.duration_s

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "kind": self.kind}
        for name in ("operation", "path", "method", "tenant", "customer", "times", "duration_s"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        data["probability"] = self.probability
        data["after_s"] = self.after_s
        if self.steps:
            data["steps"] = [step.to_dict() for step in self.steps]
            data["repeat"] = self.repeat
        return {**data, **self.params}


MAX_TIMES = 1_000_000_000
MAX_AFTER_S = 2_592_000.0
"""30 days: a window that opens later than that is a typo, not a test plan."""
MAX_DURATION_S = 31_536_000.0
"""A year; leave `duration_s` out for a rule that stays for ever."""
TENANTS = frozenset(spec.tenant_id for spec in TENANT_SPECS)
"""The simulator's operators (the same for every seed): a rule for any other never fires."""
_ACCOUNT_NUMBER = re.compile(r"[1-9][0-9]{9}")


TIMES = Annotated[int | None, Field(ge=1, le=MAX_TIMES)]
"""How many matching requests; None: no limit."""
DURATION = Annotated[float | None, Field(gt=0.0, le=MAX_DURATION_S)]
"""How long, in seconds; None: for ever."""


class _Window(Settings):
    """When a rule (or a sequence) is active: from `after_s`, for `duration_s` (None: for ever)."""

    after_s: Annotated[float, Field(ge=0.0, le=MAX_AFTER_S)] = 0.0
    duration_s: DURATION = None


class _RuleNumbers(_Window):
    """The numbers of a one-kind rule: when it is active and how often it fires."""

    probability: Annotated[float, Field(gt=0.0, le=1.0)] = 1.0


class _Times(Settings):
    """How many matching requests a rule (or a step) acts on; None: no limit."""

    times: TIMES = None


class _StepNumbers(_Times):
    """How long one step of a sequence lasts: `times` requests or `duration_s` seconds."""

    duration_s: DURATION = None


_S = TypeVar("_S", bound=Settings)


def _checked(model: type[_S], raw: Mapping[Any, Any], problems: _Problems,
             subject: str = "") -> _S | None:  # fmt: skip
    """`raw`'s settings of `model`, or None with each refusal added to `problems`."""
    try:
        return read(model, raw, subject)
    except SettingsRefused as refused:
        for name, message in refused.problems:
            problems.add(name, message)
        return None


def _text(value: Any) -> str | None:
    if not isinstance(value, str) or not value:
        return f"must be a non-empty string, got {quoted(value)}"
    return None


class _Problems:
    """Every problem of one rule, each naming its field (`rules[2].tenant: ...`)."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.found: list[str] = []

    def add(self, name: str | None, message: str | None) -> None:
        if message is not None:
            self.found.append(
                f"{self.where}.{name}: {message}" if name else f"{self.where}: {message}"
            )


def _kind(raw: Mapping[str, Any], problems: _Problems) -> Kind | None:
    if "kind" not in raw:
        problems.add("kind", "is required")
        return None
    name = raw["kind"]
    if not isinstance(name, str) or name not in KINDS:
        problems.add("kind", f"unknown fault kind {quoted(name)} (known: {', '.join(KINDS)})")
        return None
    return KINDS[name]


def _params(kind: Kind, raw: Mapping[str, Any], problems: _Problems) -> dict[str, float]:
    """The kind's parameters as given (2 stays 2: the listing and `Retry-After` show what
    was asked), the defaults for those left out."""
    checked = _checked(kind.params, raw, problems, kind.name)
    if checked is None:
        return {}
    params = {name: raw.get(name, value) for name, value in checked.model_dump().items()}
    if kind.name == "latency_uniform" and params["min_ms"] > params["max_ms"]:
        problems.add("max_ms", f"must be >= min_ms ({params['min_ms']:g})")
    return params


def _targets(raw: Mapping[str, Any], operations: Mapping[str, bool], kind: Kind | None,
             problems: _Problems) -> None:  # fmt: skip
    """What the rule is aimed at, refused when it could never fire (bias: a rule that
    silently injects nothing is the worse failure for a test)."""
    operation, path = raw.get("operation"), raw.get("path")
    if operation is not None and operation != ANY_OPERATION and operation not in operations:
        problems.add("operation", f"unknown operationId {quoted(operation)}")
    if operation is None and path is None:
        problems.add(None, "give an operation (an operationId or '*') or a path")
    if operation is not None and path is not None:
        problems.add(
            "path",
            "give an operation or a path, not both (the rule would fire only where they agree)",
        )
    for name in ("path", "method", "tenant", "id"):
        if raw.get(name) is not None:
            problems.add(name, _text(raw[name]))
    tenant = raw.get("tenant")
    if isinstance(tenant, str) and tenant and tenant not in TENANTS:
        problems.add(
            "tenant",
            f"no tenant {quoted(tenant)} (tenants: {', '.join(sorted(TENANTS))}): the rule would never fire",
        )
    customer = raw.get("customer")
    if customer is not None and not _ACCOUNT_NUMBER.fullmatch(str(customer)):
        problems.add(
            "customer",
            f"{quoted(customer)} is not an account number (10 digits): the rule would never fire",
        )
    if kind is not None and kind.needs_404 and _lacks_404(operation, operations):
        problems.add("kind", f"{operation} has no 404 response in the contract")
    _checked(_Times, raw, problems)


def _lacks_404(operation: object, operations: Mapping[str, bool]) -> bool:
    """A contract operation without a 404 (`not_found` cannot answer for it)."""
    return isinstance(operation, str) and not operations.get(operation, True)


def _step(raw: Any, index: int, last: bool, operation: Any, operations: Mapping[str, bool],
          problems: _Problems) -> Step | None:  # fmt: skip
    """One step of a sequence; its problems are named `steps[i].field`."""
    where = f"steps[{index}]"
    if not isinstance(raw, Mapping):
        problems.add(where, f"must be a mapping, got {type(raw).__name__}")
        return None
    name = raw.get("kind")
    if name == PASS:
        kind = Kind(PASS, "Serve the request normally.")
    elif not isinstance(name, str) or name not in KINDS:
        known = ", ".join([PASS, *KINDS])
        problems.add(f"{where}.kind", "is required" if name is None
                     else f"unknown fault kind {quoted(name)} (known: {known})")  # fmt: skip
        return None
    else:
        kind = KINDS[name]
    step_problems = _Problems(f"{problems.where}.{where}")
    for extra in sorted(set(map(str, raw)) - set(STEP_FIELDS) - set(kind.params.model_fields)):
        step_problems.add(extra, f"unknown field for {kind.name}")
    if kind.needs_404 and _lacks_404(operation, operations):
        step_problems.add("kind", f"{operation} has no 404 response in the contract")
    numbers = _checked(_StepNumbers, raw, step_problems)
    times, duration = raw.get("times"), raw.get("duration_s")
    if times is not None and duration is not None:
        step_problems.add("duration_s", "give times or duration_s, not both")
    if times is None and duration is None and not last:
        step_problems.add(None, "give times or duration_s (only the last step may stay for ever)")
    params = _params(kind, raw, step_problems)
    problems.found.extend(step_problems.found)
    if step_problems.found or numbers is None:
        return None
    return Step(kind.name, params, numbers.times, numbers.duration_s)


def _sequence(raw: Mapping[str, Any], where: str, operations: Mapping[str, bool]) -> FaultRule:
    """A rule given as `steps`: the targets and window of any rule, and its steps."""
    problems = _Problems(where)
    for name in sorted(set(map(str, raw)) - set(SEQUENCE_FIELDS)):
        reason = (
            "each step says how long it lasts"
            if name in ("times", "probability")
            else (
                "give the kinds in the steps" if name == "kind" else "unknown field for a sequence"
            )
        )
        problems.add(name, reason)  # fmt: skip
    _targets(raw, operations, None, problems)
    window = _checked(_Window, raw, problems)
    repeat = raw.get("repeat", False)
    if not isinstance(repeat, bool):
        problems.add("repeat", f"must be true or false, got {quoted(repeat)}")
    raw_steps = raw["steps"]
    steps: list[Step | None] = []
    if not isinstance(raw_steps, list) or not 1 <= len(raw_steps) <= MAX_STEPS:
        problems.add("steps", f"must be a list of 1 to {MAX_STEPS} steps")
    else:
        steps = [_step(step, index, index == len(raw_steps) - 1, raw.get("operation"),
                       operations, problems) for index, step in enumerate(raw_steps)]  # fmt: skip
    if problems.found or window is None:
        raise FaultRuleError("; ".join(problems.found), problems.found)
    method = raw.get("method")
    return FaultRule(
        kind=SEQUENCE,
        operation=raw.get("operation"),
        path=raw.get("path"),
        method=method.upper() if method is not None else None,
        tenant=raw.get("tenant"),
        customer=str(raw["customer"]) if raw.get("customer") is not None else None,
        after_s=window.after_s,
        duration_s=window.duration_s,
        id=raw.get("id") or "",
        steps=tuple(step for step in steps if step is not None),
        repeat=repeat,
    )


def parse_rule(raw: Any, where: str, operations: Mapping[str, bool]) -> FaultRule:
    """A validated rule from a mapping (YAML, JSON body or header); `FaultRuleError`
    lists every problem of the rule, each naming its field.

    `operations` maps each operationId of the billing contract to whether it documents a
    404 (needed by `not_found`).
    """
    if not isinstance(raw, Mapping):
        raise FaultRuleError(f"{where}: must be a mapping, got {type(raw).__name__}")
    if "steps" in raw:
        return _sequence(raw, where, operations)
    problems = _Problems(where)
    kind = _kind(raw, problems)
    if kind is not None:
        for name in sorted(set(map(str, raw)) - set(COMMON_FIELDS) - set(kind.params.model_fields)):
            problems.add(name, f"unknown field for {kind.name}")
    _targets(raw, operations, kind, problems)
    numbers = _checked(_RuleNumbers, raw, problems)
    params = _params(kind, raw, problems) if kind is not None else {}
    if problems.found or kind is None or numbers is None:
        raise FaultRuleError("; ".join(problems.found), problems.found)
    method = raw.get("method")
    return FaultRule(
        kind=kind.name,
        operation=raw.get("operation"),
        path=raw.get("path"),
        method=method.upper() if method is not None else None,
        tenant=raw.get("tenant"),
        customer=str(raw["customer"]) if raw.get("customer") is not None else None,
        probability=numbers.probability,
        times=raw.get("times"),
        after_s=numbers.after_s,
        duration_s=numbers.duration_s,
        params=params,
        id=raw.get("id") or "",
    )


def parse_header(value: str, operations: Mapping[str, bool], operation_id: str) -> FaultRule:
    """`X-Sim-Fault: http_503; retry_after_s=2` → a one-shot rule for this request."""
    kind_name, *pairs = [part.strip() for part in value.split(";") if part.strip()] or [""]
    raw: dict[str, Any] = {"kind": kind_name, "operation": operation_id, "times": 1}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep:
            raise FaultRuleError(f"header X-Sim-Fault: expected name=value, got {quoted(pair)}")
        try:
            raw[name.strip()] = int(text) if text.strip().lstrip("-").isdigit() else float(text)
        except ValueError:
            raise FaultRuleError(
                f"header X-Sim-Fault.{name.strip()}: must be a number, got {quoted(text)}"
            ) from None
    return parse_rule(raw, "header X-Sim-Fault", operations)
