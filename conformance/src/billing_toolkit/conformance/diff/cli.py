"""`billing-contract diff OLD NEW`: what changed between two versions of the contract, and
whether it breaks anyone.

Exit status: 0 no change at or above `--fail-on` (default `error`), 1 at least one, 2 the
files cannot be compared (missing, not YAML, not OpenAPI) or an option is wrong — one line
on stderr, never a traceback. The report goes to stdout, or to `--output FILE`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from billing_toolkit.conformance.diff.changes import Severity
from billing_toolkit.conformance.diff.engine import diff_contracts
from billing_toolkit.conformance.diff.loading import DiffInputError, load_for_diff
from billing_toolkit.conformance.diff.rendering import FORMATS, render
from billing_toolkit.contract.cli import EXIT_FAILURE, EXIT_OK


def register(subparsers: Any) -> None:
    """Add `diff` to the `billing-contract` sub-commands (`subparsers` from add_subparsers)."""
    parser = subparsers.add_parser(
        "diff",
        help="breaking-change detection between two versions of the contract",
        description="Compare two OpenAPI contracts; classify every change as error (breaks"
        " clients or implementations), warning or info.",
    )
    parser.add_argument("old", type=Path, metavar="OLD", help="the released contract (YAML)")
    parser.add_argument("new", type=Path, metavar="NEW", help="the proposed contract (YAML)")
    parser.add_argument(
        "--fail-on",
        choices=[severity.value for severity in Severity],
        default=Severity.ERROR.value,
        help="exit 1 when a change is at least this severe (default: error)",
    )
    parser.add_argument("--format", choices=FORMATS, default="markdown", help="default: markdown")
    parser.add_argument("--output", type=Path, help="write the report here instead of stdout")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, console: object = None) -> int:
    """Compare, write the report, and answer the exit status `--fail-on` asks for.

    `console` is the `billing-contract` run signature; the report is printed as plain text
    (rich would read `[...]` in a location as markup)."""
    if args.output is not None and not args.output.parent.is_dir():
        raise DiffInputError(
            f"--output {args.output}: directory {args.output.parent} does not exist"
        )
    report = diff_contracts(load_for_diff("OLD", args.old), load_for_diff("NEW", args.new))
    text = render(report, args.format)
    if args.output is None:
        print(text, end="")
    else:
        args.output.write_text(text, encoding="utf-8")
        counts = ", ".join(f"{report.count(s)} {s.value}" for s in Severity)
        print(f"{report.old_version} → {report.new_version}: {counts}; report in {args.output}")
    return EXIT_FAILURE if report.fails(Severity(args.fail_on)) else EXIT_OK
