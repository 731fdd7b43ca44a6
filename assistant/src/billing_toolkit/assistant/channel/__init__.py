"""The assistant on WhatsApp: a webhook service that never loses a message, and the agents'
handoff API. See `assistant/channel/README.md` for deployment and the API.

    from billing_toolkit.assistant.channel import create_channel_app, load_channel_config

    app = create_channel_app(load_channel_config(path), store, pipeline_factory)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what static tools see; at run time `__getattr__` loads each on first use
    from billing_toolkit.assistant.channel.app import create_channel_app
    from billing_toolkit.assistant.channel.config import (
        ChannelConfig,
        ConfigError,
        Secret,
        TenantChannel,
        load_channel_config,
        parse_channel_config,
    )
    from billing_toolkit.assistant.channel.send_retry import SendBudget
    from billing_toolkit.assistant.channel.signature import SIGNATURE_HEADER, sign
    from billing_toolkit.assistant.channel.turns import PipelineFactory, TurnHandler

_CONFIG = "billing_toolkit.assistant.channel.config"
_EXPORTS: dict[str, str] = {
    "SIGNATURE_HEADER": "billing_toolkit.assistant.channel.signature",
    "ChannelConfig": _CONFIG,
    "ConfigError": _CONFIG,
    "PipelineFactory": "billing_toolkit.assistant.channel.turns",
    "Secret": _CONFIG,
    "SendBudget": "billing_toolkit.assistant.channel.send_retry",
    "TenantChannel": _CONFIG,
    "TurnHandler": "billing_toolkit.assistant.channel.turns",
    "create_channel_app": "billing_toolkit.assistant.channel.app",
    "load_channel_config": _CONFIG,
    "parse_channel_config": _CONFIG,
    "sign": "billing_toolkit.assistant.channel.signature",
}
"""Public name → the module that defines it. Loaded on first use (PEP 562): every
`billing-assistant` command imports this package for its CLI, and the service's app (the
agents' console, its templates) costs a cold `ask` that never serves it most of a second."""

__all__ = [
    "SIGNATURE_HEADER",
    "ChannelConfig",
    "ConfigError",
    "PipelineFactory",
    "Secret",
    "SendBudget",
    "TenantChannel",
    "TurnHandler",
    "create_channel_app",
    "load_channel_config",
    "parse_channel_config",
    "sign",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'channel' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
