"""Every bad argument of `billing-contract` is one line on stderr and exit 2, never a traceback.

One table, run through `main` as a user's shell would: bad URLs, bad numbers, unknown check
names, identifiers off the contract's formats, unusable output paths, settings files that
cannot be read or parsed, and argparse's own usage errors. None of them sends a request.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from billing_toolkit.conformance.cli import main
from billing_toolkit.contract.cli import EXIT_USAGE

TARGET = ["--base-url", "http://127.0.0.1:9", "--api-key", "k"]
ACCOUNT = ["--account-number", "1000004821"]
Argv = Callable[[Path], list[str]]


def verify(*args: str) -> Argv:
    """`verify` with a target and an account, plus `args` (later flags win)."""
    return lambda _: ["verify", *TARGET, *ACCOUNT, *args]


def with_file(text: str | bytes, *args: str) -> Argv:
    """`verify --config FILE` where FILE holds `text`."""

    def argv(tmp_path: Path) -> list[str]:
        path = tmp_path / "conformance.yaml"
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        return ["verify", *TARGET, *ACCOUNT, "--config", str(path), *args]

    return argv


def raw(*args: str) -> Argv:
    return lambda _: list(args)


BAD: list[tuple[str, Argv, str]] = [
    # base URLs
    ("url-ftp", verify("--base-url", "ftp://x"), "--base-url must be an http(s) URL"),
    ("url-no-host", verify("--base-url", "http://"), "--base-url must be an http(s) URL"),
    ("url-words", verify("--base-url", "not a url"), "--base-url must be an http(s) URL"),
    ("url-port-high", verify("--base-url", "http://127.0.0.1:99999"), "is not a valid URL"),
    ("url-port-negative", verify("--base-url", "http://127.0.0.1:-1"), "is not a valid URL"),
    ("url-port-text", verify("--base-url", "http://127.0.0.1:http"), "is not a valid URL"),
    ("url-ipv6", verify("--base-url", "http://[::1"), "is not a valid URL"),
    ("url-space", verify("--base-url", "http://exa mple.com"), "URL"),
    ("url-credentials", verify("--base-url", "http://u:pw@h.test"), "must not carry credentials"),
    ("url-query", verify("--base-url", "http://h.test/?a=1"), "no query"),
    ("url-empty", verify("--base-url", ""), "--base-url is required"),
    ("url-huge", verify("--base-url", "http://h.test/" + "a" * 5000), "must be an http(s) URL"),
    ("url-missing", raw("verify", "--api-key", "k", *ACCOUNT), "--base-url is required"),
    # numbers
    ("examples-word", verify("--max-examples", "abc"), "--max-examples must be a whole number"),
    ("examples-zero", verify("--max-examples", "0"), "--max-examples must be at least 1"),
    ("examples-negative", verify("--max-examples", "-1"), "--max-examples must be at least 1"),
    ("examples-float", verify("--max-examples", "1e3"), "--max-examples must be a whole number"),
    ("examples-space", verify("--max-examples", " 5"), "--max-examples must be a whole number"),
    ("examples-empty", verify("--max-examples", ""), "--max-examples must be a whole number"),
    ("examples-huge", verify("--max-examples", "9" * 30), "--max-examples must be a whole number"),
    ("examples-high", verify("--max-examples", "10001"), "--max-examples must be at most 10000"),
    ("fuzz-zero", verify("--fuzz-time", "0"), "--fuzz-time must be at least 1"),
    ("fuzz-week", verify("--fuzz-time", "604800"), "--fuzz-time must be at most 86400"),
    ("seed-negative", verify("--seed", "-1"), "--seed must be at least 0"),
    ("seed-fraction", verify("--seed", "1.5"), "--seed must be a whole number"),
    ("seed-huge", verify("--seed", "9" * 20), "--seed must be at most"),
    ("timeout-nan", verify("--request-timeout", "nan"), "--request-timeout must be a number"),
    ("timeout-inf", verify("--request-timeout", "inf"), "--request-timeout must be a number"),
    ("timeout-zero", verify("--request-timeout", "0"), "--request-timeout must be more than 0"),
    ("timeout-negative", verify("--request-timeout", "-5"), "--request-timeout must be a number"),
    ("timeout-hour", verify("--request-timeout", "3600"), "at most 600 seconds"),
    ("probe-negative", verify("--rate-limit-probe", "-5"), "--rate-limit-probe must be at least"),
    ("probe-high", verify("--rate-limit-probe", "100000"), "--rate-limit-probe must be at most"),
    ("amount-zero", verify("--payment-amount", "0.00"), "--payment-amount '0.00' must be"),
    ("amount-negative", verify("--payment-amount", "-1.00"), "--payment-amount '-1.00' must"),
    ("amount-exponent", verify("--payment-amount", "1e3"), "--payment-amount '1e3' must be"),
    ("amount-nan", verify("--payment-amount", "NaN"), "--payment-amount 'NaN' must be"),
    ("amount-one-decimal", verify("--payment-amount", "1.5"), "--payment-amount '1.5' must be"),
    # checks
    ("checks-unknown", verify("--checks", "money,telepathy"), "unknown check(s) telepathy"),
    ("checks-empty", verify("--checks", ",,,"), "--checks names no check"),
    ("checks-huge", verify("--checks", "x" * 10_000), "unknown check(s) xxxxx"),
    # identifiers and keys
    ("account-zero", verify("--account-number", "0123456789"), "does not match the contract"),
    ("account-short", verify("--account-number", "12345"), "does not match the contract"),
    ("phone-local", verify("--customer-phone", "04121234567"), "does not match the contract"),
    ("invoice-bare", verify("--invoice-number", "4281"), "--invoice-number '4281' does not"),
    ("same-tenant-key", verify("--other-tenant-key", "k"), "must be another tenant's key"),
    ("no-key", raw("verify", "--base-url", "http://h.test", *ACCOUNT), "an API key is required"),
    ("no-test-data", raw("verify", *TARGET), "name the test data"),
    ("fuzz-writes-alone", verify("--allow-fuzz-writes"), "--allow-fuzz-writes needs"),
    # outputs
    ("junit-no-dir", verify("--junit-xml", "/nonexistent/x.xml"), "does not exist"),
    ("report-pdf", verify("--report", "out.pdf"), "must end in .json or .md"),
    ("report-dir", lambda tmp: [*verify()(tmp), "--report", str(tmp)], "is a directory"),
    # settings files
    ("config-missing", verify("--config", "/nonexistent/c.yaml"), "cannot read settings file"),
    ("config-dir", lambda tmp: [*verify()(tmp), "--config", str(tmp)], "cannot read settings"),
    ("config-device", verify("--config", "/dev/zero"), "not a regular file"),
    ("config-binary", with_file(b"\xff\xfe\x00seed: 1"), "is not UTF-8 text"),
    ("config-syntax", with_file("seed: 1\nchecks: [money\n"), "not valid YAML at line 3"),
    ("config-tab", with_file("seed: 1\n\tfuzz_time: 2\n"), "not valid YAML at line 2"),
    ("config-list", with_file("- seed\n"), "must hold a mapping"),
    ("config-unknown", with_file("allow_wirtes: true\n"), "unknown key(s) 'allow_wirtes'"),
    ("config-string-bool", with_file('allow_writes: "false"\n'), "allow_writes must be true"),
    ("config-string-no", with_file("allow_writes: 'no'\n"), "allow_writes must be true"),
    ("config-string-number", with_file('max_examples: "25"\n'), "max_examples must be a whole"),
    ("config-float-money", with_file("payment_amount: 1.00\n"), "payment_amount must be a quoted"),
    ("config-int-account", with_file("account_number: 1000004821\n"), "account_number must be"),
    ("config-duplicate", with_file("seed: 1\nseed: 2\n"), "line 2, column 1: key 'seed'"),
    ("config-api-key", with_file("api_key: sk_live_1\n"), "keep keys out of files"),
    ("config-huge", with_file("# " + "x" * 70_000 + "\n"), "is larger than"),
    ("config-bad-value", with_file("max_examples: 0\n"), "--max-examples must be at least 1"),
    # argparse's own usage errors
    ("unknown-flag", verify("--bogus"), "unrecognized arguments: --bogus"),
    ("no-command", raw(), "the following arguments are required: command"),
    ("unknown-command", raw("frobnicate"), "invalid choice: 'frobnicate'"),
    ("flag-without-value", raw("verify", "--max-examples"), "expected one argument"),
]


@pytest.mark.parametrize(
    ("argv", "message"), [(a, m) for _, a, m in BAD], ids=[i for i, _, _ in BAD]
)
def test_bad_argument_is_one_line_and_exit_2(
    argv: Argv,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("BILLING_API_KEY", raising=False)
    monkeypatch.delenv("BILLING_OTHER_API_KEY", raising=False)
    monkeypatch.chdir(tmp_path)
    try:
        code = main(argv(tmp_path))
    except SystemExit as exc:  # argparse's own errors exit from inside parse_args
        code = exc.code
    captured = capsys.readouterr()
    assert code == EXIT_USAGE
    # argparse's errors inside `verify` name the sub-command, as every toolkit program's do
    assert re.match(r"billing-contract( verify)?: error: ", captured.err), captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert message in captured.err
    # a huge input is quoted cut short (the line also lists every known check, ~750 chars)
    assert len(captured.err) < 1000
    assert captured.out == ""


def test_the_table_tries_many_bad_inputs() -> None:
    assert len(BAD) >= 70


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("billing-contract ") and out.split()[1][0].isdigit()
