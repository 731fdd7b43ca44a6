"""Fixtures every test folder may ask for: one throw-away PostgreSQL for the whole session,
and `pytester`.

The server (PostgreSQL 16 with pgvector, from the `pgserver` wheel, on a Unix socket: no TCP
port) starts the first time a test asks for `pg_server` or `pg_dsn`, never otherwise, and
every folder shares it: one start-up per run instead of one per folder.
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest_plugins = ["pytester"]
"""`pytester` runs small user suites (the plugin's tests, the README's examples); pytest only
accepts this declaration in the top-level conftest."""

_database_numbers = itertools.count(1)

SLOWEST_FILES = (
    "tests/project/test_static_checks.py",
    "tests/assistant/test_evaluation.py",
    "tests/conformance/test_rule_mutants.py",
    "tests/channel/test_three_replicas.py",
    "tests/conformance/test_against_simulator.py",
    "tests/project/test_packaging.py",
    "tests/retrieval/test_minilm_onnx.py",
    "tests/retrieval/test_postgres.py",
    "tests/assistant/test_intent_models.py",
    "tests/simulator/test_schemathesis.py",
    "tests/project/test_layering.py",
    "tests/assistant/test_model_artifacts.py",
    "tests/simulator/test_atomic_writes.py",
    "tests/retrieval/test_retriever.py",
    "tests/simulator/test_hostile_inputs.py",
)
"""The files that take longest (the run's `--durations`), slowest first. The suite's workers
take whole files (`--dist loadfile`) in collection order (`--no-loadscope-reorder`: xdist
would otherwise order files by their number of tests and leave the few-test, long-running ones
for the end, when one worker alone runs them while the other idles). Starting with the
longest makes the end of the run many short files, which the two workers share evenly. A file
missing here or out of order only costs balance, never a test."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The slowest files first, in `SLOWEST_FILES` order; every file's own order kept (the
    sort is stable, and every worker sorts the same collection the same way)."""
    root = config.rootpath
    rank = {name: place for place, name in enumerate(SLOWEST_FILES)}

    def place(item: pytest.Item) -> int:
        name = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) else ""
        return rank.get(name, len(rank))

    items.sort(key=place)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Any]:
    """The session's PostgreSQL server (a `pgserver` handle: `get_uri(database)`).

    Its data directory is a fresh folder of its own under the system temp dir rather than
    pytest's: pytest's parents are private to root (pgserver runs postgres as an unprivileged
    user when we are root), and a concurrent pytest run may prune them.
    """
    with warnings.catch_warnings():  # platformdirs warns that XDG_RUNTIME_DIR is unset
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR")
        from pgserver.postgres_server import get_server

    data = Path(tempfile.mkdtemp(prefix="tests-pg-"))
    data.chmod(0o777)
    server = get_server(data, cleanup_mode="delete")
    try:
        yield server
    finally:
        server.cleanup()
        shutil.rmtree(data, ignore_errors=True)


@pytest.fixture
def pg_dsn(pg_server: Any) -> str:
    """A DSN to a brand-new, empty database on the session's server: no test sees another's
    tables."""
    import psycopg
    from psycopg import sql

    name = f"test_{next(_database_numbers)}"
    with psycopg.connect(pg_server.get_uri(), autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return str(pg_server.get_uri(name))
