"""Where the state lives between writes: nowhere (memory) or a SQLite file.

SQLite keeps one JSON document per account plus the global parts, so a payment rewrites
one row, not the world. Snapshots are whole-state documents in both modes. Callers hold
the store's lock; these classes do no locking of their own.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from billing_toolkit.simulator.state import codec
from billing_toolkit.simulator.state.models import Account, BillingState, IdempotencyRecord

GLOBAL_FIELDS = ("seed", "customers_per_tenant", "now", "tenants", "sequences", "near_duplicates")


@dataclass(frozen=True, slots=True)
class Write:
    """One write to save in a single transaction: the state whose global parts (clock,
    sequences) it carries, the accounts it touched and the idempotency record it made."""

    state: BillingState
    accounts: list[Account]
    record: tuple[str, IdempotencyRecord] | None = None


class Persistence(Protocol):
    def load(self) -> BillingState | None: ...
    def save_all(self, state: BillingState) -> None: ...
    def save_write(self, write: Write) -> None: ...
    def put_snapshot(self, snapshot_id: str, document: str) -> None: ...
    def get_snapshot(self, snapshot_id: str) -> str | None: ...
    def list_snapshots(self) -> list[dict[str, str]]: ...


class MemoryPersistence:
    """State only in the process; snapshots in a dict."""

    def __init__(self) -> None:
        self._snapshots: dict[str, tuple[str, str]] = {}

    def load(self) -> BillingState | None:
        return None

    def save_all(self, state: BillingState) -> None:
        return None

    def save_write(self, write: Write) -> None:
        return None

    def put_snapshot(self, snapshot_id: str, document: str) -> None:
        self._snapshots[snapshot_id] = (_stamp(), document)

    def get_snapshot(self, snapshot_id: str) -> str | None:
        entry = self._snapshots.get(snapshot_id)
        return entry[1] if entry else None

    def list_snapshots(self) -> list[dict[str, str]]:
        return [
            {"snapshot_id": key, "created_at": value[0]}
            for key, value in sorted(self._snapshots.items())
        ]


class SQLitePersistence:
    """State in a SQLite file that survives restarts (`--state FILE`)."""

    SCHEMA = (
        "CREATE TABLE IF NOT EXISTS globals (id INTEGER PRIMARY KEY CHECK (id = 1), doc TEXT NOT NULL)",
        (
            "CREATE TABLE IF NOT EXISTS accounts (tenant_id TEXT, account_number TEXT,"
            " doc TEXT NOT NULL, PRIMARY KEY (tenant_id, account_number))"
        ),
        (
            "CREATE TABLE IF NOT EXISTS idempotency (tenant_id TEXT, key TEXT, doc TEXT NOT NULL,"
            " PRIMARY KEY (tenant_id, key))"
        ),
        (
            "CREATE TABLE IF NOT EXISTS snapshots (snapshot_id TEXT PRIMARY KEY,"
            " created_at TEXT NOT NULL, doc TEXT NOT NULL)"
        ),
    )

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            for statement in self.SCHEMA:
                self._db.execute(statement)
        except sqlite3.Error as error:
            # A missing folder or a file that is not a simulator state: say which file, once.
            raise OSError(f"cannot use {path} as the state file: {error}") from error

    def close(self) -> None:
        self._db.close()

    def load(self) -> BillingState | None:
        row = self._db.execute("SELECT doc FROM globals WHERE id = 1").fetchone()
        if row is None:
            return None
        data: dict[str, Any] = json.loads(row[0])
        data["accounts"] = {tenant["tenant_id"]: {} for tenant in data["tenants"]}
        data["idempotency"] = {}
        for tenant_id, number, doc in self._db.execute(
            "SELECT tenant_id, account_number, doc FROM accounts"
        ):
            data["accounts"][tenant_id][number] = json.loads(doc)
        for tenant_id, key, doc in self._db.execute("SELECT tenant_id, key, doc FROM idempotency"):
            data["idempotency"].setdefault(tenant_id, {})[key] = json.loads(doc)
        return codec.decode(BillingState, data)  # type: ignore[no-any-return]

    def save_all(self, state: BillingState) -> None:
        with self._transaction():
            self._db.execute("DELETE FROM accounts")
            self._db.execute("DELETE FROM idempotency")
            self._put_globals(state)
            self._db.executemany(
                "INSERT INTO accounts VALUES (?, ?, ?)",
                [
                    (tenant_id, number, codec.dumps(account))
                    for tenant_id, accounts in state.accounts.items()
                    for number, account in accounts.items()
                ],
            )
            self._db.executemany(
                "INSERT INTO idempotency VALUES (?, ?, ?)",
                [
                    (tenant_id, key, codec.dumps(record))
                    for tenant_id, records in state.idempotency.items()
                    for key, record in records.items()
                ],
            )

    def save_write(self, write: Write) -> None:
        with self._transaction():
            self._put_globals(write.state)
            self._db.executemany(
                "INSERT OR REPLACE INTO accounts VALUES (?, ?, ?)",
                [
                    (a.customer.tenant_id, a.customer.account_number, codec.dumps(a))
                    for a in write.accounts
                ],
            )
            if write.record is not None:
                tenant_id, entry = write.record
                self._db.execute(
                    "INSERT OR REPLACE INTO idempotency VALUES (?, ?, ?)",
                    (tenant_id, entry.key, codec.dumps(entry)),
                )

    def put_snapshot(self, snapshot_id: str, document: str) -> None:
        with self._transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?)",
                (snapshot_id, _stamp(), document),
            )

    def get_snapshot(self, snapshot_id: str) -> str | None:
        row = self._db.execute(
            "SELECT doc FROM snapshots WHERE snapshot_id = ?", (snapshot_id,)
        ).fetchone()
        return row[0] if row else None

    def list_snapshots(self) -> list[dict[str, str]]:
        rows = self._db.execute(
            "SELECT snapshot_id, created_at FROM snapshots ORDER BY snapshot_id"
        )
        return [
            {"snapshot_id": snapshot_id, "created_at": created} for snapshot_id, created in rows
        ]

    def _put_globals(self, state: BillingState) -> None:
        doc = json.dumps(
            {name: codec.encode(getattr(state, name)) for name in GLOBAL_FIELDS}, sort_keys=True
        )
        self._db.execute("INSERT OR REPLACE INTO globals VALUES (1, ?)", (doc,))

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *_: object) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
