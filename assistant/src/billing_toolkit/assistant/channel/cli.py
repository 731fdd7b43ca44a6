"""``billing-assistant serve``: the WhatsApp webhook service and the agents' handoff API.

    billing-assistant serve --config tenants.yaml [--store DSN] [--host H] [--port P]
    billing-assistant fake-graph [--port 9000]          # prints the replies (no WhatsApp)
    billing-assistant webhook-send --from +58… "text" --phone-number-id … --secret-env VAR

Tenants, numbers and the names of their secret variables come from `--config` (or
`$ASSISTANT_CHANNEL_CONFIG`); each tenant's pipeline is built by
`billing_toolkit.assistant.runtime` with that tenant's billing URL and key, on the service's
conversation store. The store defaults to a
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
from functools import partial
from pathlib import Path
from typing import Any

import httpx

from billing_toolkit.assistant.channel.config import ChannelConfig, ConfigError, load_channel_config
from billing_toolkit.assistant.channel.deliveries import text_delivery
from billing_toolkit.assistant.channel.service import DEFAULT_LEASE_SECONDS, DEFAULT_WORKERS
from billing_toolkit.assistant.channel.signature import SIGNATURE_HEADER, sign
from billing_toolkit.assistant.channel.turns import PipelineFactory, TurnHandler
from billing_toolkit.assistant.runtime import (
    ENV_STORE_DSN,
    NARRATORS,
    AssistantConfig,
    open_assistant,
)
from billing_toolkit.assistant.store import SqlConversationStore, open_conversation_store
from billing_toolkit.assistant.store.single_process import sole_process
from billing_toolkit.assistant.text.identifiers import normalize_phone
from billing_toolkit.contract.cli import EXIT_USAGE, bounded_int, fixed_port

CONFIG_ENV = "ASSISTANT_CHANNEL_CONFIG"
DEFAULT_STORE_DSN = "sqlite:///conversations.sqlite3"
MAX_WORKERS = 256
"""Turns at once; each holds a thread and the store's lock in turn, so more only queue."""
MAX_LEASE_SECONDS = 3600


def register(subparsers: Any) -> None:
    """Add ``serve``, ``fake-graph`` and ``webhook-send`` to a dispatcher's sub-parsers."""
    serve = subparsers.add_parser("serve", help="WhatsApp webhook service + agents' handoff API")
    serve.add_argument(
        "--config", type=Path, default=None, help=f"tenants YAML (default: ${CONFIG_ENV})"
    )
    serve.add_argument(
        "--store",
        default=None,
        help=f"conversation store DSN (default: ${ENV_STORE_DSN}, else {DEFAULT_STORE_DSN})",
    )
    serve.add_argument(
        "--kb-dsn",
        default=None,
        help="knowledge base DSN (default: $BILLING_KB_DSN, else the shipped KB)",
    )
    serve.add_argument(
        "--narrator", choices=NARRATORS, default=None, help="template (default) or openai"
    )
    serve.add_argument(
        "--graph-url",
        default=None,
        help="Graph API base URL, overriding the file's graph_api_url (e.g. a "
        "fake-graph at http://127.0.0.1:9000/v21.0)",
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=fixed_port, default=8000, help="1-65535 (default 8000)")
    serve.add_argument(
        "--workers",
        type=partial(bounded_int, low=1, high=MAX_WORKERS),
        default=DEFAULT_WORKERS,
        help=f"turns processed at once, 1-{MAX_WORKERS} (default 4)",
    )
    serve.add_argument(
        "--lease-seconds",
        type=partial(bounded_int, low=1, high=MAX_LEASE_SECONDS),
        default=int(DEFAULT_LEASE_SECONDS),
        help="how long a conversation stays a dead replica's before another "
        f"replica takes it over, 1-{MAX_LEASE_SECONDS} (default "
        f"{int(DEFAULT_LEASE_SECONDS)})",
    )
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    serve.set_defaults(handler=_serve)

    fake = subparsers.add_parser("fake-graph", help="a local Graph API that prints the replies")
    fake.add_argument("--host", default="127.0.0.1")
    fake.add_argument("--port", type=fixed_port, default=9000, help="1-65535 (default 9000)")
    fake.set_defaults(handler=_fake_graph)

    send = subparsers.add_parser(
        "webhook-send", help="post a signed WhatsApp text message to the service"
    )
    send.add_argument("text", help="what the subscriber writes")
    send.add_argument("--from", dest="phone", required=True, help="subscriber, E.164")
    send.add_argument("--phone-number-id", required=True, help="the operator's number id")
    send.add_argument(
        "--secret-env", required=True, help="environment variable holding the app secret"
    )
    send.add_argument("--url", default="http://127.0.0.1:8000/webhook")
    send.set_defaults(handler=_webhook_send)


