"""Where the kit points, which data it may use and where it writes: one pydantic model.

The production team's staging has no admin API, so the kit is told (or discovers through
the API) one account it may read, and optionally a phone and an invoice of that account.
API keys come from flags or the environment, never from the YAML file (`settings_file`), so
the file can be committed next to the team's CI configuration.

Every value is parsed strictly, because the kit runs against someone's staging system and
must never do more than it was told: the model is strict (a boolean is a boolean, the string
"false" is a type error), the only text it converts is a flag's digits (`--seed 42`), an
unknown key is an error and every number has bounds. Bias: reject anything ambiguous, in one
line naming the setting, before a single request is sent.
"""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Callable, Mapping
from decimal import Decimal
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Self, get_args
from urllib.parse import urlsplit

import httpx
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    model_validator,
)
from pydantic.fields import FieldInfo

from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.exchange import API_KEY_VARIABLE, OTHER_API_KEY_VARIABLE
from billing_toolkit.contract.cli import one_line
from billing_toolkit.contract.formats import IdentifierFormat, contract_formats

MAX_URL_CHARS = 2048
MAX_QUOTED_CHARS = 60
REPORT_FORMATS = {".json": "json", ".md": "markdown"}

_WHOLE_TEXT = re.compile(r"-?[0-9]{1,20}")
_NUMBER_TEXT = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,9})?")  # no sign, exponent, nan or inf


class Kind(StrEnum):
    """What a setting must be, in the words its error asks for; a field's `Kind` marker also
    makes it a settings-file key (the secrets and the run id have none)."""

    TEXT = "a quoted string"
    FLAG = "true or false (a YAML boolean, unquoted)"
    WHOLE = "a whole number"
    SECONDS = "a number of seconds"
    NAMES = "a list of names"


def flag(key: str) -> str:
    """The command-line spelling of a setting key (`max_examples` → `--max-examples`)."""
    return "--" + key.replace("_", "-")


def quoted(value: object) -> str:
    """`repr(value)` cut to a length an error line can carry (inputs can be huge)."""
    text = repr(value)
    return text if len(text) <= MAX_QUOTED_CHARS else text[: MAX_QUOTED_CHARS - 1] + "…"


def _from_text(pattern: re.Pattern[str], number: Callable[[str], object]) -> BeforeValidator:
    """A flag's text (`--seed 42`) read as a number when all of it matches `pattern`; any
    other value is left to the strict type, whose refusal names the kind."""
    return BeforeValidator(
        lambda value: (
            number(value) if isinstance(value, str) and pattern.fullmatch(value) else value
        )
    )


def _base_url(value: object) -> str:
    if value is None or value == "":
        raise ValueError("--base-url is required (for example http://127.0.0.1:8080)")
    if not isinstance(value, str) or len(value) > MAX_URL_CHARS:
        raise ValueError(f"--base-url must be an http(s) URL, got {quoted(value)}")
    url = value.rstrip("/")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port out of range
        httpx.URL(url)
    except (ValueError, httpx.InvalidURL) as exc:
        raise ValueError(f"--base-url {quoted(value)} is not a valid URL: {exc}") from exc
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"--base-url must be an http(s) URL, got {quoted(value)}")
    if parts.username is not None or parts.password is not None:
        raise ValueError("--base-url must not carry credentials: give the key with --api-key")
    if parts.query or parts.fragment or any(ch.isspace() for ch in url):
        raise ValueError(
            f"--base-url must be a plain base URL (no query, no spaces), got {quoted(value)}"
        )
    return url


def _api_key(value: object) -> object:
    if not value:
        raise ValueError(f"an API key is required: pass --api-key or set ${API_KEY_VARIABLE}")
    return value


def _identifier(kind: IdentifierFormat) -> BeforeValidator:
    """An identifier in the contract's `kind` format (read from it, so a format changed there
    is enforced here too); empty is not given."""

    def check(value: object, info: ValidationInfo) -> str | None:
        if value == "":
            return None
        pattern = contract_formats().identifier(kind)
        if not isinstance(value, str) or not pattern.fullmatch(value):
            raise ValueError(
                f"{flag(info.field_name or '')} {quoted(value)} does not match the contract's "
                f"format {pattern.pattern}"
            )
        return value

    return BeforeValidator(check)


def _payment_amount(value: object) -> Decimal:
    if not isinstance(value, str) or not contract_formats().positive_amount.fullmatch(value):
        raise ValueError(
            f"--payment-amount {quoted(value)} must be a positive amount like 1.00 (a string)"
        )
    return Decimal(value)


