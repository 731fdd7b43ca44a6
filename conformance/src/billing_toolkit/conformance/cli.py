"""`billing-contract verify`: the one command the production billing team runs.

Exit codes: 0 every selected check passed (skipped ones and business rules not exercised are
listed, and fail the run only with --fail-on-skip and --require-all-rules), 1 a check failed, 2 the run could not start (bad input, API not
reachable, test data not found): one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from rich.console import Console

from billing_toolkit.conformance.catalogue import catalogue
from billing_toolkit.conformance.diff.cli import register as register_diff
from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.outcome import Status
from billing_toolkit.conformance.proxy.cli import register as register_proxy
from billing_toolkit.conformance.proxy.cli import run_replay
from billing_toolkit.conformance.reporting.console import ConsoleProgress, print_summary
from billing_toolkit.conformance.reporting.outputs import unusable_report, write_outputs
from billing_toolkit.conformance.runner import CHECK_NAMES, RunReport, run_kit
from billing_toolkit.conformance.settings import SETTING_KEYS, Outputs, build_settings, output_paths
from billing_toolkit.conformance.settings_file import check_file_values, parse_settings_file
from billing_toolkit.contract.cli import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, OneLineParser

PROG = "billing-contract"


def _version() -> str:
    try:
        return metadata.version("billing-toolkit")
    except metadata.PackageNotFoundError:  # a source tree that was never installed
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """The parser; each subcommand sets `run` (args, console) → exit code, so adding one is
    an `add_parser` and a `set_defaults(run=...)`, nothing in `main`."""
    parser = OneLineParser(
        prog=PROG, description="Check a billing API against contract/openapi.yaml."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    verify_command = commands.add_parser(
        "verify", help="run the conformance checks against a base URL"
    )
    verify_command.set_defaults(run=verify)
    add_verify_options(verify_command)
    verify_command.add_argument(
        "--replay",
        type=Path,
        metavar="FILE",
        help="judge a recording made with `proxy --record` instead of calling an API "
        "(the same verdicts as the live proxy; --report and --junit-xml apply)",
    )
    commands.add_parser("list-checks", help="print every check and what it means").set_defaults(
        run=lambda args, console: list_checks(console)
    )
    register_diff(commands)
    register_proxy(commands)
    return parser


def add_verify_options(command: argparse.ArgumentParser) -> None:
    """The options of `verify`; every one but --config and the keys is a settings-file key."""
    target = command.add_argument_group("target")
    target.add_argument(
        "--base-url", help="the API's base URL, e.g. https://billing-staging.example.com"
    )
    target.add_argument(
        "--api-key", help="bearer API key of the tenant under test (or $BILLING_API_KEY)"
    )
    target.add_argument(
        "--other-tenant-key",
        help="an API key of another tenant, for the tenancy check (or $BILLING_OTHER_API_KEY)",
    )
    target.add_argument(
        "--config", type=Path, help="YAML file with any of the settings below (no API keys)"
    )
    data = command.add_argument_group("test data (staging has no admin API: name it)")
    data.add_argument("--account-number", help="an account of the tenant the kit may read")
    data.add_argument("--customer-phone", help="E.164 phone of a customer (resolves the account)")
    data.add_argument("--invoice-number", help="an invoice of the account (default: its newest)")
    writes = command.add_argument_group("writes")
    writes.add_argument(
        "--allow-writes",
        action="store_true",
        default=None,
        help="allow the documented write: one payment of --payment-amount (idempotency)",
    )
    writes.add_argument(
        "--allow-fuzz-writes",
        action="store_true",
        default=None,
        help="also let schemathesis post generated payments to the test account (needs "
        "--allow-writes; amounts are random)",
    )
    writes.add_argument("--payment-amount", help="amount of the one test payment (default 1.00)")
    run = command.add_argument_group("run")
    run.add_argument(
        "--checks", help=f"comma-separated subset of: {', '.join(sorted(CHECK_NAMES))}"
    )
    run.add_argument("--max-examples", help="schemathesis examples per operation (default 10)")
    run.add_argument("--fuzz-time", help="keep schemathesis fuzzing for this many seconds")
    run.add_argument("--seed", help="seed of the generated data (default 0: reproducible)")
    run.add_argument("--request-timeout", help="seconds per request (default 10)")
    run.add_argument(
        "--rate-limit-probe", help="send up to N requests to provoke a 429 (default 0)"
    )
    run.add_argument(
        "--retry-delay",
        help="seconds before the delayed idempotent retry of the probe payment (default 3)",
    )
    run.add_argument(
        "--fail-on-skip", action="store_true", default=None, help="a skipped check fails the run"
    )
    run.add_argument(
        "--require-all-rules",
        action="store_true",
        default=None,
        help="a business rule the test data never exercised fails the run",
    )
    output = command.add_argument_group("output (written on every exit, exit 2 included)")
    output.add_argument("--junit-xml", type=Path, help="write JUnit XML here (for CI)")
    output.add_argument("--report", type=Path, help="write a report here: .json or .md")


def verify(args: argparse.Namespace, console: Console) -> int:
    """Run the kit; the output files are written whatever happens (see `reporting.outputs`).
    With --replay, judge a recording instead: no API is called."""
    if args.replay is not None:
        return run_replay(
            argparse.Namespace(recording=args.replay, report=args.report, junit_xml=args.junit_xml)
        )
    values: dict[str, Any] = {
        key: getattr(args, key) for key in SETTING_KEYS if getattr(args, key) is not None
    }
    try:
        if args.config is not None:
            from_file = parse_settings_file(args.config)
            values = {**from_file, **values}
            check_file_values(args.config, from_file)
        settings = build_settings(values, known_checks=CHECK_NAMES)
        with ConsoleProgress(console) as progress:
            report = run_kit(settings, progress)
    except (KitError, KeyboardInterrupt) as exc:
        message = str(exc) if isinstance(exc, KitError) else "interrupted"
        _write_quietly(_usable_outputs(values), unusable_report(message, values))
        raise
    print_summary(console, report, settings.secrets)
    outputs = Outputs(junit_xml=settings.junit_xml, report=settings.report)
    write_outputs(outputs, report, settings.secrets)
    failed = not report.passed or (settings.fail_on_skip and report.count(Status.SKIPPED) > 0)
    return EXIT_FAILURE if failed else EXIT_OK


def _usable_outputs(values: dict[str, Any]) -> Outputs:
    """Each output path of `values` that can be written (a bad --report does not cost the
    JUnit file), for the files of a run that stopped."""
    usable: dict[str, Any] = {}
    for key in ("junit_xml", "report"):
        try:
            output_paths({key: values.get(key)})
        except KitError:
            continue
        usable[key] = values.get(key)
    return output_paths(usable)


def _write_quietly(outputs: Outputs, report: RunReport) -> None:
    """Write an unusable run's files; if even that fails, the run's own error is the line
    the user needs, so this one is not reported over it."""
    try:
        write_outputs(outputs, report, {})
    except OSError:
        pass


def list_checks(console: Console) -> int:
    for name, meaning, _ in catalogue():
        console.print(f"[bold]{name}[/]\n  {meaning}\n")
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = Console()
    try:
        code: int = args.run(args, console)
        return code
    except KitError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(
            f"{PROG}: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "),
            file=sys.stderr,
        )
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
