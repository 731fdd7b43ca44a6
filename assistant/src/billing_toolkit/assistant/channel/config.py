"""Which WhatsApp number belongs to which operator, and the secrets each one uses.

The file names tenants and their numbers; secrets are never in it — it names the environment
variables that hold them (`app_secret_env: FIBRANET_WHATSAPP_APP_SECRET`), so the file can
be committed and the secrets stay in the deployment's environment. A secret is wrapped in
`Secret`, whose repr is masked, so a config printed to a log shows no secret.

    graph_api_url: https://graph.facebook.com/v21.0      # optional; this is the default
    billing_api_url: http://simulator:8080               # default for every tenant
    verify_token_env: WHATSAPP_VERIFY_TOKEN
    tenants:
      - tenant: fibranet
        phone_number_ids: ["100000000000001"]
        app_secret_env: FIBRANET_WHATSAPP_APP_SECRET
        access_token_env: FIBRANET_WHATSAPP_TOKEN
        billing_api_key_env: FIBRANET_BILLING_API_KEY
        agent_token_env: FIBRANET_AGENT_TOKEN
        billing_api_url: http://billing.fibranet.internal   # optional override
        two_factor_self_service: false   # optional; true lets a phone not on the account
                                         # prove identity with account number + national ID

Bias: refuse to start. A missing variable, a number claimed by two tenants or an agent token
shared by two tenants is an error naming the culprit, never a silent fallback.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

DEFAULT_GRAPH_API_URL = "https://graph.facebook.com/v21.0"
_TENANT_ID = re.compile(r"^[a-z][a-z0-9_-]{0,62}$")
_PHONE_NUMBER_ID = re.compile(r"^[0-9]{1,32}$")
_SECRETS = ("app_secret", "access_token", "billing_api_key", "agent_token")


class ConfigError(ValueError):
    """The channel configuration cannot be used; the message says which entry and why."""


@dataclass(frozen=True, slots=True)
class Secret:
    """A secret value that does not print itself."""

    value: str

    def __repr__(self) -> str:
        return "Secret('•••')"

    __str__ = __repr__


@dataclass(frozen=True, slots=True)
class TenantChannel:
    """One operator on WhatsApp: its numbers, its secrets, where its billing API is."""

    tenant: str
    phone_number_ids: tuple[str, ...]
    app_secret: Secret
    """Signs the webhook deliveries for this operator's numbers."""
    access_token: Secret
    """Bearer token of the Graph API, to send replies from this operator's numbers."""
    billing_api_key: Secret
    agent_token: Secret
    """Bearer token of this operator's agents on the handoff API."""
    billing_api_url: str | None = None
    two_factor_self_service: bool = False
    """The operator's opt-in to `PipelineSettings.two_factor_self_service`."""


@dataclass(frozen=True, slots=True)
class ChannelConfig:
    tenants: tuple[TenantChannel, ...]
    verify_token: Secret
    """What the platform must echo when it verifies the webhook URL (GET)."""
    graph_api_url: str = DEFAULT_GRAPH_API_URL

    def by_phone_number_id(self, phone_number_id: str) -> TenantChannel | None:
        return next((t for t in self.tenants if phone_number_id in t.phone_number_ids), None)

    def by_name(self, tenant: str) -> TenantChannel | None:
        return next((t for t in self.tenants if t.tenant == tenant), None)


def _text(entry: Mapping[str, Any], key: str, where: str, *, required: bool = True) -> str | None:
    value = entry.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: `{key}` must be a non-empty string")
    return value.strip()


def _secret(entry: Mapping[str, Any], name: str, where: str, environ: Mapping[str, str]) -> Secret:
    variable = str(_text(entry, f"{name}_env", where))
    value = environ.get(variable, "")
    if not value:
        raise ConfigError(f"{where}: environment variable {variable} (`{name}_env`) is not set")
    return Secret(value)


def _tenant(
    entry: Any, index: int, defaults: Mapping[str, Any], environ: Mapping[str, str]
) -> TenantChannel:
    where = f"tenants[{index}]"
    if not isinstance(entry, Mapping):
        raise ConfigError(f"{where}: must be a mapping")
    name = str(_text(entry, "tenant", where))
    if not _TENANT_ID.match(name):
        raise ConfigError(f"{where}: tenant {name!r} must be lower-case letters, digits, - or _")
    where = f"tenant {name}"
    numbers = entry.get("phone_number_ids")
    if (
        not isinstance(numbers, list)
        or not numbers
        or not all(isinstance(n, str) and _PHONE_NUMBER_ID.match(n) for n in numbers)
    ):
        raise ConfigError(
            f"{where}: `phone_number_ids` must be a list of WhatsApp phone number "
            "ids (digits, quoted)"
        )
    secrets = {key: _secret(entry, key, where, environ) for key in _SECRETS}
    url = _text(entry, "billing_api_url", where, required=False) or defaults.get("billing_api_url")
    two_factor = entry.get("two_factor_self_service", False)
    if not isinstance(two_factor, bool):
        raise ConfigError(
            f"{where}: `two_factor_self_service` must be true or false (unquoted), "
            f"got {two_factor!r}"
        )
    return TenantChannel(
        tenant=name,
        phone_number_ids=tuple(numbers),
        billing_api_url=url,
        two_factor_self_service=two_factor,
        **secrets,
    )


def _check_unique(tenants: tuple[TenantChannel, ...]) -> None:
    owner: dict[str, str] = {}
    for tenant in tenants:
        for number in tenant.phone_number_ids:
            if number in owner:
                raise ConfigError(
                    f"phone number id {number} is claimed by tenants "
                    f"{owner[number]} and {tenant.tenant}"
                )
            owner[number] = tenant.tenant
    names = [t.tenant for t in tenants]
    if len(set(names)) != len(names):
        raise ConfigError("a tenant is listed twice")
    tokens = [t.agent_token.value for t in tenants]
    if len(set(tokens)) != len(tokens):
        raise ConfigError("two tenants share an agent token: each operator's agents need their own")


def parse_channel_config(document: Any, environ: Mapping[str, str]) -> ChannelConfig:
    """The configuration from a parsed YAML/JSON document and an environment."""
    if not isinstance(document, Mapping):
        raise ConfigError("the channel configuration must be a mapping with `tenants`")
    entries = document.get("tenants")
    if not isinstance(entries, list) or not entries:
        raise ConfigError("`tenants` must list at least one tenant")
    tenants = tuple(_tenant(entry, i, document, environ) for i, entry in enumerate(entries))
    _check_unique(tenants)
    graph = _text(document, "graph_api_url", "config", required=False) or DEFAULT_GRAPH_API_URL
    return ChannelConfig(
        tenants=tenants,
        graph_api_url=graph.rstrip("/"),
        verify_token=_secret(document, "verify_token", "config", environ),
    )


def load_channel_config(path: Path, environ: Mapping[str, str] | None = None) -> ChannelConfig:
    """Read `path` (YAML or JSON); secrets from `environ` (default: the process's)."""
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read channel configuration {path}: {exc.strerror}") from exc
    except yaml.YAMLError as exc:
        raise ConfigError(f"channel configuration {path} is not valid YAML: {exc}") from exc
    return parse_channel_config(document, os.environ if environ is None else environ)
