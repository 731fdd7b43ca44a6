"""What one test costs with each plugin fixture: in-process `billing_sim` vs loopback
`billing_sim_server`.

A "test" is what the fixture does around a typical test body: open the simulator (fresh
dataset; the loopback one is also served by uvicorn on 127.0.0.1), make ten `getBalance`
calls through the bound `BillingClient`, close it (stop the server). A third line shows
`shared=True` (the dataset built once, reused). Rounds alternate between the modes so
drift in the machine's load hits all alike. The simulator app is imported and built once
before timing, as it is after the first test of a session.

    .venv/bin/python benchmarks/plugin_fixture_cost.py [--tests 10] [--calls 10]
"""

from __future__ import annotations

import argparse
import statistics
import time

from billing_toolkit.pytest_plugin import SimOptions, open_billing_sim
from billing_toolkit.pytest_plugin.session import SharedSimulators

MODES = {
    "in-process (billing_sim)": (SimOptions(), False),
    "in-process, shared=True": (SimOptions(shared=True), False),
    "loopback (billing_sim_server)": (SimOptions(), True),
}


def one_test(options: SimOptions, loopback: bool, calls: int, shared: SharedSimulators) -> float:
    """Seconds for start, `calls` balance reads, stop."""
    started = time.perf_counter()
    with open_billing_sim(options, loopback=loopback, shared=shared) as sim:
        account = sim.sample("open_invoice")["account_number"]
        for _ in range(calls):
            sim.client.get_balance(account)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tests", type=int, default=10, help="tests per mode (default 10)")
    parser.add_argument("--calls", type=int, default=10, help="calls per test (default 10)")
    args = parser.parse_args()
    if args.tests < 1 or args.calls < 1:
        parser.error("--tests and --calls must be at least 1")

    shared = SharedSimulators()
    for options, loopback in MODES.values():  # warm-up: imports, contract, first dataset
        one_test(options, loopback, 1, shared)
    times: dict[str, list[float]] = {mode: [] for mode in MODES}
    for _ in range(args.tests):
        for mode, (options, loopback) in MODES.items():
            times[mode].append(one_test(options, loopback, args.calls, shared))

    print(f"per test: start, {args.calls} getBalance calls, stop ({args.tests} tests per mode)")
    medians = {mode: statistics.median(spent) for mode, spent in times.items()}
    for mode, spent in times.items():
        print(
            f"  {mode:31} median {medians[mode] * 1000:7.1f} ms"
            f"  min {min(spent) * 1000:7.1f} ms  max {max(spent) * 1000:7.1f} ms"
        )
    baseline = medians["in-process (billing_sim)"]
    for mode in MODES:
        print(f"  ratio {mode:25} / in-process: {medians[mode] / baseline:5.2f}x")


if __name__ == "__main__":
    main()
