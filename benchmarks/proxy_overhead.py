"""Per-request overhead of the validating proxy against a bare pass-through proxy, same run.

Three routes to the same in-process simulator, interleaved request by request so drift hits
all three alike: *direct*; through the *pass-through* proxy (the same ASGI app and httpx
forwarding, nothing judged or recorded); through the *validating* proxy (schemas, response
rules, business rules, masked recording to memory). A proxy's overhead is its median
latency minus the direct median; the ratio is validating overhead / pass-through overhead.
Goal: at most 2× (judging costs no more than forwarding does).

    .venv/bin/python benchmarks/proxy_overhead.py               # ~10 s
    .venv/bin/python benchmarks/proxy_overhead.py --rounds 500
"""

from __future__ import annotations

import argparse
import io
import statistics
import time

import httpx

from billing_toolkit.conformance.proxy.server import open_proxy, pass_through
from billing_toolkit.pytest_plugin import SimOptions, open_billing_sim
from billing_toolkit.simulator.server import serve_in_thread

GOAL_RATIO = 2.0


def _paths(account: str, phone: str, invoice: str) -> list[str]:
    """A billing conversation's reads: lookup, customer, balance, invoices, one invoice."""
    return [
        f"/v1/customer-lookup?phone={phone.replace('+', '%2B')}",
        f"/v1/customers/{account}",
        f"/v1/customers/{account}/balance",
        f"/v1/customers/{account}/invoices?limit=5",
        f"/v1/invoices/{invoice}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200, help="requests per route (default 200)")
    rounds = parser.parse_args().rounds
    with open_billing_sim(SimOptions(seed=7, customers=30)) as sim:
        tenant = sim.control.info()["tenants"][0]
        sample = tenant["samples"]["open_invoice"]
        upstream = serve_in_thread(sim.app)
        validating = open_proxy(upstream.url, log=lambda line: None, record=io.StringIO())
        served = {
            "pass-through": serve_in_thread(pass_through(upstream.url)),
            "validating": serve_in_thread(validating.app),
        }
        bases = {"direct": upstream.url, **{name: s.url for name, s in served.items()}}
        headers = {"Authorization": f"Bearer {tenant['api_key']}", "X-Request-Id": "bench"}
        clients = {name: httpx.Client(base_url=url, headers=headers) for name, url in bases.items()}
        invoice = (
            clients["direct"]
            .get(f"/v1/customers/{sample['account_number']}/invoices?limit=1")
            .json()["data"][0]["invoice_number"]
        )
        paths = _paths(sample["account_number"], sample["phone"], invoice)
        timings: dict[str, list[float]] = {name: [] for name in clients}
        for _ in range(20):  # warm-up: connections, compiled validators
            for client in clients.values():
                client.get(paths[0])
        for round_ in range(rounds):
            path = paths[round_ % len(paths)]
            for name, client in clients.items():
                started = time.perf_counter()
                client.get(path).raise_for_status()
                timings[name].append(time.perf_counter() - started)
        for client in clients.values():
            client.close()
        for server in served.values():
            server.stop()
        upstream.stop()
    medians = {name: statistics.median(values) * 1000 for name, values in timings.items()}
    for name, median in medians.items():
        p95 = sorted(timings[name])[int(len(timings[name]) * 0.95)] * 1000
        print(f"{name:>13}: median {median:6.2f} ms  p95 {p95:6.2f} ms  ({rounds} requests)")
    bare = medians["pass-through"] - medians["direct"]
    judged = medians["validating"] - medians["direct"]
    ratio = judged / bare if bare > 0 else float("inf")
    print(f"overhead per request: pass-through {bare:.2f} ms, validating {judged:.2f} ms")
    verdict = "within" if ratio <= GOAL_RATIO else "OVER"
    print(f"ratio validating/pass-through: {ratio:.2f}× ({verdict} the {GOAL_RATIO:.0f}× goal)")
    print(f"violations judged on the way: {sum(validating.session.violated.values())}")


if __name__ == "__main__":
    main()
