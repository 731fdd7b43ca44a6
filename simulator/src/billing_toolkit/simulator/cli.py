"""`billing-sim`: serve the simulator, print dataset info, validate scenario files.

Every failure is a one-line message on stderr (one line per problem of a scenario file)
and exit 2, never a traceback: a bad argument, an unreadable or broken file, a state file
made with another seed.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable, Sequence
from datetime import timedelta
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from billing_toolkit.contract import OPENAPI_PATH
from billing_toolkit.contract.cli import EXIT_OK, EXIT_USAGE, OneLineParser, bounded_int, port
from billing_toolkit.contract.operations import load_contract
from billing_toolkit.simulator.config import DEFAULT_MAX_BODY_BYTES
from billing_toolkit.simulator.faults.registry import operation_statuses, operations_with_404
from billing_toolkit.simulator.faults.scenario import ScenarioError, load_scenario
from billing_toolkit.simulator.journal import DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_SIZE
from billing_toolkit.simulator.state.dataset import (
    DEFAULT_CUSTOMERS,
    MAX_CUSTOMERS,
    MAX_SEED,
    MIN_CUSTOMERS,
)
from billing_toolkit.simulator.state.report_verification import (
    MAX_VERIFICATION_DELAY,
    VERIFICATION_DELAY,
)

PROG = "billing-sim"


def _whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number in [low, high] (the toolkit's one convention)."""
    return functools.partial(bounded_int, low=low, high=high)


def _version() -> str:
    try:
        return version("billing-toolkit")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=PROG, description="Stateful billing API simulator with fault injection."
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {_version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    seed = _whole(0, MAX_SEED)
    customers = _whole(MIN_CUSTOMERS, MAX_CUSTOMERS)
    serve = commands.add_parser("serve", help="serve the billing API and the /_sim admin API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument(
        "--allow-dev-token", action="store_true",
        help="serve a non-loopback --host with the public dev admin token (refused otherwise)",
    )  # fmt: skip
    serve.add_argument("--port", type=port, default=8080, help="0: any free port")
    serve.add_argument("--seed", type=seed, default=42, help="must match the seed of --state")
    serve.add_argument(
        "--customers", type=customers, default=DEFAULT_CUSTOMERS, help="customers per tenant"
    )
    serve.add_argument(
        "--state", type=Path, help="SQLite file that keeps the state across restarts"
    )
    serve.add_argument("--scenario", type=Path, help="YAML fault scenario active from start")
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    serve.add_argument(
        "--allow-fault-header", action="store_true", help="honour X-Sim-Fault on requests"
    )
    serve.add_argument(
        "--allow-prefer", action="store_true",
        help="honour Prefer: code=NNN / example=NAME on requests (as Prism does)",
    )  # fmt: skip
    serve.add_argument(
        "--rate-limit", action="append", default=[], metavar="[OPERATION=]N/s|N/min",
        help="token bucket per API key (20/s); OPERATION= or *= for per-operation buckets;"
        " repeatable",
    )  # fmt: skip
    serve.add_argument(
        "--validation-engine", default="compiled", choices=["compiled", "openapi-core"],
        help="contract validator (openapi-core is the slower reference)",
    )  # fmt: skip
    serve.add_argument(
        "--max-body-bytes", type=_whole(1024, 1 << 30),
        default=DEFAULT_MAX_BODY_BYTES,
        help=f"largest request body; larger ones get 413 (default {DEFAULT_MAX_BODY_BYTES})",
    )  # fmt: skip
    serve.add_argument(
        "--journal-size", type=_whole(0, MAX_JOURNAL_SIZE), default=DEFAULT_JOURNAL_SIZE,
        help=f"requests the journal keeps for GET /_sim/requests (default {DEFAULT_JOURNAL_SIZE};"
        " 0: off)",
    )  # fmt: skip
    serve.add_argument(
        "--report-verification-delay", type=_whole(0, int(MAX_VERIFICATION_DELAY.total_seconds())),
        default=int(VERIFICATION_DELAY.total_seconds()), metavar="SECONDS",
        help="business-clock seconds before a payment report is verified or rejected"
        f" (default {int(VERIFICATION_DELAY.total_seconds())}; 0: at the next clock move)",
    )  # fmt: skip
    info = commands.add_parser("info", help="print the dataset info as JSON without serving")
    info.add_argument("--seed", type=seed, default=42)
    info.add_argument("--customers", type=customers, default=DEFAULT_CUSTOMERS)
    scenario = commands.add_parser("scenario", help="work with fault scenario files")
    scenario_commands = scenario.add_subparsers(dest="scenario_command", required=True)
    validate = scenario_commands.add_parser("validate", help="check a scenario file")
    validate.add_argument("file", type=Path)
    return parser


def _serve(args: argparse.Namespace) -> int:
    from billing_toolkit.simulator.app import create_app
    from billing_toolkit.simulator.config import SimulatorConfig, network_token_refusal
    from billing_toolkit.simulator.logs import configure_logging
    from billing_toolkit.simulator.server import simulator_server

    config = SimulatorConfig(
        seed=args.seed,
        customers_per_tenant=args.customers,
        state_path=args.state,
        scenario=args.scenario,
        allow_fault_header=args.allow_fault_header,
        allow_prefer=args.allow_prefer,
        rate_limits=tuple(args.rate_limit),
        validation_engine=args.validation_engine,
        max_body_bytes=args.max_body_bytes,
        journal_size=args.journal_size,
        report_verification_delay=timedelta(seconds=args.report_verification_delay),
    )
    refusal = network_token_refusal(args.host, config.admin_token, args.allow_dev_token)
    if refusal:
        raise ValueError(refusal)
    configure_logging(args.log_level, background=True)
    app = create_app(config)
    simulator_server(app, args.host, args.port, args.log_level).run()
    return EXIT_OK


def _info(args: argparse.Namespace) -> int:
    from billing_toolkit.simulator.state.dataset import generate
    from billing_toolkit.simulator.state.info import dataset_info

    print(
        json.dumps(dataset_info(generate(args.seed, args.customers)), indent=2, ensure_ascii=False)
    )
    return EXIT_OK


def _validate(args: argparse.Namespace) -> int:
    operations = load_contract(OPENAPI_PATH).operations
    scenario = load_scenario(
        args.file, operations_with_404(operations), operation_statuses(operations)
    )
    count = len(scenario.every_rule())
    states = f", {len(scenario.machine.states)} states" if scenario.machine else ""
    forced = len(scenario.outcomes)
    outcomes = f", {forced} report outcome{'s' if forced != 1 else ''}" if forced else ""
    print(f"{args.file}: ok ({count} rule{'s' if count != 1 else ''}{states}{outcomes})")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "serve":
            return _serve(args)
        if args.command == "info":
            return _info(args)
        return _validate(args)
    except ScenarioError as error:
        for line in str(error).splitlines():
            print(f"{PROG}: {line}", file=sys.stderr)
        return EXIT_USAGE
    except (OSError, ValueError) as error:
        print(f"{PROG}: {' '.join(str(error).split())}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
