"""The repository's own contract against its last released version, as CI runs it: an
unannounced breaking change (no major version bump) fails the suite."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from billing_toolkit.conformance.diff import Severity, diff_contracts, load_for_diff
from billing_toolkit.contract.document import load
from billing_toolkit.contract.operations import Contract, contract_from_document
from billing_toolkit.contract.paths import CONTRACT_DIR, OPENAPI_PATH

RELEASED_DIR = CONTRACT_DIR / "released"


def released_path() -> Path:
    """The newest kept release (`openapi-<version>.yaml`), by semantic version."""
    versions = sorted(
        RELEASED_DIR.glob("openapi-*.yaml"),
        key=lambda path: tuple(int(part) for part in path.stem.removeprefix("openapi-").split(".")),
    )
    assert versions, f"no released contract kept in {RELEASED_DIR}"
    return versions[-1]


@pytest.fixture(scope="module")
def released() -> Contract:
    return load_for_diff("OLD", released_path())


def test_released_copy_is_named_for_its_version(released: Contract) -> None:
    assert released.document["info"]["version"] == released_path().stem.removeprefix("openapi-")


def test_contract_has_no_unannounced_breaking_change(released: Contract) -> None:
    report = diff_contracts(released, load_for_diff("NEW", OPENAPI_PATH))
    errors = [f"{c.rule} {c.operation or ''} {c.location}: {c.message}" for c in report.changes
              if c.severity is Severity.ERROR]  # fmt: skip
    assert errors == [], (
        "contract/openapi.yaml breaks clients of the released contract; undo the change or bump"
        " info.version's major number:\n" + "\n".join(errors)
    )


def _current_without(operation_id: str, version: str | None = None) -> Contract:
    document = copy.deepcopy(load(OPENAPI_PATH))
    for item in document["paths"].values():
        for method in [
            m
            for m, op in item.items()
            if isinstance(op, dict) and op.get("operationId") == operation_id
        ]:
            del item[method]
    if version is not None:
        document["info"]["version"] = version
    return contract_from_document(document, Path("proposed.yaml"))


def test_removing_an_operation_without_a_major_bump_fails(released: Contract) -> None:
    report = diff_contracts(released, _current_without("createPayment"))
    rules = {c.rule for c in report.changes if c.severity is Severity.ERROR}
    assert rules == {"operation-removed", "breaking-change-without-major-bump"}
    assert report.fails(Severity.ERROR)


def test_removing_an_operation_with_a_major_bump_is_announced(released: Contract) -> None:
    major = int(str(released.document["info"]["version"]).split(".")[0]) + 1
    report = diff_contracts(released, _current_without("createPayment", f"{major}.0.0"))
    assert not report.fails(Severity.ERROR)
    assert [c.rule for c in report.changes if c.announced] == ["operation-removed"]


def test_release_1_1_adds_and_its_own_changes_are_info() -> None:
    """1.0.0 → 1.1.0 (issue 27): new operations and the rules about their records are
    `info`; what warns is only the rules the 1.0.0 copy was released without (cut before
    the contract carried `x-business-rules`), never anything about rates or reports."""
    report = diff_contracts(
        load_for_diff("OLD", RELEASED_DIR / "openapi-1.0.0.yaml"),
        load_for_diff("NEW", RELEASED_DIR / "openapi-1.1.0.yaml"),
    )
    new_things = ("exchange_rate.", "payment_report.", "Rate", "Report")
    worse = [c for c in report.changes if c.severity is not Severity.INFO]
    assert {c.rule for c in worse} == {"business-rule-added"}
    assert [c.location for c in worse if any(word in c.location for word in new_things)] == []
    added = {c.message for c in report.changes if c.rule == "operation-added"}
    assert len(added) == 4 and all("Report" in m or "ExchangeRate" in m for m in added)
