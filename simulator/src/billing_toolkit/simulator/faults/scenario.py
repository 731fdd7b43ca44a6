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

A scenario may instead (or also) define named states whose rules are in force only while
the scenario is in that state, with transitions on completed requests (see `states.py`),
and `report_outcomes`: the verdict payment reports of a reference get once verified
(see `report_outcomes.py`).

A file is checked whole before any rule is used: every problem is reported, each with its
line (`x.yaml: line 7: rules[1].kind: ...`), and a key given twice in one mapping is one of
them (YAML would silently keep the last). The text is read by `bounded_yaml` (no aliases,
at most 64 KiB, bounded depth) and holds at most `MAX_RULES` rules, states included: a
scenario of thousands of rules would slow every request it targets. Bias: a scenario that is not exactly what it says
fails loudly; a test that injects less than its author believes is the worse outcome.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from billing_toolkit.simulator.faults.bounded_yaml import BoundedLoader, quoted
from billing_toolkit.simulator.faults.report_outcomes import ForcedOutcome, parse_report_outcomes
from billing_toolkit.simulator.faults.rules import FaultRule, FaultRuleError, parse_rule
from billing_toolkit.simulator.faults.states import StateMachine, parse_states

TOP_LEVEL = ("name", "description", "rules", "initial", "states", "report_outcomes")
Statuses = Mapping[str, frozenset[int]]
"""operationId → the statuses the contract documents for it (what a transition may name)."""
SCENARIO_SUFFIXES = (".yaml", ".yml")
MAX_RULES = 200
"""Rules of one scenario, top level and states together (the shipped ones have a dozen)."""


