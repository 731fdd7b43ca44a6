"""`billing-contract verify`: the one command the production billing team runs.

Exit codes: 0 every selected check passed (skipped ones are listed, and fail the run only
with --fail-on-skip), 1 a check failed, 2 the run could not start (bad input, API not
reachable, test data not found): one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, NoReturn

from rich.console import Console

from billing_toolkit.conformance.catalogue import catalogue
from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.outcome import Status
from billing_toolkit.conformance.reporting.console import ConsoleProgress, print_summary
from billing_toolkit.conformance.reporting.junit import write_junit
from billing_toolkit.conformance.reporting.report_file import report_format, write_report
from billing_toolkit.conformance.runner import CHECK_NAMES, run_kit
from billing_toolkit.conformance.settings import (
    SETTING_KEYS,
    KitSettings,
    build_settings,
    read_settings_file,
)

EXIT_PASSED, EXIT_FAILED, EXIT_UNUSABLE = 0, 1, 2
PROG = "billing-contract"


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error on one line instead of usage + error."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_UNUSABLE, f"{PROG}: error: {message} (see {PROG} verify --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Check a billing API against contract/openapi.yaml.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    verify = commands.add_parser("verify", help="run the conformance checks against a base URL")
    target = verify.add_argument_group("target")
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
    data = verify.add_argument_group("test data (staging has no admin API: name it)")
    data.add_argument("--account-number", help="an account of the tenant the kit may read")
    data.add_argument("--customer-phone", help="E.164 phone of a customer (resolves the account)")
    data.add_argument("--invoice-number", help="an invoice of the account (default: its newest)")
    writes = verify.add_argument_group("writes")
    writes.add_argument(
        "--allow-writes",
        action="store_true",
        default=None,
        help="allow checks that record a payment on the test account (idempotency)",
    )
    writes.add_argument("--payment-amount", help="amount of the one test payment (default 1.00)")
    run = verify.add_argument_group("run")
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
    run.add_argument("--fail-on-skip", action="store_true", help="a skipped check fails the run")
    output = verify.add_argument_group("output")
    output.add_argument("--junit-xml", type=Path, help="write JUnit XML here (for CI)")
    output.add_argument("--report", type=Path, help="write a report here: .json or .md")
    commands.add_parser("list-checks", help="print every check and what it means")
    return parser


def _settings(args: argparse.Namespace) -> KitSettings:
    values: dict[str, Any] = read_settings_file(args.config) if args.config else {}
    for key in sorted(SETTING_KEYS):
        flag_value = getattr(args, key)
        if flag_value is not None:
            values[key] = flag_value
    return build_settings(values, known_checks=CHECK_NAMES)


def _check_output_path(path: Path | None, flag: str) -> None:
    if path is not None and not path.parent.is_dir():
        raise KitError(f"{flag} {path}: directory {path.parent} does not exist")


def verify(args: argparse.Namespace, console: Console) -> int:
    settings = _settings(args)
    _check_output_path(args.junit_xml, "--junit-xml")
    _check_output_path(args.report, "--report")
    if args.report is not None:
        report_format(args.report)
    with ConsoleProgress(console) as progress:
        report = run_kit(settings, progress)
    print_summary(console, report, settings.secrets)
    if args.junit_xml is not None:
        write_junit(args.junit_xml, report, settings.secrets)
    if args.report is not None:
        write_report(args.report, report, settings.secrets)
    failed = not report.passed or (args.fail_on_skip and report.count(Status.SKIPPED) > 0)
    return EXIT_FAILED if failed else EXIT_PASSED


def list_checks(console: Console) -> int:
    for name, meaning, _ in catalogue():
        console.print(f"[bold]{name}[/]\n  {meaning}\n")
    return EXIT_PASSED


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = Console()
    try:
        if args.command == "list-checks":
            return list_checks(console)
        return verify(args, console)
    except KitError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return EXIT_UNUSABLE
    except OSError as exc:
        print(
            f"{PROG}: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "),
            file=sys.stderr,
        )
        return EXIT_UNUSABLE
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