def _checks(value: object, info: ValidationInfo) -> frozenset[str]:
    """Check names, comma-separated (a flag) or a list (the file), each one the kit knows
    (`known_checks` in the validation context)."""
    known: frozenset[str] = (info.context or {}).get("known_checks", frozenset())
    if isinstance(value, str):
        names: list[object] = list(value.split(","))
    elif isinstance(value, list):
        names = list(value)
    else:
        raise ValueError(  # noqa: TRY004 - pydantic refuses (one line) only on ValueError
            f"--checks must be names separated by commas, got {quoted(value)}"
        )
    chosen = frozenset(str(name).strip() for name in names if str(name).strip())
    if not chosen:
        raise ValueError(f"--checks names no check; known: {_listed(known)}")
    unknown = sorted(chosen - known)
    if unknown:
        shown = ", ".join(quoted(name).strip("'") for name in unknown[:5])
        raise ValueError(f"unknown check(s) {shown}; known: {_listed(known)}")
    return chosen


def _listed(known: frozenset[str]) -> str:
    """The known names, rule ids folded by family (`balance.{amount_due,net}`), so the
    one-line error stays short as the contract gains rules."""
    families: dict[str, list[str]] = {}
    for name in sorted(known):
        family, _, rest = name.partition(".")
        families.setdefault(family, []).append(rest)
    shown: list[str] = []
    for family, parts in families.items():
        rules = [part for part in parts if part]
        if "" in parts:
            shown.append(family)
        if len(rules) == 1:
            shown.append(f"{family}.{rules[0]}")
        elif rules:
            shown.append(f"{family}.{{{','.join(rules)}}}")
    return ", ".join(shown)


def _output_path(value: object, info: ValidationInfo) -> Path | None:
    """A file to write in an existing directory (None: none): checked before the run, so that
    its result is never lost to a typo in the path."""
    if value is None:
        return None
    key = flag(info.field_name or "")
    if not isinstance(value, str | Path) or str(value).strip() == "":
        raise ValueError(f"{key} must be a file name, got {quoted(value)}")
    path = Path(value)
    if path.is_dir():
        raise ValueError(f"{key} {path} is a directory; give a file name")
    if not path.parent.is_dir():
        raise ValueError(f"{key} {path}: directory {path.parent} does not exist")
    return path


def _report_format(path: Path | None) -> Path | None:
    if path is not None and path.suffix.lower() not in REPORT_FORMATS:
        raise ValueError(f"--report {path}: the file name must end in .json or .md")
    return path


Text = Annotated[str, Kind.TEXT]
Flag = Annotated[bool, Kind.FLAG]
Whole = Annotated[int, Kind.WHOLE, _from_text(_WHOLE_TEXT, int)]
Seconds = Annotated[
    float, Kind.SECONDS, _from_text(_NUMBER_TEXT, float), Field(allow_inf_nan=False)
]
JunitPath = Annotated[Path | None, Kind.TEXT, BeforeValidator(_output_path)]
ReportPath = Annotated[JunitPath, AfterValidator(_report_format)]


class Outputs(BaseModel):
    """Where the run's files go; known (and written) even when the run cannot start."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    junit_xml: JunitPath = None
    report: ReportPath = None


class KitSettings(BaseModel):
    """Everything one run needs; built by `build_settings` from flags over file values."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    base_url: Annotated[Text, BeforeValidator(_base_url)] = Field(default="", validate_default=True)
    api_key: Annotated[str, BeforeValidator(_api_key)] = Field(default="", validate_default=True)
    other_tenant_key: str | None = None
    account_number: Annotated[Text | None, _identifier(IdentifierFormat.ACCOUNT_NUMBER)] = None
    customer_phone: Annotated[Text | None, _identifier(IdentifierFormat.PHONE)] = None
    invoice_number: Annotated[Text | None, _identifier(IdentifierFormat.INVOICE_NUMBER)] = None
    allow_writes: Flag = False
    allow_fuzz_writes: Flag = False
    payment_amount: Annotated[Decimal, Kind.TEXT, BeforeValidator(_payment_amount)] = Decimal(
        "1.00"
    )
    checks: Annotated[frozenset[str] | None, Kind.NAMES, BeforeValidator(_checks)] = None
    # Bounds: a typo must not fuzz for a week, flood staging or stall CI on one wait.
    max_examples: Annotated[Whole, Field(ge=1, le=10_000)] = 10
    fuzz_time: Annotated[Whole, Field(ge=1, le=86_400)] | None = None
    seed: Annotated[Whole, Field(ge=0, le=2**63 - 1)] = 0
    request_timeout: Annotated[Seconds, Field(gt=0, le=600)] = 10.0
    rate_limit_probe: Annotated[Whole, Field(ge=0, le=10_000)] = 0
    retry_delay: Annotated[Seconds, Field(ge=0, le=300)] = 3.0
    fail_on_skip: Flag = False
    require_all_rules: Flag = False
    """A business rule the data never exercised fails the run (exit 1)."""
    junit_xml: JunitPath = None
    report: ReportPath = None
    run_id: str = Field(default_factory=lambda: uuid.uuid4().hex[:12])

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        """What no single setting can say is wrong."""
        if self.other_tenant_key is not None and self.other_tenant_key == self.api_key:
            raise ValueError("--other-tenant-key must be another tenant's key, not the same key")
        if self.account_number is None and self.customer_phone is None:
            raise ValueError(
                "name the test data: pass --account-number or --customer-phone "
                "(an account of the API key's tenant that the kit may read)"
            )
        if self.allow_fuzz_writes and not self.allow_writes:
            raise ValueError("--allow-fuzz-writes needs --allow-writes too (both must be explicit)")
        return self

    @property
    def secrets(self) -> dict[str, str]:
        """Secret value → environment variable printed in its place in curl commands."""
        masked = {self.api_key: API_KEY_VARIABLE}
        if self.other_tenant_key:
            masked[self.other_tenant_key] = OTHER_API_KEY_VARIABLE
        return masked

    def selected(self, check_name: str) -> bool:
        return self.checks is None or check_name in self.checks


