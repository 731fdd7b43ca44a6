"""The operator's profile: whose knowledge base this is and which identifiers it may quote.

The identifier guard lets a reply name only identifiers the subscriber is entitled to. Policy
articles quote two other kinds, and a policy answer must be able to repeat them: the
operator's own public identifiers (its RIF, its Pago Móvil phone) and format examples ("an
account number has 10 digits, for example 1000000123"). Both are listed in a small file
shipped beside the articles (`assistant/knowledge/operator.yaml`) rather than in the pipeline,
so the operator who edits the articles edits the list too; a test checks that every
identifier in the articles is listed. Examples are chosen outside every range the billing
system issues, so repeating one can never disclose a real subscriber's record.

Bias: an entry that is not a well-formed identifier is an error at start-up, never skipped
— a silently dropped entry would turn every answer quoting it into an escalation.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from billing_toolkit.assistant.knowledge import KNOWLEDGE_DIR
from billing_toolkit.assistant.text.identifiers import find_identifiers

OPERATOR_PROFILE = KNOWLEDGE_DIR / "operator.yaml"


class OperatorProfileError(ValueError):
    """The profile file is missing, unreadable or lists something that is not an identifier."""


@dataclass(frozen=True, slots=True)
class OperatorProfile:
    tenant: str
    name: str
    operator_identifiers: tuple[str, ...]
    format_examples: tuple[str, ...]

    @property
    def quotable_identifiers(self) -> tuple[str, ...]:
        """Every identifier a policy answer may repeat to any subscriber."""
        return self.operator_identifiers + self.format_examples


def _identifiers(raw: Any, field: str, path: Path) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        raise OperatorProfileError(f"{path}: {field} must be a list of strings")
    for item in raw:
        found = find_identifiers(item)
        if len(found) != 1 or not found[0].valid or found[0].literal != item.strip():
            raise OperatorProfileError(
                f"{path}: {field} entry {item!r} is not one well-formed identifier"
            )
    return tuple(raw)


def load_operator_profile(path: Path = OPERATOR_PROFILE) -> OperatorProfile:
    """Read and validate the profile; raises OperatorProfileError naming the problem.

    Parsed once per version of the file (its modification time and size): an assistant is
    built per conversation by the evaluation and per session by the commands, and reading
    the YAML again each time cost more than building the rest of the assistant. An edited
    file is read again."""
    try:
        version = path.stat()
    except OSError as exc:
        raise OperatorProfileError(f"cannot read the operator profile {path}: {exc}") from exc
    return _parsed(path, version.st_mtime_ns, version.st_size)


@lru_cache(maxsize=8)
def _parsed(path: Path, mtime_ns: int, size: int) -> OperatorProfile:
    """The profile at `path` in the version `mtime_ns`/`size` name (they key the cache)."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise OperatorProfileError(f"cannot read the operator profile {path}: {exc}") from exc
    if not isinstance(raw, dict) or not isinstance(raw.get("tenant"), str):
        raise OperatorProfileError(f"{path}: expected a mapping with a 'tenant' name")
    return OperatorProfile(
        tenant=raw["tenant"],
        name=str(raw.get("name") or raw["tenant"]),
        operator_identifiers=_identifiers(
            raw.get("operator_identifiers", []), "operator_identifiers", path
        ),
        format_examples=_identifiers(raw.get("format_examples", []), "format_examples", path),
    )
