"""Where the kit points, which data it may use and where it writes: flags, a YAML file, the env.

The production team's staging has no admin API, so the kit is told (or discovers through
the API) one account it may read, and optionally a phone and an invoice of that account.
API keys come from flags or the environment, never from the YAML file, so the file can be
committed next to the team's CI configuration.

Every value is parsed strictly, because the kit runs against someone's staging system and
must never do more than it was told: a YAML boolean is a boolean and the string "false" is
a type error (not a truthy string that enables writes), a number is a number, an unknown
key is an error. Bias: reject anything ambiguous, in one line naming the key, before a
single request is sent.
"""

from __future__ import annotations

import math
import os
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import yaml

from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.exchange import API_KEY_VARIABLE, OTHER_API_KEY_VARIABLE
from billing_toolkit.contract.formats import IdentifierFormat, contract_formats


class Kind(StrEnum):
    """The YAML type a settings-file key must have (what the error message asks for)."""

    TEXT = "a quoted string"
    FLAG = "true or false (a YAML boolean, unquoted)"
    WHOLE = "a whole number"
    NUMBER = "a number"
    NAMES = "a list of names"


# Every option of `billing-contract verify` but the API keys and --config, by key (the flag
# is the key with dashes: account_number ↔ --account-number). The CLI test proves it.
FILE_OPTIONS: dict[str, Kind] = {
    "base_url": Kind.TEXT,
    "account_number": Kind.TEXT,
    "customer_phone": Kind.TEXT,
    "invoice_number": Kind.TEXT,
    "allow_writes": Kind.FLAG,
    "allow_fuzz_writes": Kind.FLAG,
    "payment_amount": Kind.TEXT,
    "checks": Kind.NAMES,
    "max_examples": Kind.WHOLE,
    "fuzz_time": Kind.WHOLE,
    "seed": Kind.WHOLE,
    "request_timeout": Kind.NUMBER,
    "rate_limit_probe": Kind.WHOLE,
    "retry_delay": Kind.NUMBER,
    "fail_on_skip": Kind.FLAG,
    "junit_xml": Kind.TEXT,
    "report": Kind.TEXT,
}
FILE_KEYS = frozenset(FILE_OPTIONS)
SECRET_KEYS = frozenset({"api_key", "other_tenant_key"})
# Every setting a flag can give: the file's keys plus the secrets.
SETTING_KEYS = FILE_KEYS | SECRET_KEYS

# Inclusive bounds of the numeric options: a typo must not fuzz for a week or flood staging.
WHOLE_BOUNDS: dict[str, tuple[int, int]] = {
    "max_examples": (1, 10_000),
    "fuzz_time": (1, 86_400),
    "seed": (0, 2**63 - 1),
    "rate_limit_probe": (0, 10_000),
}
MAX_REQUEST_TIMEOUT_S = 600.0
MAX_RETRY_DELAY_S = 300.0
MAX_SETTINGS_BYTES = 64 * 1024
MAX_URL_CHARS = 2048
MAX_QUOTED_CHARS = 60
REPORT_FORMATS = {".json": "json", ".md": "markdown"}

_WHOLE_TEXT = re.compile(r"-?[0-9]{1,20}")
_NUMBER_TEXT = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,9})?")


@dataclass(frozen=True)
class KitSettings:
    """Everything one run needs; built by `build_settings`, validated there."""

    base_url: str
    api_key: str
    other_tenant_key: str | None = None
    account_number: str | None = None
    customer_phone: str | None = None
    invoice_number: str | None = None
    allow_writes: bool = False
    allow_fuzz_writes: bool = False
    payment_amount: Decimal = Decimal("1.00")
    checks: frozenset[str] | None = None
    max_examples: int = 10
    fuzz_time: int | None = None
    seed: int = 0
    request_timeout: float = 10.0
    rate_limit_probe: int = 0
    retry_delay: float = 3.0
    fail_on_skip: bool = False
    junit_xml: Path | None = None
    report: Path | None = None
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])

    @property
    def secrets(self) -> dict[str, str]:
        """Secret value → environment variable printed in its place in curl commands."""
        masked = {self.api_key: API_KEY_VARIABLE}
        if self.other_tenant_key:
            masked[self.other_tenant_key] = OTHER_API_KEY_VARIABLE
        return masked

    def selected(self, check_name: str) -> bool:
        return self.checks is None or check_name in self.checks


