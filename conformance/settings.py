"""Where the kit points and which data it may use: flags, an optional YAML file, the env.

The production team's staging has no admin API, so the kit is told (or discovers through
the API) one account it may read, and optionally a phone and an invoice of that account.
API keys come from flags or the environment, never from the YAML file, so the file can be
committed next to the team's CI configuration.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.exchange import API_KEY_VARIABLE, OTHER_API_KEY_VARIABLE
from billing_toolkit.contract.formats import IdentifierFormat, contract_formats

SECRET_KEYS = frozenset({"api_key", "other_tenant_key"})
# Keys a YAML settings file may hold; API keys are deliberately absent.
FILE_KEYS = frozenset(
    {
        "base_url",
        "account_number",
        "customer_phone",
        "invoice_number",
        "allow_writes",
        "payment_amount",
        "checks",
        "max_examples",
        "fuzz_time",
        "seed",
        "request_timeout",
        "rate_limit_probe",
    }
)
# Every setting a flag can give: the file's keys plus the secrets.
SETTING_KEYS = FILE_KEYS | SECRET_KEYS


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
    payment_amount: Decimal = Decimal("1.00")
    checks: frozenset[str] | None = None
    max_examples: int = 10
    fuzz_time: int | None = None
    seed: int = 0
    request_timeout: float = 10.0
    rate_limit_probe: int = 0
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


def read_settings_file(path: Path) -> dict[str, Any]:
    """The YAML settings file as a dict of known keys; anything else is a one-line error."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise KitError(f"cannot read settings file {path}: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise KitError(f"settings file {path} is not valid YAML") from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise KitError(f"settings file {path} must hold a mapping of settings")
    if SECRET_KEYS & data.keys():
        raise KitError(
            f"settings file {path} holds an API key: keep keys out of files, "
            f"use --api-key or ${API_KEY_VARIABLE}"
        )
    unknown = sorted(set(data) - FILE_KEYS)
    if unknown:
        raise KitError(f"settings file {path}: unknown key(s) {', '.join(unknown)}")
    return data


def build_settings(
    values: Mapping[str, Any],
    *,
    known_checks: frozenset[str],
    environ: Mapping[str, str] = os.environ,
) -> KitSettings:
    """Validate merged flag/file values into settings; every problem is a `KitError`.

    `values` holds flag values over file values (None = not given); keys fall back to the
    environment. Identifiers and the payment amount must have the contract's own formats
    (read from it, so a format changed there is enforced here too). Bias: reject anything
    ambiguous before a single request is sent.
    """
    base_url = _required_url(values.get("base_url"))
    api_key = values.get("api_key") or environ.get(API_KEY_VARIABLE)
    if not api_key:
        raise KitError(f"an API key is required: pass --api-key or set ${API_KEY_VARIABLE}")
    other_key = values.get("other_tenant_key") or environ.get(OTHER_API_KEY_VARIABLE) or None
    if other_key is not None and other_key == api_key:
        raise KitError("--other-tenant-key must be another tenant's key, not the same key")
    settings = KitSettings(
        base_url=base_url,
        api_key=api_key,
        other_tenant_key=other_key,
        account_number=_identifier(values, "account_number", IdentifierFormat.ACCOUNT_NUMBER),
        customer_phone=_identifier(values, "customer_phone", IdentifierFormat.PHONE),
        invoice_number=_identifier(values, "invoice_number", IdentifierFormat.INVOICE_NUMBER),
        allow_writes=bool(values.get("allow_writes") or False),
        payment_amount=_payment_amount(values.get("payment_amount")),
        checks=_checks(values.get("checks"), known_checks),
        max_examples=_positive_int(values.get("max_examples"), "--max-examples", default=10),
        fuzz_time=_optional_positive_int(values.get("fuzz_time"), "--fuzz-time"),
        seed=_int(values.get("seed"), "--seed", default=0),
        request_timeout=_positive_float(values.get("request_timeout"), "--request-timeout", 10.0),
        rate_limit_probe=_int(values.get("rate_limit_probe"), "--rate-limit-probe", default=0),
    )
    if settings.account_number is None and settings.customer_phone is None:
        raise KitError(
            "name the test data: pass --account-number or --customer-phone "
            "(an account of the API key's tenant that the kit may read)"
        )
    if settings.rate_limit_probe < 0:
        raise KitError("--rate-limit-probe must be zero or more")
    return settings


def _required_url(value: object) -> str:
    if not value:
        raise KitError("--base-url is required (for example http://127.0.0.1:8080)")
    url = str(value).rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise KitError(f"--base-url must be an http(s) URL, got {value!r}")
    return url


def _identifier(values: Mapping[str, Any], key: str, kind: IdentifierFormat) -> str | None:
    """The identifier setting `key` (given as flag `--key`), in the contract's `kind` format."""
    value = values.get(key)
    if value in (None, ""):
        return None
    text = str(value)
    pattern = contract_formats().identifier(kind)
    if not pattern.fullmatch(text):
        flag = "--" + key.replace("_", "-")
        raise KitError(f"{flag} {text!r} does not match the contract's format {pattern.pattern}")
    return text


def _payment_amount(value: object) -> Decimal:
    if value in (None, ""):
        return Decimal("1.00")
    text = str(value)
    if not contract_formats().positive_amount.fullmatch(text):
        raise KitError(f"--payment-amount {text!r} must be a positive amount like 1.00")
    try:
        return Decimal(text)
    except InvalidOperation as exc:  # pragma: no cover - the pattern already guarantees it
        raise KitError(f"--payment-amount {text!r} is not a number") from exc


def _checks(value: object, known: frozenset[str]) -> frozenset[str] | None:
    if value in (None, "", []):
        return None
    names = value if isinstance(value, list) else str(value).split(",")
    chosen = frozenset(str(name).strip() for name in names if str(name).strip())
    unknown = sorted(chosen - known)
    if unknown:
        raise KitError(f"unknown check(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    return chosen


def _int(value: object, flag: str, *, default: int) -> int:
    if value in (None, ""):
        return default
    try:
        return int(str(value))
    except ValueError as exc:
        raise KitError(f"{flag} must be a whole number, got {value!r}") from exc


def _positive_int(value: object, flag: str, *, default: int) -> int:
    number = _int(value, flag, default=default)
    if number < 1:
        raise KitError(f"{flag} must be at least 1, got {number}")
    return number


def _optional_positive_int(value: object, flag: str) -> int | None:
    if value in (None, ""):
        return None
    return _positive_int(value, flag, default=1)


def _positive_float(value: object, flag: str, default: float) -> float:
    if value in (None, ""):
        return default
    try:
        number = float(str(value))
    except ValueError as exc:
        raise KitError(f"{flag} must be a number of seconds, got {value!r}") from exc
    if number <= 0:
        raise KitError(f"{flag} must be more than 0 seconds, got {value!r}")
    return number
