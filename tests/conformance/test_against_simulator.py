"""The kit passes the reference simulator and fails each deliberately broken implementation
with the right check named."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import httpx
import pytest

from billing_toolkit.conformance.cli import main
from billing_toolkit.conformance.outcome import Status
from billing_toolkit.conformance.runner import CHECK_NAMES, RunReport, run_kit
from billing_toolkit.conformance.settings import build_settings
from billing_toolkit.contract.masking import hide
from tests.conformance import broken
from tests.conformance.conftest import OPTIONS, Target, running_simulator

pytestmark = OPTIONS
PROJECT_CHECKS = ",".join(sorted(CHECK_NAMES - {"schemathesis"}))
CLI_DEADLINE_S = 180


def run_cli(target: Target, *args: str) -> tuple[int, str]:
    """`billing-contract verify` in its own process, keys from the environment as in CI.

    A separate process also keeps the kit from competing with the in-process server for
    the interpreter lock, which makes the schemathesis runs several times faster.
    """
    env = {
        **os.environ,
        "BILLING_API_KEY": target.api_key,
        "BILLING_OTHER_API_KEY": target.other_tenant_key,
        "COLUMNS": "200",
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "billing_toolkit.conformance.cli",
            "verify",
            "--base-url",
            target.base_url,
            *args,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=CLI_DEADLINE_S,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout


def failed(report: RunReport) -> set[str]:
    return {o.name for o in report.outcomes if o.status is Status.FAILED}


def payments_of(target: Target) -> list[dict[str, Any]]:
    """Every payment of the test account, read through the API (all pages)."""
    found: list[dict[str, Any]] = []
    params: dict[str, str] = {"limit": "100"}
    headers = {"Authorization": f"Bearer {target.api_key}"}
    url = f"{target.base_url}/v1/customers/{target.account_number}/payments"
    for _ in range(100):
        page = httpx.get(url, params=params, headers=headers, timeout=10).json()
        found.extend(page["data"])
        if not page.get("next_cursor"):
            return found
        params["cursor"] = page["next_cursor"]
    raise AssertionError("the payments listing did not end")


def test_simulator_passes_every_check_through_the_cli(simulator: Target, tmp_path: Path) -> None:
    # The first readiness probe answers 503, so retry_after has a response to judge.
    simulator.control.faults.add("http_503", operation="getReadiness", times=1)
    payments_before = payments_of(simulator)
    junit, report = tmp_path / "conformance.xml", tmp_path / "conformance.json"
    code, out = run_cli(
        simulator, "--customer-phone", simulator.customer_phone, "--allow-writes",
        "--max-examples", "3", "--junit-xml", str(junit), "--report", str(report),
    )  # fmt: skip
    document = json.loads(report.read_text())
    not_passed = [c for c in document["checks"] if c["status"] != "passed"]
    assert not_passed == [], out
    assert code == 0
    assert set(document["schemathesis_phases"]) == {"examples", "coverage", "fuzzing", "stateful"}
    names = {c["name"] for c in document["checks"]}
    assert CHECK_NAMES - {"schemathesis"} <= names
    assert {"schemathesis.response_schema_conformance", "schemathesis.not_a_server_error"} <= names
    suite = ElementTree.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "0" and suite.get("skipped") == "0"
    assert "writes allowed" in out
    assert simulator.api_key not in out + report.read_text() + junit.read_text()
    # --allow-writes makes the one documented payment (shared by the idempotency scenario
    # and probe), and schemathesis posts nothing.
    new = [p for p in payments_of(simulator) if p not in payments_before]
    assert [p["amount"] for p in new] == ["1.00"]
    currency = new[0]["currency"]
    write = {
        "operation": "createPayment",
        "account": hide(simulator.account_number),
        "amount": "1.00",
        "currency": currency,
        "status": 201,
    }
    # ... and the report probe records two payment reports (its replay stores nothing new)
    report_write = {**write, "operation": "createPaymentReport", "currency": "VES"}
    assert document["writes"] == [write, report_write, report_write]
    assert document["writes_total"] == (
        {currency: "1.00", "VES": "2.00"} if currency == "USD" else {"VES": "3.00"}
    )
    assert f"createPayment {hide(simulator.account_number)} {currency} 1.00" in out


def test_fuzz_writes_need_their_own_flag_and_every_one_is_reported(
    simulator: Target, tmp_path: Path
) -> None:
    before = payments_of(simulator)
    report = tmp_path / "fuzz.json"
    code, out = run_cli(
        simulator, "--account-number", simulator.account_number, "--allow-writes",
        "--allow-fuzz-writes", "--checks", "schemathesis,idempotency", "--max-examples", "3",
        "--report", str(report),
    )  # fmt: skip
    document = json.loads(report.read_text())
    new = [p for p in payments_of(simulator) if p not in before]
    assert code in (0, 1) and len(new) > 1, out  # schemathesis posted generated payments too
    paid = [w for w in document["writes"] if w["operation"] == "createPayment"]
    assert len(paid) == len(new)
    assert sum((Decimal(w["amount"]) for w in paid), Decimal(0)) == sum(
        (Decimal(p["amount"]) for p in new), Decimal(0)
    )
    written: dict[str, Decimal] = {}
    for w in document["writes"]:  # payments and payment reports, per currency
        written[w["currency"]] = written.get(w["currency"], Decimal(0)) + Decimal(w["amount"])
    assert {c: Decimal(v) for c, v in document["writes_total"].items()} == written


# The mutants the kit's own checks and rules catch are in test_rule_mutants.py.
@pytest.mark.parametrize("wrapper", list(broken.SCHEMA_BROKEN), ids=lambda w: w.__name__)
def test_broken_schema_fails_the_schema_checks(
    wrapper: type[broken.Wrapper], tmp_path: Path
) -> None:
    expected = broken.SCHEMA_BROKEN[wrapper]
    report = tmp_path / "report.json"
    with running_simulator(wrapper) as target:
        code, _ = run_cli(
            target, "--account-number", target.account_number, "--allow-writes",
            "--max-examples", "3", "--report", str(report),
        )  # fmt: skip
    checks = json.loads(report.read_text())["checks"]
    assert code == 1
    assert {c["name"] for c in checks if c["status"] == "failed"} == expected
    for failing in (c for c in checks if c["name"] in expected):
        assert (
            failing["reproduce"].startswith("curl ")
            and "${BILLING_API_KEY}" in failing["reproduce"]
        )


def test_missing_retry_after_fails_retry_after() -> None:
    with running_simulator(broken.OmitsRetryAfter) as target:
        target.control.faults.add("http_503", operation="getReadiness", times=1)
        target.control.faults.add("http_429", operation="listPlans", times=1)
        settings = build_settings(
            target.kit_values(checks="retry_after,problem_json", rate_limit_probe=1),
            known_checks=CHECK_NAMES,
        )
        report = run_kit(settings)
    retry_after = next(o for o in report.outcomes if o.name == "retry_after")
    assert failed(report) == {"retry_after"}
    assert retry_after.inspected == 2


def test_read_only_run_writes_nothing_and_says_idempotency_was_skipped(simulator: Target) -> None:
    payments_before = [t["payments"] for t in simulator.control.info()["tenants"]]
    settings = build_settings(
        simulator.kit_values(allow_writes=False, checks=PROJECT_CHECKS), known_checks=CHECK_NAMES
    )
    report = run_kit(settings)
    idempotency = next(o for o in report.outcomes if o.name == "idempotency")
    assert idempotency.status is Status.SKIPPED and "--allow-writes" in idempotency.summary
    assert failed(report) == set()
    assert [t["payments"] for t in simulator.control.info()["tenants"]] == payments_before


def test_cli_failure_names_the_check_and_prints_a_curl_without_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with running_simulator(broken.ReturnsNeighbour) as target:
        junit, report = tmp_path / "out.xml", tmp_path / "out.md"
        code = main([
            "verify", "--base-url", target.base_url, "--api-key", target.api_key,
            "--account-number", target.account_number, "--checks", "exact_lookup,money",
            "--junit-xml", str(junit), "--report", str(report),
        ])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 1
    case = ElementTree.parse(junit).getroot().find(".//testcase[@name='exact_lookup']")
    assert case is not None
    failure = case.find("failure")
    assert failure is not None and failure.text is not None
    assert '"Authorization: Bearer ${BILLING_API_KEY}"' in failure.text
    assert f"{target.base_url}/v1/invoices/INV-" in failure.text
    markdown = report.read_text()
    assert "# Billing contract conformance: FAILED" in markdown and "## exact_lookup" in markdown
    assert target.api_key not in out + markdown + junit.read_text()
