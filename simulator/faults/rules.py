"""Fault rules: what to break, for whom, how often and when — and their validation.

One rule reads like the sentence QA would say: "getBalance answers 503 for 30 s, then
recovers" is `{operation: getBalance, kind: http_503, duration_s: 30}`. Parsing rejects
anything it does not understand (bias: a typo in a scenario must fail loudly, not quietly
inject nothing), and every message names the field (`rules[2].probability: ...`).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from billing_toolkit.simulator.faults.kinds import KINDS, Kind

ANY_OPERATION = "*"
COMMON_FIELDS = (
    "kind", "operation", "path", "method", "tenant", "customer",
    "probability", "times", "after_s", "duration_s", "id",
)  # fmt: skip


class FaultRuleError(ValueError):
    """A rule that cannot be used; the message names the field at fault."""


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
        return {**data, **self.params}


def _number(
    where: str, value: Any, *, minimum: float, exclusive: bool = False, maximum: float | None = None
) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise FaultRuleError(f"{where}: must be a number, got {value!r}")
    if (
        value < minimum
        or (exclusive and value == minimum)
        or (maximum is not None and value > maximum)
    ):
        bounds = (
            f"({minimum:g}, {maximum:g}]"
            if exclusive and maximum is not None
            else f">= {minimum:g}"
        )
        raise FaultRuleError(f"{where}: must be {bounds}, got {value!r}")
    return float(value)


def _text(where: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise FaultRuleError(f"{where}: must be a non-empty string, got {value!r}")
    return value


def _kind(where: str, raw: Mapping[str, Any]) -> Kind:
    if "kind" not in raw:
        raise FaultRuleError(f"{where}.kind: is required")
    name = raw["kind"]
    if name not in KINDS:
        raise FaultRuleError(
            f"{where}.kind: unknown fault kind {name!r} (known: {', '.join(KINDS)})"
        )
    return KINDS[name]


def _params(where: str, kind: Kind, raw: Mapping[str, Any]) -> dict[str, float]:
    params: dict[str, float] = {}
    for name, spec in kind.params.items():
        if name not in raw:
            if spec.default is None:
                raise FaultRuleError(f"{where}.{name}: is required for {kind.name}")
            params[name] = spec.default
            continue
        problem = spec.problem(raw[name])
        if problem is not None:
            raise FaultRuleError(f"{where}.{name}: {problem}")
        params[name] = raw[name]
    if kind.name == "latency_uniform" and params["min_ms"] > params["max_ms"]:
        raise FaultRuleError(f"{where}.max_ms: must be >= min_ms ({params['min_ms']:g})")
    return params


def parse_rule(raw: Any, where: str, operations: Mapping[str, bool]) -> FaultRule:
    """A validated rule from a mapping (YAML, JSON body or header).

    `operations` maps each operationId of the billing contract to whether it documents a
    404 (needed by `not_found`).
    """
    if not isinstance(raw, Mapping):
        raise FaultRuleError(f"{where}: must be a mapping, got {type(raw).__name__}")
    kind = _kind(where, raw)
    unknown = sorted(set(raw) - set(COMMON_FIELDS) - set(kind.params))
    if unknown:
        raise FaultRuleError(f"{where}.{unknown[0]}: unknown field for {kind.name}")
    operation = raw.get("operation")
    if operation is not None and operation != ANY_OPERATION and operation not in operations:
        raise FaultRuleError(f"{where}.operation: unknown operationId {operation!r}")
    if operation is None and raw.get("path") is None:
        raise FaultRuleError(f"{where}: give an operation (an operationId or '*') or a path")
    if kind.needs_404:
        targets = [operation] if operation not in (None, ANY_OPERATION) else []
        lacking = [op for op in targets if not operations[op]]
        if lacking:
            raise FaultRuleError(f"{where}.kind: {lacking[0]} has no 404 response in the contract")
    times = raw.get("times")
    if times is not None and (isinstance(times, bool) or not isinstance(times, int) or times < 1):
        raise FaultRuleError(f"{where}.times: must be a whole number >= 1, got {times!r}")
    duration = raw.get("duration_s")
    return FaultRule(
        kind=kind.name,
        operation=operation,
        path=_text(f"{where}.path", raw["path"]) if raw.get("path") is not None else None,
        method=_text(f"{where}.method", raw["method"]).upper()
        if raw.get("method") is not None
        else None,
        tenant=_text(f"{where}.tenant", raw["tenant"]) if raw.get("tenant") is not None else None,
        customer=_text(f"{where}.customer", str(raw["customer"]))
        if raw.get("customer") is not None
        else None,
        probability=_number(
            f"{where}.probability",
            raw.get("probability", 1.0),
            minimum=0.0,
            exclusive=True,
            maximum=1.0,
        ),
        times=times,
        after_s=_number(f"{where}.after_s", raw.get("after_s", 0.0), minimum=0.0),
        duration_s=None
        if duration is None
        else _number(f"{where}.duration_s", duration, minimum=0.0, exclusive=True),
        params=_params(where, kind, raw),
        id=_text(f"{where}.id", raw["id"]) if raw.get("id") is not None else "",
    )


def parse_header(value: str, operations: Mapping[str, bool], operation_id: str) -> FaultRule:
    """`X-Sim-Fault: http_503; retry_after_s=2` → a one-shot rule for this request."""
    kind_name, *pairs = [part.strip() for part in value.split(";") if part.strip()] or [""]
    raw: dict[str, Any] = {"kind": kind_name, "operation": operation_id, "times": 1}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep:
            raise FaultRuleError(f"header X-Sim-Fault: expected name=value, got {pair!r}")
        try:
            raw[name.strip()] = int(text) if text.strip().lstrip("-").isdigit() else float(text)
        except ValueError:
            raise FaultRuleError(
                f"header X-Sim-Fault.{name.strip()}: must be a number, got {text!r}"
            ) from None
    return parse_rule(raw, "header X-Sim-Fault", operations)
