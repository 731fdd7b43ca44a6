"""The request journal: what clients sent and what they got, for "did my code retry twice?".

Bounded in memory (a ring buffer: the oldest entry goes first) and built for the hot path:
serving a request appends one tuple of what the server already had (the request's header
pairs as they came, its start on `perf_counter`); the dicts, the dates, the masking, the
JSON parsing of bodies — and dropping the `Authorization` and `Cookie` headers — happen only
when someone reads. The raw tuples never leave this module: every way out (`entries`,
`list`, `count`) goes through `_entry`, which drops those headers, and what `list` gives is
masked with the project's one policy (`mask_all`), so an account number or an API key in a
path, a header or a body never leaves the journal whole. Bias: store less — a body longer
than `BODY_KEPT` is cut, not kept.

Filtering by a body field compares the value as the client sent it (before masking): a QA
engineer asks for `reference=INV-7`, not for its masked form; the answer is masked anyway.
`journal_filters` says how filters are written and checked.
"""

from __future__ import annotations

import itertools
import json
import time
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from billing_toolkit.contract.masking import mask_all
from billing_toolkit.simulator.journal_filters import as_text, wanted_values

DEFAULT_JOURNAL_SIZE = 1000
"""Entries kept by default (`--journal-size`; 0 turns the journal off)."""
MAX_JOURNAL_SIZE = 100_000
BODY_KEPT = 16 * 1024
"""Bytes of a request body kept: scenario-sized bodies whole, a huge upload cut."""
_DROPPED_HEADERS = frozenset({b"authorization", b"cookie"})


class Entry(NamedTuple):
    """One served request as recorded: raw, cheap to make, masked only when read."""

    seq: int
    started: float
    """On `time.perf_counter` (what the request-context layer took): a date when read."""
    elapsed_s: float
    request_id: str
    method: str
    path: str
    query: bytes
    operation_id: str | None
    tenant: str | None
    status: int | None
    """None when the connection was cut or reset before a response started."""
    faults: tuple[str, ...]
    duration_s: float
    headers: tuple[tuple[bytes, bytes], ...]
    body: bytes
    body_truncated: bool


@dataclass(frozen=True, slots=True)
class JournalQuery:
    """Which entries to read; every filter given must hold (None: any)."""

    operation: str | None = None
    tenant: str | None = None
    status: int | None = None
    since: float | None = None
    """Seconds on the fault clock since the simulator started (as `elapsed_s`), inclusive."""
    until: float | None = None
    """Exclusive: `since=10&until=20` and `since=20` do not overlap."""
    request_id: str | None = None
    body: Mapping[str, Any] | None = None
    """Dotted field path → value (`{"reference": "INV-7"}`, `{"amount.value": 5}`), checked
    when the query is made (`JournalQueryError` naming the field) and compared as text."""

    def __post_init__(self) -> None:
        if self.body:
            object.__setattr__(self, "body", wanted_values(self.body))

    def matches(self, entry: Entry) -> bool:
        if self.operation is not None and entry.operation_id != self.operation:
            return False
        if self.tenant is not None and entry.tenant != self.tenant:
            return False
        if self.status is not None and entry.status != self.status:
            return False
        if self.since is not None and entry.elapsed_s < self.since:
            return False
        if self.until is not None and entry.elapsed_s >= self.until:
            return False
        if self.request_id is not None and entry.request_id != self.request_id:
            return False
        return not self.body or _body_matches(entry.body, self.body)


def _body_matches(raw: bytes, wanted: Mapping[str, str]) -> bool:
    try:
        document = json.loads(raw) if raw else None
    except ValueError:
        return False
    for path, value in wanted.items():
        found: Any = document
        for part in path.split("."):
            if not isinstance(found, dict) or part not in found:
                return False
            found = found[part]
        if as_text(found) != value:
            return False
    return True


