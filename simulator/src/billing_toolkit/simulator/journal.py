"""The request journal: what clients sent and what they got, for "did my code retry twice?".

Bounded in memory (a ring buffer: the oldest entry goes first) and built for the hot path:
serving a request appends one tuple of what the server already had (the request's headers
joined into one bytes block, its start on `perf_counter`); the dicts, the dates, the masking, the
JSON parsing of bodies — and dropping the `Authorization` and `Cookie` headers — happen only
when someone reads. The raw tuples never leave this module: every way out (`entries`,
`list`, `count`) goes through `_entry`, which drops those headers, and what `list` gives is
masked with the project's one policy (`mask_all`, and `secret_name` for what is named like
a secret), so an account number or an API key in a path, a header or a body never leaves
the journal whole. Bias: store less — a body longer
than `BODY_KEPT` is cut, not kept; headers past `HEADERS_KEPT` bytes are cut with
`TRUNCATED` at the end (a client sending 1 MB headers cannot make the journal hold them);
and besides its entry count the journal has a byte budget (`DEFAULT_JOURNAL_BYTES`): the
oldest entries go as soon as the kept bytes exceed it.

Secrets are redacted by name with the kernel's one policy (`masking.secret_name`): a header,
query parameter or JSON field (at any depth) named like `X-Api-Key`, `client_secret`,
`password` or `sig` is shown as `[redacted]`.

Filtering by a body field compares the value as the client sent it (before masking): a QA
engineer asks for `reference=INV-7`, not for its masked form; the answer is masked anyway.
A secret-named field is the exception: it compares as `[redacted]`, so a filter can never
confirm a guessed password.
`journal_filters` says how filters are written and checked.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from billing_toolkit.contract.masking import REDACTED, mask_all, redact_named, secret_name
from billing_toolkit.simulator.journal_filters import as_text, wanted_values
from billing_toolkit.simulator.request_record import RequestRecord

DEFAULT_JOURNAL_SIZE = 1000
"""Entries kept by default (`--journal-size`; 0 turns the journal off)."""
MAX_JOURNAL_SIZE = 100_000
BODY_KEPT = 16 * 1024
"""Bytes of a request body kept: scenario-sized bodies whole, a huge upload cut."""
HEADERS_KEPT = 8 * 1024
"""Bytes of header names and values kept per request (a browser sends under 2 KiB)."""
TEXT_KEPT = 4 * 1024
"""Bytes of the path and of the query string kept per request."""
TRUNCATED = b"...[truncated]"
"""The end of a header value, path or query that was cut."""
DEFAULT_JOURNAL_BYTES = 16 * 1024 * 1024
"""Bytes of bodies, headers, paths and queries the journal keeps in all: the oldest entries
go first once it is exceeded, whatever the entry count allows."""
_DROPPED_HEADERS = frozenset({b"authorization", b"cookie"})


class Entry(NamedTuple):
    """One served request as recorded: raw, cheap to make, masked only when read. Its
    first fields are `request_record.FIELDS`, the part the request log reads too."""

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
    size: int
    """Bytes this entry keeps (what the byte budget counts)."""


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
        document = redact_named(json.loads(raw)) if raw else None  # as a reader sees it
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
            return _masked(redact_named(json.loads(entry.body)))
        except ValueError:
            pass
    return mask_all(entry.body.decode("utf-8", errors="replace"))


_SEPARATOR = b"\n"
"""Between the names and values of a stored header block: no parsed header holds one."""
_HEADERS = Entry._fields.index("headers")


def _entry(raw: tuple[Any, ...]) -> Entry:
    """A stored tuple as readers may see it: its header block as pairs again, without the
    headers that carry credentials."""
    block: bytes = raw[_HEADERS]
    parts = block.split(_SEPARATOR) if block else []
    kept = tuple(
        pair
        for pair in zip(parts[::2], parts[1::2], strict=False)  # a stray LF: never a crash
        if pair[0].lower() not in _DROPPED_HEADERS
    )
    return Entry._make((*raw[:_HEADERS], kept, *raw[_HEADERS + 1 :]))


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
            name: REDACTED if secret_name(name) else mask_all(value.decode("latin-1"))
            for name, value in ((key.decode("latin-1"), value) for key, value in entry.headers)
        },
        "body": _body_view(entry),
        "body_truncated": entry.body_truncated,
    }


class RequestJournal:
    """The ring buffer. `record` runs on every request; everything else only when read.

    `deque.append` with a `maxlen` and `next()` on `itertools.count` are atomic in CPython,
    so the server thread records without a lock while a test thread reads a copy."""

    def __init__(
        self, capacity: int = DEFAULT_JOURNAL_SIZE, max_bytes: int = DEFAULT_JOURNAL_BYTES
    ) -> None:
        if not 0 <= capacity <= MAX_JOURNAL_SIZE:
            raise ValueError(f"the journal size must be between 0 and {MAX_JOURNAL_SIZE}")
        self.capacity, self.max_bytes = capacity, max_bytes
        self._entries: deque[tuple[Any, ...]] = deque()
        self._bytes = 0
        self._lock = threading.Lock()
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
        headers: Sequence[tuple[bytes, bytes]],
        body: bytes,
    ) -> RequestRecord:
        """Append a plain tuple of atoms and tuples (an `Entry` is made only when read), and
        return it: the request log writes its line from the same tuple.

        `headers` are kept as they came, every one (the reads drop the credentials), joined
        in C into one bytes block: one object kept per request instead of a tuple and two
        bytes per header (fewer to allocate, keep and free), and its length is the size;
        only headers over `HEADERS_KEPT` (and a path or query over `TEXT_KEPT`) pay for
        being cut. No list is kept: a tuple holding only strings, numbers and bytes is
        untracked by the garbage collector after its first pass, so a full journal adds
        nothing to every later collection — with lists inside, it cost more than the append.
        The lock only guards the byte count: the oldest entries leave while it is over."""
        block = _SEPARATOR.join(itertools.chain.from_iterable(headers))
        if len(block) > HEADERS_KEPT:
            block = _SEPARATOR.join(itertools.chain.from_iterable(_cut_headers(headers)))
        if len(path) > TEXT_KEPT or len(query) > TEXT_KEPT:
            path, query = _cut(path.encode()).decode("utf-8", errors="replace"), _cut(query)
        kept = body[:BODY_KEPT] if body else b""
        size = len(block) + len(kept) + len(path) + len(query)
        item = (next(self._seq), started, elapsed_s, request_id, method, path, query,
                operation_id, tenant, status, tuple(faults) if faults else (), duration_s,
                block, kept, len(body) > BODY_KEPT, size)  # fmt: skip
        entries = self._entries
        with self._lock:
            entries.append(item)
            self._bytes += size
            while len(entries) > self.capacity or self._bytes > self.max_bytes:
                self._bytes -= entries.popleft()[-1]
        return item

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

    @property
    def kept_bytes(self) -> int:
        return self._bytes

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0


def _cut(text: bytes) -> bytes:
    """`text` itself, or its first `TEXT_KEPT` bytes ending in `TRUNCATED`."""
    if len(text) <= TEXT_KEPT:
        return text
    return text[: TEXT_KEPT - len(TRUNCATED)] + TRUNCATED


def _cut_headers(pairs: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The headers that fit in `HEADERS_KEPT` bytes, in order, the one that crosses the
    limit cut and marked with `TRUNCATED`."""
    kept: list[tuple[bytes, bytes]] = []
    room = HEADERS_KEPT
    for name, value in pairs:
        name = name[:256]
        if len(name) + len(value) > room:
            value = value[: max(0, room - len(name) - len(TRUNCATED))] + TRUNCATED
        kept.append((name, value))
        room -= len(name) + len(value) + 2 * len(_SEPARATOR)
        if room <= 0:
            break
    return kept
