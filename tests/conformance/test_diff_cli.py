"""`billing-contract diff` as a CI job runs it: Markdown and JSON reports, the exit status
`--fail-on` asks for, and one line with exit 2 for every file or option it cannot use."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from billing_toolkit.conformance.cli import main
from tests.conformance.test_diff_rules import base, prop, schema

EXIT_CLEAN, EXIT_BREAKING, EXIT_UNUSABLE = 0, 1, 2


def write(path: Path, document: Any) -> Path:
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    """The released contract and a proposal that drops a required response field (an error),
    drops an optional one (a warning, in both operations that return a payment) and adds an error status (info)."""
    old = write(tmp_path / "old.yaml", base())
    new = base()
    payment = schema(new, "Payment")
    del payment["properties"]["amount"], payment["properties"]["reference"]
    payment["required"].remove("amount")
    new["paths"]["/v1/customers/{accountNumber}/payments"]["post"]["responses"]["413"] = {
        "description": "Too large.",
        "content": {"application/problem+json": {"schema": {}}},
    }
    return old, write(tmp_path / "new.yaml", new)


def run(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse exits from inside parse_args
        return int(exc.code or 0)


def test_json_report_lists_every_change_with_rule_and_severity(
    pair: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = pair
    assert run(["diff", str(old), str(new), "--format", "json"]) == EXIT_BREAKING
    report = json.loads(capsys.readouterr().out)
    assert report["old"] == {"path": str(old), "version": "1.0.0"}
    assert report["summary"] == {"error": 3, "warning": 2, "info": 1}
    by_rule = {(item["rule"], item["operation"]): item for item in report["changes"]}
    removed = by_rule[("response-required-property-removed", "createPayment")]
    assert removed["severity"] == "error" and removed["kind"] == "removed"
    assert removed["location"] == "response 201 application/json: amount"
    assert by_rule[("response-required-property-removed", "listPayments")]["location"] == (
        "response 200 application/json: data[].amount"
    )
    assert by_rule[("response-error-status-added", "createPayment")]["severity"] == "info"
    assert [item["severity"] for item in report["changes"]] == sorted(
        (item["severity"] for item in report["changes"]), key=["error", "warning", "info"].index
    )


def test_markdown_report_is_a_table_worst_first(
    pair: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = pair
    assert run(["diff", str(old), str(new)]) == EXIT_BREAKING
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "# Contract diff: 1.0.0 → 1.0.0"
    assert "3 error, 2 warning, 1 info" in lines[2]
    rows = [line for line in lines if line.startswith("| ") and "---" not in line][1:]
    assert rows[0].startswith("| error | `breaking-change-without-major-bump` |")
    assert (
        rows[-1]
        == "| info | `response-error-status-added` | createPayment | response 413 | status 413 added |"
    )


@pytest.mark.parametrize(
    ("fail_on", "expected"),
    [("error", EXIT_BREAKING), ("warning", EXIT_BREAKING), ("info", EXIT_BREAKING)],
)
def test_fail_on_with_an_error(pair: tuple[Path, Path], fail_on: str, expected: int) -> None:
    assert run(["diff", *map(str, pair), "--fail-on", fail_on, "--format", "json"]) == expected


def _add_optional_response_field(document: dict[str, Any]) -> None:
    schema(document, "Payment")["properties"]["note"] = {"type": "string"}


def _drop_optional_response_field(document: dict[str, Any]) -> None:
    del schema(document, "Payment")["properties"]["reference"]


@pytest.mark.parametrize(
    ("edit", "fail_on", "expected"),
    [
        (_add_optional_response_field, "error", EXIT_CLEAN),
        (_add_optional_response_field, "warning", EXIT_CLEAN),
        (_add_optional_response_field, "info", EXIT_BREAKING),
        (_drop_optional_response_field, "error", EXIT_CLEAN),
        (_drop_optional_response_field, "warning", EXIT_BREAKING),
        (_drop_optional_response_field, "info", EXIT_BREAKING),
    ],
)
def test_fail_on_without_an_error(
    tmp_path: Path, edit: Callable[[dict[str, Any]], None], fail_on: str, expected: int
) -> None:
    """An info-only diff (a field added) and a warning-only one (an optional field dropped)."""
    old = write(tmp_path / "old.yaml", base())
    new = base()
    edit(new)
    args = ["diff", str(old), str(write(tmp_path / "new.yaml", new)), "--fail-on", fail_on]
    assert run(args) == expected


def test_identical_contracts_pass_even_on_info(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = write(tmp_path / "old.yaml", base())
    assert run(["diff", str(old), str(old), "--fail-on", "info"]) == EXIT_CLEAN
    assert "No changes a client or an implementation would notice." in capsys.readouterr().out


def test_output_file_gets_the_report_and_stdout_a_summary(
    pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "diff.json"
    assert run(["diff", *map(str, pair), "--format", "json", "--output", str(target)]) == 1
    assert json.loads(target.read_text())["summary"]["error"] == 3
    assert capsys.readouterr().out == (
        f"1.0.0 → 1.0.0: 3 error, 2 warning, 1 info; report in {target}\n"
    )


def _bad_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Name → (a file `diff` must refuse as NEW, what the one line must say)."""
    binary = tmp_path / "logo.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00")
    dangling = base()
    prop(dangling, "Payment", "amount")["$ref"] = "#/components/schemas/Nowhere"
    circular = base()
    schema(circular, "Payment")["properties"]["self"] = {"$ref": "#/components/schemas/Payment"}
    remote = base()
    prop(remote, "Payment", "amount")["$ref"] = "https://example.com/amount.yaml"
    twice = base()
    twice["paths"]["/health/ready"] = twice["paths"]["/health/live"]
    bad_rules = base()
    bad_rules["x-business-rules"] = [{"id": "payment.allocation"}]
    swagger = {"swagger": "2.0", "paths": {}}
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (10 * 1024 * 1024 + 1))
    return {
        "missing": (tmp_path / "nope.yaml", "NEW {}: no such file"),
        "directory": (tmp_path, "NEW {}: not a file"),
        "not YAML": (_text(tmp_path / "notes.yaml", "paths: [unclosed\n"), "is not YAML"),
        "binary": (binary, "is not UTF-8 text"),
        "YAML list": (_text(tmp_path / "list.yaml", "- 1\n- 2\n"), "is not an OpenAPI 3 document"),
        "empty": (_text(tmp_path / "empty.yaml", ""), "is not an OpenAPI 3 document"),
        "Swagger 2": (write(tmp_path / "swagger.yaml", swagger), "is not an OpenAPI 3 document"),
        "paths not a map": (
            write(tmp_path / "paths.yaml", {"openapi": "3.1.0", "paths": ["/x"]}),
            "`paths` is not a map",
        ),
        "no operationId": (
            write(tmp_path / "noid.yaml", {"openapi": "3.1.0", "paths": {"/x": {"get": {}}}}),
            "missing 'operationId'",
        ),
        "dangling $ref": (write(tmp_path / "dangling.yaml", dangling), "missing 'Nowhere'"),
        "circular $ref": (write(tmp_path / "circular.yaml", circular), "refers back to itself"),
        "remote $ref": (write(tmp_path / "remote.yaml", remote), "only local references"),
        "operationId twice": (write(tmp_path / "twice.yaml", twice), "used twice"),
        "business rule without statement": (
            write(tmp_path / "rules.yaml", bad_rules),
            "has no statement",
        ),
        "too large": (big, "more than a contract"),
    }


