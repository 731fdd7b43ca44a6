"""`billing-sim`: serve the simulator, print dataset info, validate scenario files.

Every failure is one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from billing_toolkit.contract import OPENAPI_PATH
from billing_toolkit.contract.operations import load_contract
from billing_toolkit.simulator.faults.registry import operations_with_404
from billing_toolkit.simulator.faults.scenario import ScenarioError, load_scenario
from billing_toolkit.simulator.state.dataset import DEFAULT_CUSTOMERS, MIN_CUSTOMERS

EXIT_USAGE = 2


def _customers(text: str) -> int:
    value = int(text)
    if value < MIN_CUSTOMERS:
        raise argparse.ArgumentTypeError(f"must be at least {MIN_CUSTOMERS}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="billing-sim", description="Stateful billing API simulator with fault injection."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the billing API and the /_sim admin API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8080)
    serve.add_argument("--seed", type=int, default=42)
    serve.add_argument(
        "--customers", type=_customers, default=DEFAULT_CUSTOMERS, help="customers per tenant"
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
        "--validation-engine", default="compiled", choices=["compiled", "openapi-core"],
        help="contract validator (openapi-core is the slower reference)",
    )  # fmt: skip
    info = commands.add_parser("info", help="print the dataset info as JSON without serving")
    info.add_argument("--seed", type=int, default=42)
    info.add_argument("--customers", type=_customers, default=DEFAULT_CUSTOMERS)
    scenario = commands.add_parser("scenario", help="work with fault scenario files")
    scenario_commands = scenario.add_subparsers(dest="scenario_command", required=True)
    validate = scenario_commands.add_parser("validate", help="check a scenario file")
    validate.add_argument("file", type=Path)
    return parser


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from billing_toolkit.simulator.app import create_app
    from billing_toolkit.simulator.config import SimulatorConfig
    from billing_toolkit.simulator.logs import configure_logging
    from billing_toolkit.simulator.server import uvicorn_config

    configure_logging(args.log_level)
    config = SimulatorConfig(
        seed=args.seed,
        customers_per_tenant=args.customers,
        state_path=args.state,
        scenario=args.scenario,
        allow_fault_header=args.allow_fault_header,
        validation_engine=args.validation_engine,
    )
    app = create_app(config)
    uvicorn.Server(uvicorn_config(app, args.host, args.port, args.log_level)).run()
    return 0


def _info(args: argparse.Namespace) -> int:
    from billing_toolkit.simulator.state.dataset import generate
    from billing_toolkit.simulator.state.info import dataset_info

    print(
        json.dumps(dataset_info(generate(args.seed, args.customers)), indent=2, ensure_ascii=False)
    )
    return 0


def _validate(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.file, operations_with_404(load_contract(OPENAPI_PATH).operations))
    print(f"{args.file}: ok ({len(scenario.rules)} rule{'s' if len(scenario.rules) != 1 else ''})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "serve":
            return _serve(args)
        if args.command == "info":
            return _info(args)
        return _validate(args)
    except ScenarioError as error:
        print(f"billing-sim: {error}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as error:
        print(f"billing-sim: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
