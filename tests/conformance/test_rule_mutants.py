"""Every rule family has realistic mutants of the simulator, and `verify` catches each one,
naming exactly the checks the bug breaks; the simulator behind a neutral proxy passes.

Each mutant is a fresh, small, seeded simulator behind one `broken.Wrapper` subclass (the
base class itself is the neutral proxy), and the kit runs in-process against it with its
default settings (a 3 s idempotent retry delay) and a fake clock for the wait, so the table
stays fast and never sleeps for real. The kit's requests reach the mutant without a socket
(`in_process.InProcessTransport`, the scope uvicorn would build); the `verify` CLI tests at
the end go over loopback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from billing_toolkit.conformance.cli import main
from billing_toolkit.conformance.outcome import Status
from billing_toolkit.conformance.probes.related import MAX_ACCOUNTS
from billing_toolkit.conformance.runner import CHECK_NAMES, RunReport, run_kit
from billing_toolkit.conformance.settings import build_settings
from billing_toolkit.contract.rules import load_rules
from tests.conformance import broken
from tests.conformance.conftest import OPTIONS, in_process_simulator, running_simulator

pytestmark = OPTIONS
PROJECT_CHECKS = ",".join(sorted(CHECK_NAMES - {"schemathesis"}))
# Needs a 429 or 503, which no mutant run provokes (test_against_simulator covers it).
NOT_PROVOKED = {"retry_after"}


def run_against(mutant: type[broken.Wrapper]) -> RunReport:
    made: list[broken.Wrapper] = []

    def wrap(app: Any, key: str) -> broken.Wrapper:
        made.append(mutant(app, key))
        return made[-1]

    with in_process_simulator(wrap) as target:
        settings = build_settings(
            target.kit_values(checks=PROJECT_CHECKS), known_checks=CHECK_NAMES
        )
        clock = getattr(made[0], "clock", broken.FakeClock())
        return run_kit(settings, sleep=clock.sleep, transport=target.transport)


def failed(report: RunReport) -> set[str]:
    return {o.name for o in report.outcomes if o.status is Status.FAILED}


def test_the_simulator_behind_a_neutral_proxy_passes_every_rule() -> None:
    report = run_against(broken.Wrapper)
    not_passed = {o.name: o.summary for o in report.outcomes if o.status is not Status.PASSED}
    assert set(not_passed) <= NOT_PROVOKED, not_passed
    rules = {o.name: o for o in report.outcomes if o.name in load_rules()}
    assert set(rules) == set(load_rules())
    assert all(o.inspected > 0 for o in rules.values())
    retention = rules["idempotency.retention"].summary
    assert "3 s later" in retention and "24 h" in retention


@pytest.mark.parametrize("mutant", list(broken.MUTANTS), ids=lambda m: m.__name__)
def test_verify_catches_the_mutant_with_exactly_the_checks_it_breaks(
    mutant: type[broken.Wrapper],
) -> None:
    family, expected = broken.MUTANTS[mutant]
    report = run_against(mutant)
    assert failed(report) == expected
    assert any(name.split(".")[0] == family for name in expected)
    for name in expected:
        outcome = next(o for o in report.outcomes if o.name == name)
        assert outcome.first_violation is not None
        assert outcome.first_violation.exchange is not None, name


def test_every_rule_family_has_a_mutant_that_a_rule_of_the_family_catches() -> None:
    families = {rule.family for rule in load_rules().values()}
    caught = {
        name.split(".")[0]
        for family, expected in broken.MUTANTS.values()
        for name in expected
        if "." in name and name.split(".")[0] == family
    }
    assert families <= caught


@pytest.mark.parametrize(
    "checks",
    ["idempotency", "idempotency.concurrency,idempotency.replay", "idempotency,idempotency.replay"],
    ids=["scenario-only", "probe-only", "scenario-and-probe"],
)
def test_a_writing_run_books_exactly_one_payment_of_the_amount(checks: str) -> None:
    # Issue 14: the scenario and the probe share the run's one payment, whichever runs.
    with in_process_simulator(broken.Wrapper) as target:
        settings = build_settings(target.kit_values(checks=checks), known_checks=CHECK_NAMES)
        booked_before = target.control.info()["tenants"][0]["payments"]
        report = run_kit(settings, sleep=broken.FakeClock().sleep, transport=target.transport)
        booked = target.control.info()["tenants"][0]["payments"] - booked_before
    assert booked == 1
    assert [(w.operation_id, w.amount) for w in report.writes] == [
        ("createPayment", settings.payment_amount)
    ]
    assert {o.name: o.status for o in report.outcomes} == dict.fromkeys(
        checks.split(","), Status.PASSED
    )


def test_a_read_only_run_skips_the_writing_rules_and_says_why() -> None:
    with in_process_simulator(broken.Wrapper) as target:
        settings = build_settings(
            target.kit_values(checks=PROJECT_CHECKS, allow_writes=False, other_tenant_key=None),
            known_checks=CHECK_NAMES,
        )
        report = run_kit(settings, sleep=broken.FakeClock().sleep, transport=target.transport)
    skipped = {o.name: o.summary for o in report.outcomes if o.status is Status.SKIPPED}
    assert "--allow-writes" in skipped["idempotency.concurrency"]
    assert "--allow-writes" in skipped["currency.payment"]
    assert failed(report) == set()
    assert report.count(Status.FAILED) == 0 and "tenancy" in skipped


def verify_cli(mutant: type[broken.Wrapper], tmp_path: Path, *args: str) -> tuple[int, Path, str]:
    """`billing-contract verify` in-process against the mutant: (exit, JUnit file, report)."""
    junit, markdown = tmp_path / "out.xml", tmp_path / "out.md"
    with running_simulator(mutant) as target:
        code = main([
            "verify", "--base-url", target.base_url, "--api-key", target.api_key,
            "--account-number", target.account_number, "--junit-xml", str(junit),
            "--report", str(markdown), *args,
        ])  # fmt: skip
    return code, junit, markdown.read_text()


def test_a_tenant_without_credit_leaves_the_credit_rule_not_exercised(tmp_path: Path) -> None:
    report = run_against(broken.CreditHidden)
    net = next(o for o in report.outcomes if o.name == "balance.net")
    assert net.status is Status.NOT_EXERCISED and "no balance with a credit" in net.summary
    assert f"among the {MAX_ACCOUNTS + 1} accounts read" in net.summary  # searched to the bound
    assert failed(report) == set()
    code, junit, markdown = verify_cli(
        broken.CreditHidden, tmp_path, "--checks", "balance.net", "--require-all-rules"
    )
    case = ElementTree.parse(junit).getroot().find(".//testcase[@name='balance.net']")
    assert code == 1
    assert case is not None and case.find("failure[@type='not-exercised']") is not None
    assert "| balance.net | not exercised |" in markdown and "conformance: FAILED" in markdown


def test_without_require_all_rules_a_rule_not_exercised_does_not_fail_the_run(
    tmp_path: Path,
) -> None:
    code, junit, _ = verify_cli(broken.CreditHidden, tmp_path, "--checks", "balance.net")
    case = ElementTree.parse(junit).getroot().find(".//testcase[@name='balance.net']")
    assert code == 0
    assert case is not None and case.find("skipped[@type='not-exercised']") is not None


def test_a_required_field_missing_on_the_first_call_is_a_failed_check_not_a_foreign_api(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, junit, markdown = verify_cli(
        broken.CustomerWithoutCurrency, tmp_path, "--checks", "schema.response,money"
    )
    assert code == 1
    assert "does not look like the billing API" not in capsys.readouterr().err
    case = ElementTree.parse(junit).getroot().find(".//testcase[@name='schema.response']")
    failure = case.find("failure") if case is not None else None
    assert failure is not None and '"currency" is a required property' in failure.get("message", "")
    assert "## schema.response" in markdown
