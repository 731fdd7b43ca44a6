"""The vocabulary of a contract diff: severities, rules and the changes they report.

A rule is data (id, kind, severity, a one-line summary) plus a pure function comparing an
old and a new subject (two contracts, two operations or two schema nodes) and yielding hits.
The rule decides *whether* something changed and what it means; where it happened is said by
whoever walked to the subject. One rule has one severity, so a reader can grep an id and know
how bad it is (oasdiff's convention: `response-required-property-removed` is an error,
`response-optional-property-removed` a warning).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

Subject = TypeVar("Subject")


class Severity(Enum):
    """How bad a change is for a client or an implementation written against the old contract.

    `error` breaks one of them; `warning` may break one and needs a person's look; `info` is
    worth a changelog line and breaks nobody."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """Higher is worse: info 0, warning 1, error 2."""
        return {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}[self]

    def at_least(self, threshold: Severity) -> bool:
        return self.rank >= threshold.rank


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """What a rule is called and how bad what it finds is (the catalogue the README lists)."""

    id: str
    kind: str
    """The family of change: `removed`, `became-required`, `type-changed`, `auth-added`..."""
    severity: Severity
    summary: str


@dataclass(frozen=True, slots=True)
class Hit:
    """One finding of a rule: where under its subject (may be empty) and what changed."""

    where: str
    message: str


@dataclass(frozen=True, slots=True)
class Rule(RuleInfo, Generic[Subject]):
    """A rule and its pure check over an (old, new) pair of subjects."""

    check: Callable[[Subject, Subject], Iterable[Hit]]


@dataclass(frozen=True, slots=True)
class Change:
    """One reported change: the rule that found it, where, and what it means."""

    rule: str
    kind: str
    severity: Severity
    operation: str | None
    """The operationId (in the new contract when it still exists), None for contract-wide."""
    location: str
    message: str
    announced: bool = False
    """A breaking change the major version bump announces (reported as a warning)."""

    @property
    def sort_key(self) -> tuple[int, str, str, str, str]:
        """Worst first, then by operation, location and rule: the same diff reads the same."""
        return (-self.severity.rank, self.operation or "", self.location, self.rule, self.message)


def change(rule: RuleInfo, hit: Hit, operation: str | None) -> Change:
    """The change `hit` of a contract or operation rule reports (its `where` is the place)."""
    return Change(rule.id, rule.kind, rule.severity, operation, hit.where, hit.message)


def schema_change(rule: RuleInfo, hit: Hit, operation: str, site: str, path: str) -> Change:
    """The change `hit` of a schema rule reports: `site` is the parameter, body or response
    the schema belongs to, `path` the way down to the node, the hit's `where` a property of it
    (`response 200 application/json: data[].amount`)."""
    full = ".".join(part for part in (path, hit.where) if part)
    location = f"{site}: {full}" if full else site
    return Change(rule.id, rule.kind, rule.severity, operation, location, hit.message)
