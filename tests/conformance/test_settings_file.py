"""The settings file: every option but the keys is accepted, each with its strict YAML type.

The kit runs against someone's staging system, so `allow_writes: "false"` must be an error,
never a truthy string that enables writes; every option is tried with a value of its type
(accepted) and with a value of the wrong type (a one-line error naming the key).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from billing_toolkit.conformance.cli import build_parser
from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.runner import CHECK_NAMES
from billing_toolkit.conformance.settings import FILE_KEYS, SECRET_KEYS, build_settings
from billing_toolkit.conformance.settings_file import read_settings_file

README = Path(__file__).resolve().parents[2] / "conformance" / "README.md"
REQUIRED = {"base_url": "http://127.0.0.1:8080", "account_number": "1000004821"}

# key → (a value of the right YAML type, the setting it gives, a value of the wrong type)
OPTIONS: dict[str, tuple[Any, Any, Any]] = {
    "base_url": ("https://billing.example.com/", "https://billing.example.com", 8080),
    "account_number": ("1000004821", "1000004821", 1000004821),
    "customer_phone": ("+584121234567", "+584121234567", 584121234567),
    "invoice_number": ("INV-2026-004281", "INV-2026-004281", ["INV-2026-004281"]),
    "allow_writes": (True, True, "false"),
    "allow_fuzz_writes": (True, True, "yes"),
    "payment_amount": ("2.50", "2.50", 2.5),
    "checks": (["money", "totals"], frozenset({"money", "totals"}), {"money": True}),
    "max_examples": (25, 25, "25"),
    "fuzz_time": (30, 30, 30.5),
    "seed": (42, 42, True),
    "request_timeout": (2.5, 2.5, "2.5"),
    "rate_limit_probe": (5, 5, "five"),
    "retry_delay": (0.5, 0.5, "soon"),
    "fail_on_skip": (True, True, "true"),
    "require_all_rules": (True, True, "yes"),
    "junit_xml": ("out.xml", "out.xml", True),
    "report": ("out.md", "out.md", 1),
}


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "conformance.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def settings_from(tmp_path: Path, data: dict[str, Any]) -> Any:
    values = read_settings_file(write(tmp_path, data))
    return build_settings(values, known_checks=CHECK_NAMES, environ={"BILLING_API_KEY": "k"})


def test_the_table_covers_every_option_of_verify_but_the_keys() -> None:
    verify = build_parser()._subparsers._group_actions[0].choices["verify"]  # type: ignore[union-attr]
    dests = {action.dest for action in verify._actions} - {"help"}
    # --config names the file and --replay is another mode (judge a recording): no settings
    assert dests - SECRET_KEYS - {"config", "replay"} == FILE_KEYS == set(OPTIONS)


@pytest.mark.parametrize("key", sorted(OPTIONS))
def test_every_option_is_accepted_with_its_type(
    key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the output files are relative to the working directory
    good, expected, _ = OPTIONS[key]
    extra = {"allow_writes": True} if key == "allow_fuzz_writes" else {}
    settings = settings_from(tmp_path, {**REQUIRED, **extra, key: good})
    value = getattr(settings, key)
    shown = str(value) if key in ("junit_xml", "report", "payment_amount") else value
    assert shown == expected


@pytest.mark.parametrize("key", sorted(OPTIONS))
def test_every_option_refuses_the_wrong_type_naming_the_key(key: str, tmp_path: Path) -> None:
    _, _, bad = OPTIONS[key]
    with pytest.raises(KitError) as raised:
        settings_from(tmp_path, {**REQUIRED, key: bad})
    message = str(raised.value)
    assert f": {key} must be " in message and "\n" not in message


@pytest.mark.parametrize("text", ["false", "no", "off", "0", ""])
def test_a_string_never_enables_writes(text: str, tmp_path: Path) -> None:
    with pytest.raises(KitError, match=r"allow_writes must be true or false .* got the string"):
        settings_from(tmp_path, {**REQUIRED, "allow_writes": text})


def test_yaml_booleans_are_booleans(tmp_path: Path) -> None:
    path = tmp_path / "conformance.yaml"
    path.write_text(
        "base_url: http://127.0.0.1:8080\naccount_number: '1000004821'\nallow_writes: false\n"
    )
    values = read_settings_file(path)
    settings = build_settings(values, known_checks=CHECK_NAMES, environ={"BILLING_API_KEY": "k"})
    assert settings.allow_writes is False


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("allow_wirtes: true\n", "unknown key(s) 'allow_wirtes'"),
        ("api_key: sk_live_x\n", "keep keys out of files"),
        ("seed: 1\nseed: 2\n", "line 2, column 1: key 'seed' is given twice"),
        ("checks: [money\n", "is not valid YAML at line 2"),
        ("- base_url\n", "must hold a mapping"),
        ("seed:\n", "seed must be a whole number, got no value"),
        ("seed: 2024-01-01\n", "seed must be a whole number, got a date"),
        ("max_examples: .inf\n", "max_examples must be a whole number, got the number inf"),
    ],
)
def test_a_bad_file_is_one_line_naming_the_key_or_line(
    text: str, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "conformance.yaml"
    path.write_text(text)
    with pytest.raises(KitError) as raised:
        read_settings_file(path)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_the_readme_names_every_settings_file_key() -> None:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("**Settings file.**") : text.index("## Reading the result")]
    assert set(re.findall(r"`([a-z_]+)`", section)) >= FILE_KEYS