def _kind(field: FieldInfo) -> Kind | None:
    """The `Kind` marker of a field, also when it sits inside `X | None`."""
    parts: list[object] = [*field.metadata, field.annotation]
    while parts:
        part = parts.pop()
        if isinstance(part, Kind):
            return part
        parts.extend(get_args(part))
    return None


# Every option of `billing-contract verify` but the API keys and --config, by key (the flag
# is the key with dashes: account_number ↔ --account-number). The CLI test proves it.
FILE_OPTIONS: dict[str, Kind] = {
    key: kind for key, field in KitSettings.model_fields.items() if (kind := _kind(field))
}
FILE_KEYS = frozenset(FILE_OPTIONS)
# The secrets come from flags or the environment, never from the file.
_KEY_VARIABLES = {"api_key": API_KEY_VARIABLE, "other_tenant_key": OTHER_API_KEY_VARIABLE}
SECRET_KEYS = frozenset(_KEY_VARIABLES)
# Every setting a flag can give: the file's keys plus the secrets.
SETTING_KEYS = FILE_KEYS | SECRET_KEYS

_BOUNDS = {
    "greater_than": ("more than", "gt"),
    "greater_than_equal": ("at least", "ge"),
    "less_than_equal": ("at most", "le"),
}


def refusal(error: ValidationError) -> KitError:
    """The first problem of a settings model's refusal as one line naming the flag: the
    validators' own sentences as they are, pydantic's bounds and types in the kit's words."""
    detail = error.errors(include_url=False)[0]
    ctx: dict[str, Any] = detail.get("ctx", {})
    if detail["type"] == "value_error":
        return KitError(str(ctx["error"]))
    key = str(detail["loc"][0]) if detail["loc"] else ""
    kind = FILE_OPTIONS.get(key)
    got = f"got {quoted(detail['input'])}"
    if detail["type"] in _BOUNDS:
        words, bound = _BOUNDS[detail["type"]]
        limit = ctx[bound]
        shown = f"{limit:g} seconds" if kind is Kind.SECONDS else str(limit)
        return KitError(f"{flag(key)} must be {words} {shown}, {got}")
    if detail["type"] == "finite_number":
        return KitError(f"{flag(key)} must be a finite number, {got}")
    if detail["type"].endswith("_type") and kind:
        return KitError(f"{flag(key)} must be {kind}, {got}")
    return KitError(one_line(error))


def build_settings(
    values: Mapping[str, Any],
    *,
    known_checks: frozenset[str],
    environ: Mapping[str, str] = os.environ,
) -> KitSettings:
    """Validate merged flag/file values into settings; every problem is a `KitError`.

    `values` holds flag values over file values (None = not given); flags arrive as text
    (`--max-examples 5`), the file's values as the YAML types `settings_file` checked.
    Keys fall back to the environment.
    """
    given = {key: value for key, value in values.items() if value is not None}
    for key, variable in _KEY_VARIABLES.items():
        given[key] = given.get(key) or environ.get(variable) or None
    try:
        return KitSettings.model_validate(given, context={"known_checks": known_checks})
    except ValidationError as exc:
        raise refusal(exc) from None


def output_paths(values: Mapping[str, Any]) -> Outputs:
    """The JUnit and report paths of `values`, each in an existing directory (the report's
    name ending in .json or .md): checked before the run so its result is never lost."""
    try:
        return Outputs.model_validate({key: values.get(key) for key in Outputs.model_fields})
    except ValidationError as exc:
        raise refusal(exc) from None
