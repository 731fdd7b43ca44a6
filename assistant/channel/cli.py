"""``billing-assistant serve``: the WhatsApp webhook service and the agents' handoff API.

    billing-assistant serve --config tenants.yaml [--store DSN] [--host H] [--port P]

Tenants, numbers and the names of their secret variables come from `--config` (or
`$ASSISTANT_CHANNEL_CONFIG`); each tenant's pipeline is built by `assistant.runtime` with that
tenant's billing URL and key, on the service's conversation store. The store defaults to a
SQLite file in the working directory — not memory, since a message acknowledged to WhatsApp
must survive a restart. Every bad setting is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

from assistant.channel.app import create_channel_app
from assistant.channel.config import ChannelConfig, ConfigError, load_channel_config
from assistant.channel.service import DEFAULT_WORKERS
from assistant.channel.turns import PipelineFactory, TurnHandler
from assistant.runtime import ENV_STORE_DSN, NARRATORS, AssistantConfig, open_assistant
from assistant.store import SqlConversationStore, open_conversation_store

CONFIG_ENV = "ASSISTANT_CHANNEL_CONFIG"
DEFAULT_STORE_DSN = "sqlite:///conversations.sqlite3"
_USAGE_ERROR = 2


def register(subparsers: Any) -> None:
    """Add ``serve`` to a dispatcher's sub-parsers."""
    serve = subparsers.add_parser("serve", help="WhatsApp webhook service + agents' handoff API")
    serve.add_argument("--config", type=Path, default=None,
                       help=f"tenants YAML (default: ${CONFIG_ENV})")
    serve.add_argument("--store", default=None,
                       help=f"conversation store DSN (default: ${ENV_STORE_DSN}, else "
                            f"{DEFAULT_STORE_DSN})")
    serve.add_argument("--kb-dsn", default=None, help="knowledge base DSN (default: "
                                                      "$BILLING_KB_DSN, else the shipped KB)")
    serve.add_argument("--narrator", choices=NARRATORS, default=None,
                       help="template (default) or openai")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=DEFAULT_WORKERS,
                       help="turns processed at once (default 4)")
    serve.add_argument("--log-level", default="info",
                       choices=["debug", "info", "warning", "error"])
    serve.set_defaults(handler=_serve)


def open_pipelines(config: ChannelConfig, base: AssistantConfig, store: SqlConversationStore,
                   resources: ExitStack, **runtime_options: Any) -> PipelineFactory:
    """Every tenant's pipeline, built now by `assistant.runtime` — `base` with the tenant's
    name, billing URL and key, on the service's store — so a bad setting stops the start-up
    instead of failing each message later. Their clients close with `resources`;
    `runtime_options` go to `open_assistant` (a transport to an in-process simulator, say)."""
    pipelines: dict[str, TurnHandler] = {}
    for tenant in config.tenants:
        tenant_config = replace(base, tenant=tenant.tenant,
                                api_key=tenant.billing_api_key.value,
                                base_url=tenant.billing_api_url or base.base_url)
        assistant = resources.enter_context(
            open_assistant(tenant_config, store=store, **runtime_options))
        pipelines[tenant.tenant] = assistant.pipeline
    return lambda tenant, _store: pipelines[tenant.tenant]


def _fail(message: str) -> int:
    print(f"billing-assistant serve: {message}", file=sys.stderr)
    return _USAGE_ERROR


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    config_path = args.config or (Path(os.environ[CONFIG_ENV]) if os.environ.get(CONFIG_ENV)
                                  else None)
    if config_path is None:
        return _fail(f"--config (or ${CONFIG_ENV}) must name the tenants file")
    if args.workers < 1:
        return _fail("--workers must be at least 1")
    with ExitStack() as resources:
        try:
            config = load_channel_config(config_path)
            base = AssistantConfig.from_env(kb_dsn=args.kb_dsn, narrator=args.narrator)
            store = open_conversation_store(
                args.store or os.environ.get(ENV_STORE_DSN) or DEFAULT_STORE_DSN)
            resources.callback(store.close)
            factory = open_pipelines(config, base, store, resources)
        except (ConfigError, ValueError) as exc:
            return _fail(str(exc))
        except Exception as exc:  # noqa: BLE001 — e.g. a database that is unreachable
            return _fail(f"cannot start: {type(exc).__name__}: {exc}")
        logging.basicConfig(level=args.log_level.upper(),
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        app = create_channel_app(config, store, factory, workers=args.workers)
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0