@dataclass(frozen=True)
class Outputs:
    """Where the run's files go; known (and written) even when the run cannot start."""

    junit_xml: Path | None = None
    report: Path | None = None


def flag(key: str) -> str:
    """The command-line spelling of a setting key (`max_examples` → `--max-examples`)."""
    return "--" + key.replace("_", "-")


def quoted(value: object) -> str:
    """`repr(value)` cut to a length an error line can carry (inputs can be huge)."""
    text = repr(value)
    return text if len(text) <= MAX_QUOTED_CHARS else text[: MAX_QUOTED_CHARS - 1] + "…"


class _StrictLoader(yaml.SafeLoader):
    """PyYAML's safe loader, except that a key given twice is an error, not "last wins"."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[object] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, str) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} is given twice", key_node.start_mark
                )
            seen.add(key if isinstance(key, str) else id(key))
        return super().construct_mapping(node, deep=deep)


def read_settings_file(path: Path) -> dict[str, Any]:
    """The YAML settings file as a dict of known keys with values of their kind; anything
    else (unreadable, too big, not YAML, a key twice, unknown, mistyped) is a one-line error."""
    data = parse_settings_file(path)
    check_file_values(path, data)
    return data


def parse_settings_file(path: Path) -> dict[str, Any]:
    """The YAML mapping of the file, keys unchecked but API keys refused (one-line errors);
    the CLI reads it in two steps so the output paths of a mistyped file still get files."""
    try:
        if path.exists() and not path.is_file():  # a directory, a FIFO, /dev/zero
            raise KitError(f"cannot read settings file {path}: not a regular file")
        if path.stat().st_size > MAX_SETTINGS_BYTES:
            raise KitError(f"settings file {path} is larger than {MAX_SETTINGS_BYTES} bytes")
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise KitError(f"cannot read settings file {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise KitError(f"settings file {path} is not UTF-8 text (byte {exc.start})") from exc
    try:
        data = yaml.load(text, Loader=_StrictLoader)  # a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = exc.problem or exc.context or "syntax error"
        raise KitError(f"settings file {path} is not valid YAML{where}: {problem}") from exc
    except yaml.YAMLError as exc:
        raise KitError(f"settings file {path} is not valid YAML: {exc}") from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise KitError(f"settings file {path} must hold a mapping of settings (key: value)")
    if SECRET_KEYS & data.keys():
        raise KitError(
            f"settings file {path} holds an API key: keep keys out of files, "
            f"use --api-key or ${API_KEY_VARIABLE}"
        )
    return data


def check_file_values(path: Path, data: Mapping[Any, Any]) -> None:
    """A one-line error for the first unknown key or value of the wrong YAML kind."""
    unknown = sorted(str(key) for key in data if key not in FILE_KEYS)
    if unknown:
        raise KitError(
            f"settings file {path}: unknown key(s) {', '.join(map(quoted, unknown))} "
            f"(known: {', '.join(sorted(FILE_KEYS))})"
        )
    for key, value in data.items():
        problem = file_type_problem(FILE_OPTIONS[key], value)
        if problem:
            raise KitError(f"settings file {path}: {key} must be {FILE_OPTIONS[key]}, {problem}")


def file_type_problem(kind: Kind, value: object) -> str | None:
    """Why `value` (as YAML parsed it) is not of `kind`, or None when it is."""
    match kind:
        case Kind.FLAG:
            ok = isinstance(value, bool)
        case Kind.WHOLE:
            ok = isinstance(value, int) and not isinstance(value, bool)
        case Kind.NUMBER:
            ok = isinstance(value, int | float) and not isinstance(value, bool)
        case Kind.TEXT:
            ok = isinstance(value, str)
        case Kind.NAMES:
            ok = isinstance(value, str) or (
                isinstance(value, list) and all(isinstance(name, str) for name in value)
            )
    if ok:
        return None
    return f"got {_yaml_type(value)} {quoted(value)}" if value is not None else "got no value"


def _yaml_type(value: object) -> str:
    if isinstance(value, bool):
        return "the boolean"
    if isinstance(value, int | float):
        return "the number"
    if isinstance(value, str):
        return "the string"
    if isinstance(value, list):
        return "the list"
    if isinstance(value, dict):
        return "the mapping"
    return f"a {type(value).__name__}"


def build_settings(
    values: Mapping[str, Any],
    *,
    known_checks: frozenset[str],
    environ: Mapping[str, str] = os.environ,
) -> KitSettings:
    """Validate merged flag/file values into settings; every problem is a `KitError`.

    `values` holds flag values over file values (None = not given); flags arrive as text
    (`--max-examples 5`), the file's values as the YAML types `read_settings_file` checked.
    Keys fall back to the environment. Identifiers and the payment amount must have the
    contract's own formats (read from it, so a format changed there is enforced here too).
    """
    base_url = _required_url(values.get("base_url"))
    api_key = values.get("api_key") or environ.get(API_KEY_VARIABLE)
    if not api_key:
        raise KitError(f"an API key is required: pass --api-key or set ${API_KEY_VARIABLE}")
    other_key = values.get("other_tenant_key") or environ.get(OTHER_API_KEY_VARIABLE) or None
    if other_key is not None and other_key == api_key:
        raise KitError("--other-tenant-key must be another tenant's key, not the same key")
    outputs = output_paths(values)
    fuzz_time = values.get("fuzz_time")
    settings = KitSettings(
        base_url=base_url,
        api_key=api_key,
        other_tenant_key=other_key,
        account_number=_identifier(values, "account_number", IdentifierFormat.ACCOUNT_NUMBER),
        customer_phone=_identifier(values, "customer_phone", IdentifierFormat.PHONE),
        invoice_number=_identifier(values, "invoice_number", IdentifierFormat.INVOICE_NUMBER),
        allow_writes=_flag(values, "allow_writes"),
        allow_fuzz_writes=_flag(values, "allow_fuzz_writes"),
        payment_amount=_payment_amount(values.get("payment_amount")),
        checks=_checks(values.get("checks"), known_checks),
        max_examples=_whole(values, "max_examples", default=10),
        fuzz_time=None if fuzz_time is None else _whole(values, "fuzz_time", default=0),
        seed=_whole(values, "seed", default=0),
        request_timeout=_request_timeout(values.get("request_timeout")),
        rate_limit_probe=_whole(values, "rate_limit_probe", default=0),
        retry_delay=_retry_delay(values.get("retry_delay")),
        fail_on_skip=_flag(values, "fail_on_skip"),
        junit_xml=outputs.junit_xml,
        report=outputs.report,
    )
    if settings.account_number is None and settings.customer_phone is None:
        raise KitError(
            "name the test data: pass --account-number or --customer-phone "
            "(an account of the API key's tenant that the kit may read)"
        )
    if settings.allow_fuzz_writes and not settings.allow_writes:
        raise KitError("--allow-fuzz-writes needs --allow-writes too (both must be explicit)")
    return settings


def output_paths(values: Mapping[str, Any]) -> Outputs:
    """The JUnit and report paths of `values`, each in an existing directory (the report's
    name ending in .json or .md): checked before the run so its result is never lost."""
    junit = _output_path(values.get("junit_xml"), "junit_xml")
    report = _output_path(values.get("report"), "report")
    if report is not None and report.suffix.lower() not in REPORT_FORMATS:
        raise KitError(f"--report {report}: the file name must end in .json or .md")
    return Outputs(junit_xml=junit, report=report)


def _output_path(value: object, key: str) -> Path | None:
    if value is None:
        return None
    if not isinstance(value, str | Path) or str(value).strip() == "":
        raise KitError(f"{flag(key)} must be a file name, got {quoted(value)}")
    path = Path(value)
    if path.is_dir():
        raise KitError(f"{flag(key)} {path} is a directory; give a file name")
    if not path.parent.is_dir():
        raise KitError(f"{flag(key)} {path}: directory {path.parent} does not exist")
    return path


def _required_url(value: object) -> str:
    if value is None or value == "":
        raise KitError("--base-url is required (for example http://127.0.0.1:8080)")
    if not isinstance(value, str) or len(value) > MAX_URL_CHARS:
        raise KitError(f"--base-url must be an http(s) URL, got {quoted(value)}")
    url = value.rstrip("/")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port out of range
        httpx.URL(url)
    except (ValueError, httpx.InvalidURL) as exc:
        raise KitError(f"--base-url {quoted(value)} is not a valid URL: {exc}") from exc
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise KitError(f"--base-url must be an http(s) URL, got {quoted(value)}")
    if parts.username is not None or parts.password is not None:
        raise KitError("--base-url must not carry credentials: give the key with --api-key")
    if parts.query or parts.fragment or any(ch.isspace() for ch in url):
        raise KitError(
            f"--base-url must be a plain base URL (no query, no spaces), got {quoted(value)}"
        )
    return url


def _identifier(values: Mapping[str, Any], key: str, kind: IdentifierFormat) -> str | None:
    """The identifier setting `key` (given as flag `--key`), in the contract's `kind` format."""
    value = values.get(key)
    if value in (None, ""):
        return None
    pattern = contract_formats().identifier(kind)
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise KitError(
            f"{flag(key)} {quoted(value)} does not match the contract's format {pattern.pattern}"
        )
    return value