def open_pipelines(
    config: ChannelConfig,
    base: AssistantConfig,
    store: SqlConversationStore,
    resources: ExitStack,
    **runtime_options: Any,
) -> PipelineFactory:
    """Every tenant's pipeline, built now by `billing_toolkit.assistant.runtime` — `base`
    with the tenant's name, billing URL and key, on the service's store — so a bad setting
    stops the start-up
    instead of failing each message later. Their clients close with `resources`;
    `runtime_options` go to `open_assistant` (a transport to an in-process simulator, say)."""
    pipelines: dict[str, TurnHandler] = {}
    for tenant in config.tenants:
        tenant_config = replace(
            base,
            tenant=tenant.tenant,
            api_key=tenant.billing_api_key.value,
            base_url=tenant.billing_api_url or base.base_url,
            settings=replace(
                base.settings, two_factor_self_service=(tenant.two_factor_self_service)
            ),
        )
        assistant = resources.enter_context(
            open_assistant(tenant_config, store=store, **runtime_options)
        )
        pipelines[tenant.tenant] = assistant.pipeline
    return lambda tenant, _store: pipelines[tenant.tenant]


def _fail(message: str, command: str = "serve") -> int:
    print(f"billing-assistant {command}: {message}", file=sys.stderr)
    return EXIT_USAGE


def _configure_logging(level: str) -> None:
    """The service logs its own events with phones masked. httpx's request lines and uvicorn's
    access lines carry phones and account numbers in URLs, so they are kept out."""
    logging.basicConfig(
        level=level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("httpx").setLevel(max(logging.WARNING, logging.getLogger().level))


def _fake_graph(args: argparse.Namespace) -> int:
    # Lazily, as the service's app below: the other commands (a cold `ask`) never serve it.
    import uvicorn

    from billing_toolkit.assistant.channel.fake_graph import create_fake_graph_app

    def show(line: str) -> None:
        print(line, flush=True)

    uvicorn.run(create_fake_graph_app(show), host=args.host, port=args.port, log_level="warning")
    return 0


def _webhook_send(args: argparse.Namespace) -> int:
    secret = os.environ.get(args.secret_env, "")
    phone = normalize_phone(args.phone)
    if not secret:
        return _fail(f"environment variable {args.secret_env} is not set", "webhook-send")
    if phone is None:
        return _fail(
            f"--from {args.phone!r} is not a phone number (E.164, e.g. +584121234567)",
            "webhook-send",
        )
    body = text_delivery(args.phone_number_id, phone, args.text)
    try:
        response = httpx.post(
            args.url,
            content=body,
            timeout=10.0,
            headers={"Content-Type": "application/json", SIGNATURE_HEADER: sign(body, secret)},
        )
    except httpx.HTTPError as exc:
        return _fail(f"cannot reach {args.url}: {type(exc).__name__}", "webhook-send")
    print(f"{response.status_code} {response.text}")
    return 0 if response.is_success else 1


def _serve(args: argparse.Namespace) -> int:
    # Lazily: only the two serving commands need an ASGI server and an app to serve (the
    # service's app loads the agents' console and its templates, most of a second).
    import uvicorn

    from billing_toolkit.assistant.channel.app import create_channel_app

    config_path = args.config or (
        Path(os.environ[CONFIG_ENV]) if os.environ.get(CONFIG_ENV) else None
    )
    if config_path is None:
        return _fail(f"--config (or ${CONFIG_ENV}) must name the tenants file")
    with ExitStack() as resources:
        try:
            config = load_channel_config(config_path)
            if args.graph_url:
                config = replace(config, graph_api_url=args.graph_url.rstrip("/"))
            base = AssistantConfig.from_env(kb_dsn=args.kb_dsn, narrator=args.narrator)
            dsn = args.store or os.environ.get(ENV_STORE_DSN) or DEFAULT_STORE_DSN
            resources.enter_context(sole_process(dsn))
            store = open_conversation_store(dsn)
            resources.callback(store.close)
            factory = open_pipelines(config, base, store, resources)
        except (ConfigError, ValueError) as exc:
            return _fail(str(exc))
        except Exception as exc:  # noqa: BLE001 — e.g. a database that is unreachable
            return _fail(f"cannot start: {type(exc).__name__}: {exc}")
        _configure_logging(args.log_level)
        app = create_channel_app(
            config, store, factory, workers=args.workers, lease_seconds=args.lease_seconds
        )
        uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, access_log=False)
    return 0
