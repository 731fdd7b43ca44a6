"""What `ask`, `chat` and `eval` share: connection options and opening an assistant.

Without `--base-url` (or `BILLING_API_URL`) a command starts the simulator in-process with
`--seed`, and uses the chosen tenant's API key from its dataset; with it, the command talks to
that billing API with `--api-key` (or `BILLING_API_KEY`). A given billing API is tried once
before the first turn: a URL that is not one, nothing listening there, a server that is not
the billing API or a key it refuses is a configuration error (one line, exit 2) — the turn
would otherwise report it as an outage and hand the subscriber to a person, with exit 0.
A 5xx, a timeout or an open circuit is an outage, and the turn shows how it is handled.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from functools import partial

from billing_toolkit.assistant.commands.local_simulator import (
    LOCAL_BASE_URL,
    LocalSimulator,
    start_local_simulator,
)
from billing_toolkit.assistant.knowledge.operator_profile import OperatorProfileError
from billing_toolkit.assistant.retrieval import RetrievalError
from billing_toolkit.assistant.runtime import (
    DEFAULT_TENANT,
    ENV_KB_DSN,
    ENV_NARRATOR,
    ENV_STORE_DSN,
    ENV_TENANT,
    NARRATORS,
    Assistant,
    AssistantConfig,
    open_assistant,
)
from billing_toolkit.client import (
    APIConnectionError,
    AuthenticationError,
    BillingClient,
    BillingError,
    ContractViolationError,
    MalformedResponseError,
    RetryPolicy,
)
from billing_toolkit.client.base import ENV_API_KEY, ENV_BASE_URL
from billing_toolkit.contract.cli import EXIT_USAGE, bounded_int

Handler = Callable[[argparse.Namespace], int]
MAX_SEED = 2**63 - 1
"""Seeds are stored as 64-bit integers."""
MAX_CUSTOMERS = 10_000
"""An in-process dataset generates in seconds at 300 a tenant; beyond this it is minutes."""


class CommandError(Exception):
    """A problem the user can fix; printed as one line, exit status 2."""


def add_simulator_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("in-process simulator (used when no billing URL is set)")
    group.add_argument(
        "--seed",
        type=partial(bounded_int, low=0, high=MAX_SEED),
        default=42,
        help="dataset seed (default 42)",
    )
    group.add_argument(
        "--customers",
        type=partial(bounded_int, low=1, high=MAX_CUSTOMERS),
        default=None,
        help=f"customers per tenant, 1-{MAX_CUSTOMERS} (default: the simulator's, 300)",
    )


def add_connection_options(parser: argparse.ArgumentParser) -> None:
    """Billing API, tenant, stores and narrator."""
    group = parser.add_argument_group("billing API and assistant")
    group.add_argument(
        "--base-url",
        default=os.environ.get(ENV_BASE_URL),
        help=f"billing API URL (default ${ENV_BASE_URL}; unset: in-process simulator)",
    )
    group.add_argument("--api-key", default=None, help=f"billing API key (default ${ENV_API_KEY})")
    group.add_argument(
        "--tenant",
        default=os.environ.get(ENV_TENANT) or DEFAULT_TENANT,
        help="tenant the conversations belong to (default fibranet)",
    )
    group.add_argument(
        "--kb-dsn",
        default=None,
        help=f"knowledge-base store (default ${ENV_KB_DSN}, else SQLite in memory)",
    )
    group.add_argument(
        "--store-dsn",
        default=None,
        help=f"conversation store (default ${ENV_STORE_DSN}, else SQLite in memory)",
    )
    group.add_argument(
        "--narrator",
        choices=NARRATORS,
        default=os.environ.get(ENV_NARRATOR),
        help="template (default) or openai (configured by ASSISTANT_LLM_*)",
    )
    add_simulator_options(parser)


def config_of(args: argparse.Namespace, **overrides: object) -> AssistantConfig:
    """The flags over the environment; `overrides` over both."""
    flags: dict[str, object] = {
        "tenant": args.tenant,
        "base_url": args.base_url,
        "api_key": args.api_key,
        "kb_dsn": args.kb_dsn,
        "store_dsn": args.store_dsn,
        "narrator": args.narrator,
    }
    return AssistantConfig.from_env(None, **(flags | overrides))


def local_simulator_of(args: argparse.Namespace) -> AbstractContextManager[LocalSimulator]:
    print(f"starting the simulator in-process (seed {args.seed})…", file=sys.stderr)
    return start_local_simulator(args.seed, args.customers)


@contextmanager
def open_session(args: argparse.Namespace) -> Iterator[Assistant]:
    """The assistant of `args`, on the given billing API or an in-process simulator."""
    if args.base_url:
        config = config_of(args)
        check_billing_api(config.base_url, config.api_key)
        with open_assistant(config) as assistant:
            yield assistant
        return
    with local_simulator_of(args) as simulator:
        tenant = simulator.tenant(args.tenant)
        config = config_of(args, base_url=LOCAL_BASE_URL, api_key=tenant["api_key"])
        # The simulator's day is the billing system's: "hoy", "ayer", today's rate and a
        # payment "hecho hoy" count from it, not from this machine's clock (as `eval` does).
        clock = simulator.control.clock.now
        config = replace(config, settings=replace(config.settings, clock=clock))
        with open_assistant(config, transport=simulator.transport) as assistant:
            yield assistant


CONFIGURATION_FAILURES = {
    AuthenticationError: "refused the API key (check --api-key or ${key})",
    APIConnectionError: "cannot be reached (check --base-url or ${url})",
    ContractViolationError: "does not answer like the billing API (check --base-url or ${url})",
    MalformedResponseError: "does not answer like the billing API (check --base-url or ${url})",
}
"""What a failed first call means about the settings; other failures are outages."""


def check_billing_api(base_url: str | None, api_key: str | None) -> None:
    """One authenticated call (the plan catalogue), without retries: raises CommandError when
    the URL or the key is wrong (ValueError for a URL that is not one), returns otherwise."""
    with BillingClient(base_url, api_key, retry=RetryPolicy(max_attempts=1)) as client:
        try:
            client.list_plans()
        except tuple(CONFIGURATION_FAILURES) as error:
            meaning = next(
                text for kind, text in CONFIGURATION_FAILURES.items() if isinstance(error, kind)
            )
            raise CommandError(
                f"the billing API at {client.base_url} "
                + meaning.format(key=ENV_API_KEY, url=ENV_BASE_URL)
                + f": {error}"
            ) from error
        except BillingError:
            return  # an outage: the turn reports it and hands over


def guarded(handler: Handler) -> Handler:
    """Turn every configuration or input problem into one line on stderr, never a traceback."""

    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except (CommandError, ValueError, OperatorProfileError, RetrievalError, OSError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_USAGE

    return run