def _payment_amount(value: object) -> Decimal:
    if value is None:
        return Decimal("1.00")
    if not isinstance(value, str) or not contract_formats().positive_amount.fullmatch(value):
        raise KitError(
            f"--payment-amount {quoted(value)} must be a positive amount like 1.00 (a string)"
        )
    return Decimal(value)


def _checks(value: object, known: frozenset[str]) -> frozenset[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        names: list[Any] = value.split(",")
    elif isinstance(value, list):
        names = value
    else:
        raise KitError(f"--checks must be names separated by commas, got {quoted(value)}")
    chosen = frozenset(str(name).strip() for name in names if str(name).strip())
    if not chosen:
        raise KitError(f"--checks names no check; known: {', '.join(sorted(known))}")
    unknown = sorted(chosen - known)
    if unknown:
        shown = ", ".join(quoted(name).strip("'") for name in unknown[:5])
        raise KitError(f"unknown check(s) {shown}; known: {', '.join(sorted(known))}")
    return chosen


def _flag(values: Mapping[str, Any], key: str) -> bool:
    """A boolean option: True/False or absent (False); a string such as "false" is an error."""
    value = values.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise KitError(f"{flag(key)} must be true or false, got {quoted(value)}")
    return value


def _whole(values: Mapping[str, Any], key: str, *, default: int) -> int:
    """A whole-number option within `WHOLE_BOUNDS[key]`: an int, or digits from a flag."""
    value = values.get(key)
    if value is None:
        return default
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and _WHOLE_TEXT.fullmatch(value):
        number = int(value)
    else:
        raise KitError(f"{flag(key)} must be a whole number, got {quoted(value)}")
    low, high = WHOLE_BOUNDS[key]
    if number < low:
        raise KitError(f"{flag(key)} must be at least {low}, got {number}")
    if number > high:
        raise KitError(f"{flag(key)} must be at most {high}, got {quoted(number)}")
    return number


def _retry_delay(value: object) -> float:
    """Seconds between a payment and its delayed idempotent retry: 0 to `MAX_RETRY_DELAY_S`
    (the run waits that long once, so a typo must not stall CI)."""
    number = _seconds(value, "retry_delay", default=3.0)
    if not 0 <= number <= MAX_RETRY_DELAY_S:
        raise KitError(
            f"--retry-delay must be from 0 to {MAX_RETRY_DELAY_S:g} seconds, got {quoted(value)}"
        )
    return number


def _request_timeout(value: object) -> float:
    """Seconds per request: more than 0, at most `MAX_REQUEST_TIMEOUT_S` (never nan or inf)."""
    number = _seconds(value, "request_timeout", default=10.0)
    if not 0 < number <= MAX_REQUEST_TIMEOUT_S:
        raise KitError(
            f"--request-timeout must be more than 0 and at most {MAX_REQUEST_TIMEOUT_S:g} "
            f"seconds, got {quoted(value)}"
        )
    return number


def _seconds(value: object, key: str, *, default: float) -> float:
    """A finite number of seconds: a number, or plain digits from a flag (no sign, no
    exponent, no nan or inf); `default` when absent. The caller checks its range."""
    if value is None:
        return default
    numeric = isinstance(value, int | float) and not isinstance(value, bool)
    if not numeric and not (isinstance(value, str) and _NUMBER_TEXT.fullmatch(value)):
        raise KitError(f"{flag(key)} must be a number of seconds, got {quoted(value)}")
    number = float(value)  # type: ignore[arg-type]  # a number or its digits, checked above
    if not math.isfinite(number):
        raise KitError(f"{flag(key)} must be a finite number of seconds, got {quoted(value)}")
    return number
