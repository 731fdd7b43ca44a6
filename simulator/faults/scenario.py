"""Scenario files: a named list of fault rules in YAML, loaded at start or validated alone.

```yaml
name: balance-outage-30s
description: The balance endpoint answers 503 for 30 s, then recovers.
rules:
  - operation: getBalance
    kind: http_503
    retry_after_s: 5
    duration_s: 30
```
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from billing_toolkit.simulator.faults.rules import FaultRule, FaultRuleError, parse_rule

TOP_LEVEL = ("name", "description", "rules")


class ScenarioError(ValueError):
    """A scenario that cannot be loaded; one line that names the file and the field."""


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    description: str
    rules: tuple[FaultRule, ...]


def parse_scenario(data: Any, operations: Mapping[str, bool]) -> Scenario:
    if not isinstance(data, Mapping):
        raise FaultRuleError("the scenario must be a mapping with a `rules` list")
    unknown = sorted(set(data) - set(TOP_LEVEL))
    if unknown:
        raise FaultRuleError(f"{unknown[0]}: unknown field (expected {', '.join(TOP_LEVEL)})")
    rules = data.get("rules")
    if not isinstance(rules, list) or not rules:
        raise FaultRuleError("rules: must be a non-empty list of fault rules")
    parsed = tuple(
        parse_rule(rule, f"rules[{index}]", operations) for index, rule in enumerate(rules)
    )
    return Scenario(str(data.get("name", "")), str(data.get("description", "")), parsed)


def parse_scenario_text(
    text: str, operations: Mapping[str, bool], source: str = "scenario"
) -> Scenario:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        raise ScenarioError(
            f"{source}:{where} not valid YAML ({getattr(error, 'problem', error)})"
        ) from None
    try:
        return parse_scenario(data, operations)
    except FaultRuleError as error:
        raise ScenarioError(f"{source}: {error}") from None


def load_scenario(path: Path, operations: Mapping[str, bool]) -> Scenario:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ScenarioError(f"{path}: cannot read ({error.strerror})") from None
    return parse_scenario_text(text, operations, str(path))
