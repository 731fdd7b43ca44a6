"""#27 for QA: the verification delay as a `serve` setting, and scenarios that force the
verdict of a payment report's reference (through the admin API, validated whole).

In-process on the test clock; a report is made through the public API and read back from
it, so what is asserted is what a client sees.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette

from billing_toolkit.contract import OPENAPI_PATH
from billing_toolkit.simulator import cli, control_of
from billing_toolkit.simulator.state.report_verification import REJECTION_REASONS
from tests.simulator.conftest import ADMIN, Sim, small_config
from tests.simulator.test_payment_reports import (
    entries,
    of_entry,
    report,
    status_of,
    usd_account,
)

SHIPPED = Path(cli.__file__).with_name("scenarios") / "report-outcomes.yaml"
YAML = {**ADMIN, "Content-Type": "application/yaml"}


def load(sim: Sim, text: str, replace: bool = False) -> Any:
    query = "?replace=true" if replace else ""
    return sim.client.post(f"/_sim/scenarios{query}", headers=YAML, content=text.encode())


def forced(*lines: str, name: str = "forced") -> str:
    return f"name: {name}\nreport_outcomes:\n" + "".join(f"  - {line}\n" for line in lines)


def verdict(sim: Sim, report_id: str) -> tuple[str, str | None]:
    found = status_of(sim, report_id)
    return found["status"], found["rejection_reason"]


# --- the verification delay as a setting ---------------------------------------------------


def test_serve_passes_the_delay_to_the_store(monkeypatch: pytest.MonkeyPatch) -> None:
    served: list[Starlette] = []

    class Server:
        def __init__(self, app: Starlette, *_: object) -> None:
            served.append(app)

        def run(self) -> None:
            pass

    monkeypatch.setattr("billing_toolkit.simulator.server.simulator_server", Server)
    monkeypatch.setattr("billing_toolkit.simulator.logs.configure_logging", lambda *_, **__: None)
    argv = ["serve", "--port", "0", "--customers", "12", "--report-verification-delay", "7200"]
    assert cli.main(argv) == 0
    assert control_of(served[0]).store.verification_delay == timedelta(hours=2)


def test_the_delay_defaults_to_thirty_minutes_and_is_in_the_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli._parser().parse_args(["serve"]).report_verification_delay == 1800
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    assert "--report-verification-delay SECONDS" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("value", "message"),
    [("-1", "-1 is not between 0 and 2592000"), ("2592001", "2592001 is not between"),
     ("30m", "'30m' is not a whole number"), ("1e3", "'1e3' is not a whole number")],
)  # fmt: skip
def test_a_bad_delay_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], value: str, message: str
) -> None:
    with pytest.raises(SystemExit) as ended:
        cli.main(["serve", "--report-verification-delay", value])
    err = capsys.readouterr().err
    assert ended.value.code == 2 and err.count("\n") == 1 and message in err
    assert "--report-verification-delay" in err and "Traceback" not in err


def test_a_report_is_verified_after_the_configured_delay_and_not_before() -> None:
    sim = Sim(small_config(report_verification_delay=timedelta(hours=2)))
    with sim.client:
        entry = entries(sim, "pago_movil")[0]
        made = report(sim, usd_account(sim), "delay-key-0001", **of_entry(entry)).json()
        sim.control.clock.advance(minutes=119)
        assert verdict(sim, made["report_id"]) == ("pending_verification", None)
        sim.control.clock.advance(minutes=1)
        assert verdict(sim, made["report_id"]) == ("verified", None)


# --- scenarios force an outcome ------------------------------------------------------------


def test_the_shipped_scenario_verifies_one_reference_and_rejects_the_other(sim: Sim) -> None:
    assert load(sim, SHIPPED.read_text(encoding="utf-8")).status_code == 201
    account = usd_account(sim)
    balance = sim.get(f"/v1/customers/{account}/balance").json()
    verified = report(sim, account, "forced-key-0001").json()  # 0045127: on no statement
    rejected = report(sim, account, "forced-key-0002", reference="0045128").json()
    sim.control.clock.advance(minutes=29)
    assert verdict(sim, verified["report_id"]) == ("pending_verification", None)
    sim.control.clock.advance(minutes=1)
    assert verdict(sim, verified["report_id"]) == ("verified", None)
    assert verdict(sim, rejected["report_id"]) == ("rejected", "amount_mismatch")
    booked = status_of(sim, verified["report_id"])
    (payment,) = sim.get(f"/v1/customers/{account}/payments?limit=1").json()["data"]
    assert (payment["payment_id"], payment["amount"]) == (
        booked["payment_id"],
        booked["credited_amount"],
    )
    after = sim.get(f"/v1/customers/{account}/balance").json()
    assert after["net_balance"] != balance["net_balance"]
    assert status_of(sim, rejected["report_id"])["payment_id"] is None


def test_a_forced_verification_is_booked_exactly_as_create_payment_books(sim: Sim) -> None:
    twin = Sim(small_config())
    with twin.client:
        assert (
            load(
                sim, forced('{tenant: fibranet, reference: "0045127", outcome: verified}')
            ).status_code
            == 201
        )
        account = usd_account(sim)
        made = report(sim, account, "forced-key-0003").json()
        sim.control.clock.advance(minutes=30)
        booked = status_of(sim, made["report_id"])
        twin.control.clock.advance(minutes=30)
        expected = twin.pay(account, "twin-payment-9", amount=booked["credited_amount"]).json()
        (payment,) = sim.get(f"/v1/customers/{account}/payments?limit=1").json()["data"]
        assert {k: payment[k] for k in ("amount", "allocations", "unapplied_amount")} == {
            k: expected[k] for k in ("amount", "allocations", "unapplied_amount")
        }
        assert (
            sim.get(f"/v1/customers/{account}/balance").json()
            == twin.get(f"/v1/customers/{account}/balance").json()
        )


def test_a_forced_verification_is_claimed_once_and_keeps_the_currency_rule(sim: Sim) -> None:
    scenario = forced(
        '{tenant: fibranet, reference: "0045127", outcome: verified}',
        '{tenant: fibranet, reference: "Z000000001", outcome: verified}',
    )
    assert load(sim, scenario).status_code == 201
    account = usd_account(sim)
    first = report(sim, account, "forced-key-0004").json()
    again = report(sim, account, "forced-key-0005", bank="0102").json()  # another bank
    zelle = report(sim, account, "forced-key-0006", method="zelle", bank=None,
                   reference="Z000000001").json()  # fmt: skip
    sim.control.clock.advance(minutes=30)
    assert verdict(sim, first["report_id"]) == ("verified", None)
    assert verdict(sim, again["report_id"]) == ("rejected", "duplicate_reference")
    assert verdict(sim, zelle["report_id"]) == ("rejected", "currency_not_allowed")


def test_a_forced_verification_the_books_cannot_hold_is_rejected(sim: Sim) -> None:
    """A Zelle report of the largest amount, credited to an account billed in bolívares,
    would be a credit past the largest amount the contract can state."""
    scenario = forced('{tenant: fibranet, reference: "Z000000002", outcome: verified}')
    assert load(sim, scenario).status_code == 201
    account = str(sim.sample("ves")["account_number"])
    made = report(sim, account, "forced-key-0009", method="zelle", bank=None,
                  reference="Z000000002", amount="999999999999.99", currency="USD").json()  # fmt: skip
    sim.control.clock.advance(minutes=30)
    assert verdict(sim, made["report_id"]) == ("rejected", "amount_mismatch")
    assert sim.get(f"/v1/customers/{account}/balance").json()["credit_balance"] == "0.00"


def test_a_forced_rejection_overrides_the_statement_and_applies_to_one_tenant(sim: Sim) -> None:
    entry = entries(sim, "pago_movil")[0]
    scenario = forced(
        f'{{tenant: fibranet, reference: "{entry.reference}", outcome: rejected,'
        " reason: reference_not_found}"
    )
    assert load(sim, scenario).status_code == 201
    made = report(sim, usd_account(sim), "forced-key-0007", **of_entry(entry)).json()
    sim.control.clock.advance(minutes=30)
    assert verdict(sim, made["report_id"]) == ("rejected", "reference_not_found")
    assert sim.control.faults.report_outcomes() == [
        {"tenant": "fibranet", "reference": entry.reference, "outcome": "rejected",
         "reason": "reference_not_found", "scenario": "forced"}
    ]  # fmt: skip


def test_unloading_the_scenario_gives_the_statement_its_say_again(sim: Sim) -> None:
    assert (
        load(sim, forced('{tenant: fibranet, reference: "0045127", outcome: verified}')).status_code
        == 201
    )
    made = report(sim, usd_account(sim), "forced-key-0008").json()
    assert sim.client.delete("/_sim/scenarios/forced", headers=ADMIN).status_code == 204
    assert sim.control.faults.report_outcomes() == []
    sim.control.clock.advance(minutes=30)
    assert verdict(sim, made["report_id"]) == ("rejected", "reference_not_found")


BAD = [
    ('{tenant: fibranet, reference: "0045127", outcome: rejected, reason: wrong_amount}',
     "line 3: report_outcomes[0].reason: a rejection needs a reason of the contract"),
    ('{tenant: fibranet, reference: "0045127", outcome: rejected}',
     "report_outcomes[0].reason: a rejection needs a reason"),
    ('{tenant: fibranet, reference: "0045127", outcome: verified, reason: amount_mismatch}',
     "report_outcomes[0].reason: a verified report has no rejection reason"),
    ('{tenant: nosuch, reference: "0045127", outcome: verified}',
     "report_outcomes[0].tenant: no tenant 'nosuch' (tenants: fibranet, llanolink)"),
    ("{tenant: fibranet, reference: 0045127, outcome: verified}",
     "report_outcomes[0].reference: must be a string (quote it in YAML), got 19031"),
    ('{tenant: fibranet, reference: "00-45", outcome: verified}',
     "report_outcomes[0].reference: '00-45' is not a payment reference"),
    ('{tenant: fibranet, reference: "0045127", outcome: approved}',
     "report_outcomes[0].outcome: must be verified or rejected, got 'approved'"),
    ('{tenant: fibranet, reference: "0045127", outcome: verified, amount: "1.00"}',
     "report_outcomes[0].amount: unknown field"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "message"), BAD)
def test_a_bad_outcome_refuses_the_whole_scenario(sim: Sim, line: str, message: str) -> None:
    text = forced(line) + "rules:\n  - {operation: getBalance, kind: http_503}\n"
    refused = load(sim, text)
    assert refused.status_code == 400
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert any(message in error["message"] for error in refused.json()["errors"])
    assert sim.control.faults.list() == [] and sim.control.faults.report_outcomes() == []


def test_a_reference_forced_twice_or_by_two_scenarios_is_refused(sim: Sim) -> None:
    line = '{tenant: fibranet, reference: "0045127", outcome: verified}'
    twice = load(sim, forced(line, line)).json()["errors"]
    assert "report_outcomes[1].reference: '0045127' of fibranet is forced twice" in str(twice)
    assert load(sim, forced(line)).status_code == 201
    other = load(sim, forced(line, name="other") + "rules:\n  - {operation: '*', kind: http_500}\n")
    assert other.status_code == 400 and "already forced by scenario 'forced'" in other.text
    assert sim.control.faults.list() == []  # the other scenario's rule was not added either
    assert load(sim, forced(line.replace("verified", "rejected, reason: amount_mismatch")),
                replace=True).status_code == 201  # fmt: skip
    assert sim.control.faults.report_outcomes()[0]["outcome"] == "rejected"


def test_the_reasons_are_the_contracts() -> None:
    import yaml

    contract = yaml.safe_load(OPENAPI_PATH.read_text(encoding="utf-8"))
    assert tuple(contract["components"]["schemas"]["RejectionReason"]["enum"]) == REJECTION_REASONS
