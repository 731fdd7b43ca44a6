"""Semantic versioning of the contract: a breaking change needs a major version bump.

`info.version` is how the contract announces a break. When the new version's major number is
above the old one's, every `error` change is *announced*: it stays in the report, as a
`warning` naming the bump, so CI on `--fail-on error` passes a deliberate major release. When
it is not (same major, a minor bump, a version that is not `MAJOR.MINOR[.PATCH]`), one more
`error` says so. Bias: a version we cannot read counts as no bump.
"""

from __future__ import annotations

import re
from dataclasses import replace

from billing_toolkit.conformance.diff.changes import Change, RuleInfo, Severity

_SEMVER = re.compile(r"^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+].*)?$")

UNANNOUNCED = RuleInfo(
    "breaking-change-without-major-bump",
    "version",
    Severity.ERROR,
    "The contract has breaking changes but info.version's major number did not go up.",
)
VERSION_DECREASED = RuleInfo(
    "version-decreased",
    "version",
    Severity.WARNING,
    "info.version went down (the old document may be the newer one: check the argument order).",
)
VERSION_RULES = (UNANNOUNCED, VERSION_DECREASED)


def parse_version(text: object) -> tuple[int, int, int] | None:
    """`1.4.2` → (1, 4, 2); `2.0` → (2, 0, 0); None when it is not a semantic version."""
    found = _SEMVER.match(str(text).strip()) if text is not None else None
    if found is None:
        return None
    return int(found[1]), int(found[2]), int(found[3] or 0)


def apply_version_policy(
    old_version: object, new_version: object, changes: list[Change]
) -> list[Change]:
    """`changes` with breaking ones announced by a major bump, or one more error if not."""
    before, after = parse_version(old_version), parse_version(new_version)
    result = list(changes)
    if before is not None and after is not None and after < before:
        result.append(
            Change(VERSION_DECREASED.id, VERSION_DECREASED.kind, VERSION_DECREASED.severity, None,
                   "info.version", f"info.version went down: {old_version} → {new_version}")
        )  # fmt: skip
    breaking = [item for item in result if item.severity is Severity.ERROR]
    if not breaking:
        return result
    if before is not None and after is not None and after[0] > before[0]:
        note = f" (announced by the major version bump {old_version} → {new_version})"
        return [
            replace(item, severity=Severity.WARNING, announced=True, message=item.message + note)
            if item.severity is Severity.ERROR
            else item
            for item in result
        ]
    target = f"{before[0] + 1}.0.0" if before is not None else "a new major version"
    result.append(
        Change(
            UNANNOUNCED.id, UNANNOUNCED.kind, UNANNOUNCED.severity, None, "info.version",
            f"{len(breaking)} breaking change(s) but info.version went {old_version} → "
            f"{new_version}: bump it to {target} or undo them",
        )
    )  # fmt: skip
    return result
