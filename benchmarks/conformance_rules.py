"""How long the conformance kit takes: its response rules per response, and a whole default
`billing-contract verify` run against the simulator.

The rules run over every exchange of a run (the kit's and all schemathesis generated), so
their cost scales with --max-examples and --fuzz-time. Baseline, measured in the same run:
parsing the same bodies with json.loads, the least any rule must do. The whole run is the
CI command with its defaults (every check, schemathesis with 10 examples per operation,
discovery looking for every case a rule needs) against a seeded simulator on loopback, in
its own process as in CI; goal: under 60 s. Bounded: about a minute.

    .venv/bin/python benchmarks/conformance_rules.py
    .venv/bin/python benchmarks/conformance_rules.py --no-run    # the rules only
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from billing_toolkit.conformance.checks import VERIFY_RESPONSE_RULES
from billing_toolkit.conformance.contract_facts import load_facts
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.pytest_plugin import SimOptions, open_billing_sim

RESPONSES = 2000
RUN_GOAL_S = 60.0
RUN_DEADLINE_S = 300
INVOICES_PER_PAGE = 20


def _invoice(sequence: int) -> dict[str, object]:
    return {
        "invoice_number": f"INV-2026-{sequence:06d}",
        "account_number": "1000004821",
        "status": "paid",
        "currency": "USD",
        "line_items": [
            {"kind": "plan_charge", "description": "Fibra 100", "amount": "28.00"},
            {"kind": "tax", "description": "IVA 16%", "amount": "4.48"},
        ],
        "subtotal": "28.00",
        "tax": "4.48",
        "total": "32.48",
        "amount_paid": "32.48",
        "amount_due": "0.00",
    }


def _exchanges() -> list[Exchange]:
    page = {"data": [_invoice(i) for i in range(INVOICES_PER_PAGE)], "next_cursor": None}
    body = json.dumps(page).encode()
    return [
        Exchange(
            method="GET",
            url="http://127.0.0.1:8080/v1/customers/1000004821/invoices?limit=20",
            request_headers={},
            request_body=None,
            status=200,
            response_headers={"content-type": "application/json", "x-request-id": f"req-{n}"},
            response_body=body,
        )
        for n in range(RESPONSES)
    ]


def verify_run() -> tuple[float, int]:
    """(seconds, exit code) of a default `billing-contract verify --allow-writes` run against
    a fresh seeded simulator on loopback."""
    with open_billing_sim(SimOptions(seed=7, customers=30), loopback=True) as sim:
        tenants = sim.control.info()["tenants"]
        sample = tenants[0]["samples"]["open_invoice"]
        env = {
            **os.environ,
            "BILLING_API_KEY": tenants[0]["api_key"],
            "BILLING_OTHER_API_KEY": tenants[1]["api_key"],
        }
        command = [
            sys.executable, "-m", "billing_toolkit.conformance.cli", "verify",
            "--base-url", str(sim.url), "--account-number", sample["account_number"],
            "--allow-writes",
        ]  # fmt: skip
        started = time.perf_counter()
        done = subprocess.run(
            command, env=env, capture_output=True, timeout=RUN_DEADLINE_S, check=False
        )
        return time.perf_counter() - started, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--no-run", action="store_true", help="time the rules only")
    whole_run = not parser.parse_args().no_run
    facts = load_facts()
    baseline_exchanges = _exchanges()
    started = time.perf_counter()
    for exchange in baseline_exchanges:
        json.loads(exchange.response_body)
    baseline = time.perf_counter() - started

    judged = _exchanges()
    started = time.perf_counter()
    for rule in VERIFY_RESPONSE_RULES:
        rule.evaluate(judged, facts)
    rules = time.perf_counter() - started

    print(f"responses: {RESPONSES} invoice pages of {INVOICES_PER_PAGE} invoices")
    print(f"baseline json.loads: {baseline * 1e6 / RESPONSES:8.1f} µs/response")
    print(f"all response rules:  {rules * 1e6 / RESPONSES:8.1f} µs/response")
    print(f"ratio rules/baseline: {rules / baseline:.1f}x")
    if whole_run:
        seconds, code = verify_run()
        verdict = "within" if seconds < RUN_GOAL_S else "OVER"
        print(
            f"default verify run:   {seconds:8.1f} s (exit {code}; {verdict} the "
            f"{RUN_GOAL_S:.0f} s goal)"
        )


if __name__ == "__main__":
    main()