def _masked(value: Any) -> Any:
    """Every string of a parsed JSON body masked; numbers that look like identifiers too."""
    if isinstance(value, str):
        return mask_all(value)
    if isinstance(value, dict):
        return {mask_all(str(key)): _masked(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_masked(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool):
        masked = mask_all(str(value))
        return value if masked == str(value) else masked
    return value


def _body_view(entry: Entry) -> Any:
    if not entry.body:
        return None
    if not entry.body_truncated:
        try:
            return _masked(json.loads(entry.body))
        except ValueError:
            pass
    return mask_all(entry.body.decode("utf-8", errors="replace"))


def _entry(raw: tuple[Any, ...]) -> Entry:
    """A stored tuple as readers may see it: without the headers that carry credentials."""
    entry = Entry._make(raw)
    kept = tuple([item for item in entry.headers if item[0].lower() not in _DROPPED_HEADERS])
    return entry._replace(headers=kept)


def entry_view(entry: Entry, wall_offset: float) -> dict[str, Any]:
    """What a reader sees of one entry (the admin API's `JournalEntry`); `wall_offset`
    turns `perf_counter` readings into Unix time (`time.time() - time.perf_counter()`)."""
    at = datetime.fromtimestamp(entry.started + wall_offset, UTC)
    return {
        "seq": entry.seq,
        "at": at.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "elapsed_s": round(entry.elapsed_s, 6),
        "request_id": entry.request_id,
        "method": entry.method,
        "path": mask_all(entry.path),
        "query": mask_all(entry.query.decode("latin-1")),
        "operation_id": entry.operation_id,
        "tenant": entry.tenant,
        "status": entry.status,
        "faults": list(entry.faults),
        "duration_ms": round(entry.duration_s * 1e6) / 1000,
        "headers": {
            key.decode("latin-1"): mask_all(value.decode("latin-1")) for key, value in entry.headers
        },
        "body": _body_view(entry),
        "body_truncated": entry.body_truncated,
    }


class RequestJournal:
    """The ring buffer. `record` runs on every request; everything else only when read.

    `deque.append` with a `maxlen` and `next()` on `itertools.count` are atomic in CPython,
    so the server thread records without a lock while a test thread reads a copy."""

    def __init__(self, capacity: int = DEFAULT_JOURNAL_SIZE) -> None:
        if not 0 <= capacity <= MAX_JOURNAL_SIZE:
            raise ValueError(f"the journal size must be between 0 and {MAX_JOURNAL_SIZE}")
        self.capacity = capacity
        self._entries: deque[tuple[Any, ...]] = deque(maxlen=capacity)
        self._seq = itertools.count(1)

    @property
    def enabled(self) -> bool:
        return self.capacity > 0

    def record(
        self,
        started: float,
        elapsed_s: float,
        request_id: str,
        method: str,
        path: str,
        query: bytes,
        operation_id: str | None,
        tenant: str | None,
        status: int | None,
        faults: Sequence[str] | None,
        duration_s: float,
        headers: Iterable[tuple[bytes, bytes]],
        body: bytes,
    ) -> None:
        """Append a plain tuple of atoms and tuples (an `Entry` is made only when read).

        `headers` are kept as they came, every one (the reads drop the credentials): one
        copy in C instead of a filtering loop on every request. No list is kept: a tuple
        holding only strings, numbers and bytes is untracked by the garbage collector after
        its first pass, so a full journal adds nothing to every later collection — with
        lists inside, it cost more than the append."""
        self._entries.append(
            (next(self._seq), started, elapsed_s, request_id, method, path, query,
             operation_id, tenant, status, tuple(faults) if faults else (), duration_s,
             tuple(headers), body[:BODY_KEPT] if body else b"", len(body) > BODY_KEPT)
        )  # fmt: skip

    def entries(self, query: JournalQuery | None = None) -> list[Entry]:
        """Oldest first; only those `query` matches."""
        snapshot = map(_entry, self._entries.copy())
        return [entry for entry in snapshot if query is None or query.matches(entry)]

    def list(
        self, query: JournalQuery | None = None, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """The matching entries as dicts, oldest first; with `limit`, only the newest `limit`."""
        found = self.entries(query)
        if limit is not None:
            found = found[-limit:] if limit else []
        wall_offset = time.time() - time.perf_counter()
        return [entry_view(entry, wall_offset) for entry in found]

    def count(self, query: JournalQuery | None = None) -> int:
        return len(self.entries(query))

    def clear(self) -> None:
        self._entries.clear()
