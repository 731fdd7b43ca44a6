"""The assistant on WhatsApp: a webhook service that never loses a message, and the agents'
handoff API. See `assistant/channel/README.md` for deployment and the API.

    from billing_toolkit.assistant.channel import create_channel_app, load_channel_config

    app = create_channel_app(load_channel_config(path), store, pipeline_factory)
"""

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