def _text(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


BAD_FILES = [
    "missing", "directory", "not YAML", "binary", "YAML list", "empty", "Swagger 2",
    "paths not a map", "no operationId", "dangling $ref", "circular $ref", "remote $ref",
    "operationId twice", "business rule without statement", "too large",
]  # fmt: skip


@pytest.mark.parametrize("name", BAD_FILES)
def test_unusable_file_is_one_line_and_exit_2(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = write(tmp_path / "old.yaml", base())
    bad, message = _bad_files(tmp_path)[name]
    assert run(["diff", str(old), str(bad)]) == EXIT_UNUSABLE
    err = capsys.readouterr().err
    assert message.format(bad) in err, err
    assert err.startswith("billing-contract: error: ") and err.count("\n") == 1
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--fail-on", "critical"], "argument --fail-on: invalid choice: 'critical'"),
        (["--format", "pdf"], "argument --format: invalid choice: 'pdf'"),
        (["--output", "/nonexistent/dir/diff.md"], "directory /nonexistent/dir does not exist"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_bad_option_is_one_line_and_exit_2(
    extra: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = write(tmp_path / "old.yaml", base())
    assert run(["diff", str(old), str(old), *extra]) == EXIT_UNUSABLE
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_missing_argument_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["diff", str(write(tmp_path / "old.yaml", base()))]) == EXIT_UNUSABLE
    err = capsys.readouterr().err
    assert "the following arguments are required: NEW" in err and err.count("\n") == 1


def test_old_file_is_named_as_old(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    new = write(tmp_path / "new.yaml", base())
    assert run(["diff", str(tmp_path / "gone.yaml"), str(new)]) == EXIT_UNUSABLE
    assert f"OLD {tmp_path / 'gone.yaml'}: no such file" in capsys.readouterr().err