class ScenarioError(ValueError):
    """A scenario that cannot be loaded: one line per problem, each naming the source, the
    line and the field (`problems` holds them; the message joins them)."""

    def __init__(self, source: str, problems: list[str]) -> None:
        super().__init__("\n".join(f"{source}: {problem}" for problem in problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    description: str
    rules: tuple[FaultRule, ...]
    machine: StateMachine | None = None
    """The named states, when the scenario has `states`."""
    outcomes: tuple[ForcedOutcome, ...] = ()
    """The verdicts it forces for payment reports (`report_outcomes`)."""

    def every_rule(self) -> tuple[FaultRule, ...]:
        """The top-level rules and those of every state."""
        states = self.machine.states.values() if self.machine else ()
        return (*self.rules, *(rule for state in states for rule in state.rules))


_BOOL, _STR = "tag:yaml.org,2002:bool", "tag:yaml.org,2002:str"


class _LineLoader(BoundedLoader):
    """Bounded safe YAML that records duplicate keys and the line of every mapping and key."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.duplicates: list[str] = []
        self.lines: dict[int, int] = {}
        """id of a loaded mapping → its 1-based line (the mappings live as long as the data)."""
        self.key_lines: dict[tuple[int, str], int] = {}

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == _BOOL and key_node.value.lower() not in ("true", "false"):
                key_node.tag = _STR  # YAML 1.1 reads a key `on:` (the transitions) as True
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                self.duplicates.append(
                    f"line {key_node.start_mark.line + 1}: {quoted(key)} is given twice in this mapping"
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _mapping_with_lines(loader: _LineLoader, node: yaml.MappingNode) -> Iterator[dict[Any, Any]]:
    data: dict[Any, Any] = {}
    yield data
    data.update(loader.construct_mapping(node))
    loader.lines[id(data)] = node.start_mark.line + 1
    for key_node, _ in node.value:
        loader.key_lines[(id(data), str(key_node.value))] = key_node.start_mark.line + 1


_LineLoader.add_constructor("tag:yaml.org,2002:map", _mapping_with_lines)


def _load_yaml(text: str) -> tuple[Any, _LineLoader]:
    loader: _LineLoader | None = None
    try:
        loader = _LineLoader(text)  # the reader refuses unprintable characters right here
        return loader.get_single_data(), loader
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        reason = getattr(error, "problem", None) or " ".join(str(error).split())
        raise ScenarioError("", [f"{where}not valid YAML ({reason})"]) from None
    except RecursionError:
        raise ScenarioError("", ["not valid YAML (nested too deep)"]) from None
    finally:
        if loader is not None:
            loader.dispose()


_PART = re.compile(r"([^.\[\]]+)|\[([0-9]+)\]")


def _with_line(problem: str, data: Any, loader: _LineLoader) -> str:
    """`states.a.on[0].to: ...` with the line of the deepest key (or item) it names in front."""
    node, line = data, loader.lines.get(id(data))
    for key, index in _PART.findall(problem.split(":", 1)[0]):
        if isinstance(node, Mapping) and key and key in node:
            line = loader.key_lines.get((id(node), key), line)
            node = node[key]
        elif isinstance(node, list) and index and int(index) < len(node):
            node = node[int(index)]
        else:
            break
        line = loader.lines.get(id(node), line) if not isinstance(node, (str, int)) else line
    return f"line {line}: {problem}" if line is not None else problem


def _parse(data: Any, operations: Mapping[str, bool], statuses: Statuses | None,
           loader: _LineLoader | None) -> Scenario:  # fmt: skip
    """The scenario, or `FaultRuleError` listing every problem (with lines when known).
    Without `statuses` any status 100-599 is taken as documented."""
    if not isinstance(data, Mapping):
        raise FaultRuleError("the scenario must be a mapping with a `rules` list")
    problems = list(loader.duplicates) if loader else []
    unknown = sorted(map(str, set(data) - set(TOP_LEVEL)))
    problems.extend(f"{name}: unknown field (expected {', '.join(TOP_LEVEL)})" for name in unknown)
    without_rules = "states" in data or "report_outcomes" in data
    rules = data.get("rules", [] if without_rules else None)
    parsed: list[FaultRule] = []
    found: list[str] = []
    if not isinstance(rules, list) or not (rules or without_rules):
        found.append("rules: must be a non-empty list of fault rules")
        rules = []
    outcomes, outcome_problems = (
        parse_report_outcomes(data["report_outcomes"]) if "report_outcomes" in data else ((), [])
    )
    found.extend(outcome_problems)
    for index, rule in enumerate(rules):
        try:
            parsed.append(parse_rule(rule, f"rules[{index}]", operations))
        except FaultRuleError as error:
            found.extend(error.problems)
    every = statuses or {key: frozenset(range(100, 600)) for key in operations}
    machine, state_problems = parse_states(
        data, lambda raw, where: parse_rule(raw, where, operations), every
    )
    found.extend(state_problems)
    states = machine.states.values() if machine else ()
    if (count := len(rules) + sum(len(state.rules) for state in states)) > MAX_RULES:
        found.append(f"rules: {count} rules; a scenario holds at most {MAX_RULES}")
    problems.extend(_with_line(problem, data, loader) if loader else problem for problem in found)
    if problems:
        raise FaultRuleError("; ".join(problems), problems)
    name, description = str(data.get("name", "")), str(data.get("description", ""))
    return Scenario(name, description, tuple(parsed), machine, outcomes)


def parse_scenario(
    data: Any, operations: Mapping[str, bool], statuses: Statuses | None = None
) -> Scenario:
    """A scenario from already loaded data (a mapping); `FaultRuleError` lists every problem."""
    return _parse(data, operations, statuses, None)


def parse_scenario_text(
    text: str,
    operations: Mapping[str, bool],
    source: str = "scenario",
    statuses: Statuses | None = None,
) -> Scenario:
    try:
        data, loader = _load_yaml(text)
        return _parse(data, operations, statuses, loader)
    except ScenarioError as error:
        raise ScenarioError(source, error.problems) from None
    except FaultRuleError as error:
        raise ScenarioError(source, error.problems) from None


def load_scenario(
    path: Path, operations: Mapping[str, bool], statuses: Statuses | None = None
) -> Scenario:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ScenarioError(str(path), [f"cannot read ({error.strerror})"]) from None
    except UnicodeDecodeError:
        raise ScenarioError(str(path), ["cannot read (not UTF-8 text)"]) from None
    return parse_scenario_text(text, operations, str(path), statuses)


def names_a_file(text: str) -> bool:
    """Whether a `str` given as a scenario is a path rather than YAML text.

    A path: a single line that ends in `.yaml`/`.yml` or names an existing file. Anything
    else is YAML text (a block-style scenario has several lines; a one-line flow-style
    `{rules: [...]}` ends in a bracket, not a suffix). Bias: a `str` that looks like a
    path is read as one, so a missing file is said, never parsed as a YAML string.
    """
    if "\n" in text or not text.strip():
        return False
    return text.strip().lower().endswith(SCENARIO_SUFFIXES) or Path(text).is_file()


def read_scenario(
    source: Scenario | Path | str, operations: Mapping[str, bool], statuses: Statuses | None = None
) -> Scenario:
    """A parsed scenario from what a caller holds: a `Scenario`, a `Path`, a `str` that
    names a file (see `names_a_file`) or YAML text."""
    if isinstance(source, Scenario):
        return source
    if isinstance(source, Path) or names_a_file(source):
        return load_scenario(Path(source), operations, statuses)
    return parse_scenario_text(source, operations, statuses=statuses)
