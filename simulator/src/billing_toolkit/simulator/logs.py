"""Structured logs: one JSON object per line, identifiers masked on the way out.

Masking happens where a line is built (`_line`, shared by the formatter and by the
handler's direct path for the per-request line), so no call site can forget it: whatever
a message or a field carries (a path with an account number, a lookup by phone), the line
written has it masked.
"""

from __future__ import annotations

import atexit
import functools
import logging
import re
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TextIO

import orjson

from billing_toolkit.contract.masking import mask_all
from billing_toolkit.simulator.request_record import (
    DURATION,
    FAULTS,
    METHOD,
    OPERATION_ID,
    PATH,
    QUERY,
    REQUEST_ID,
    STARTED,
    STATUS,
    TENANT,
    RequestRecord,
)

FIELDS = (
    "request_id", "method", "path", "query", "operation_id", "status",
    "duration_ms", "tenant", "faults",
)  # fmt: skip
"""The request line's fields, in order. Of these, `request_id`, `path` and `query` can
carry client text: they are percent-decoded, then identifiers masked and token-shaped
values redacted (`mask_all`); the rest are codes, numbers and kinds we set."""


_MILLIS = (*(f".{millis:03d}Z" for millis in range(1000)), ".999Z")
"""Every milliseconds suffix, spelled once: formatting it was a third of a line's cost
(the last: a fraction that rounds up to a whole second when multiplied)."""


class _Timestamps:
    """ISO-8601 UTC with milliseconds; the seconds part is formatted once per second (the
    request line is written on every request)."""

    def __init__(self) -> None:
        self._second, self._prefix = -1, ""

    def format(self, created: float) -> str:
        second = int(created)
        if second != self._second:
            self._second = second
            self._prefix = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        return self._prefix + _MILLIS[int((created - second) * 1000)]


REQUEST_QUEUES: dict[str, Callable[[tuple[str, RequestRecord]], None]] = {}
"""Per logger name, where its request lines go when a background writer serves it (what
`configure_logging(background=True)` sets up at INFO or below): the writer's queue itself,
a C method — the request path's whole cost of its line is looking it up and one append.
Whether the logger is still set up as it was (one handler of ours, no filters, INFO
enabled) is the writer's to check when it writes (`JsonLinesHandler.write_pending`), not
each request's."""

WRITE_EVERY_S = 0.05
"""How often the background writer writes the queued request lines."""

_masked_text = functools.lru_cache(maxsize=4096)(mask_all)
"""`mask_all` remembered per distinct text: a request line's path and query repeat (tests
and load ask for the same few accounts), and the regex walk is most of a line's cost."""
_OUR_ID = re.compile(r"req-[a-p]{16}").fullmatch
"""Whether a request id is one the simulator made (`endpoint.new_request_id`): no digit,
no secret, nothing to mask. Any other id is the client's text and is masked like the path."""


def _line(
    timestamps: _Timestamps, created: float, level: str, logger: str, message: str,
    fields: Mapping[str, Any],
) -> dict[str, Any]:  # fmt: skip
    """The JSON object of one line: the record's own keys, then `fields` (known ones only,
    which the callers see to), client text masked. Written out rather than looped: it runs
    once per request."""
    line: dict[str, Any] = {
        "ts": timestamps.format(created),
        "level": level,
        "logger": logger,
        "message": _masked_text(message),  # messages repeat ("request")
        **fields,
    }
    if request_id := line.get("request_id"):
        line["request_id"] = _shown_id(request_id)
    if path := line.get("path"):
        line["path"] = _masked_text(path)
    if query := line.get("query"):
        line["query"] = _masked_text(query)
    return line


def _shown_id(request_id: str) -> str:
    """An id of ours as it is; a client's masked (a key in it is redacted)."""
    return request_id if _OUR_ID(request_id) else mask_all(request_id)


def _request_lines(
    timestamps: _Timestamps, batch: Iterable[tuple[str, RequestRecord]], wall_offset: float
) -> str:
    """The lines `_line` would make of `request_fields(record)` for each (logger, record) of
    `batch`, each object built in one go and encoded in C, the batch decoded once. The
    writer thread renders one line per request: the fields dict, its copy, the lookups and
    a call per line were most of its cost, so names are bound once per batch.
    `wall_offset` turns the records' `perf_counter` readings into Unix time.

    Each line's bytes go into one `bytearray` as soon as they are made and are freed at
    once: kept in a list until a join, hundreds of orjson outputs alive together cost eight
    times their encoding (each is a 1 KiB buffer shrunk in place, which the C allocator
    serves badly when many stay allocated) — 2.5 µs a line instead of 0.3."""
    dumps, newline, masked, shown = orjson.dumps, orjson.OPT_APPEND_NEWLINE, _masked_text, _shown_id
    stamp = timestamps.format
    text = bytearray()
    for logger, record in batch:
        query, duration = record[QUERY], record[DURATION]
        line = {
            "ts": stamp(record[STARTED] + duration + wall_offset),  # when it ended
            "level": "info",
            "logger": logger,
            "message": "request",
            "request_id": shown(record[REQUEST_ID]),
            "method": record[METHOD],
            "path": masked(record[PATH]),
            "query": masked(query.decode("latin-1")) if query else "",
            "operation_id": record[OPERATION_ID],
            "status": record[STATUS],
            "duration_ms": round(duration * 1e6) / 1000,  # `_millis`, without the call
            "tenant": record[TENANT],
            "faults": record[FAULTS],  # a tuple: orjson writes it as the list it was
        }
        text += dumps(line, option=newline)
    return text.decode()


def _millis(seconds: float) -> float:
    """Whole microseconds as milliseconds: `round(x, 3)` on a float is several times slower."""
    return round(seconds * 1e6) / 1000


class JsonFormatter(logging.Formatter):
    """A log record as one JSON line."""

    def __init__(self) -> None:
        super().__init__()
        self._timestamps = _Timestamps()

    def format(self, record: logging.LogRecord) -> str:
        line = _line(
            self._timestamps,
            record.created,
            record.levelname.lower(),
            record.name,
            record.getMessage(),
            {name: record.__dict__[name] for name in FIELDS if name in record.__dict__},
        )
        if record.exc_info:
            line["exception"] = mask_all(self.formatException(record.exc_info))
        return orjson.dumps(line).decode()


class JsonLinesHandler(logging.StreamHandler[TextIO]):
    """The handler `configure_logging` installs: records as JSON lines on a stream, plus
    `write_request`, which writes a request's line straight from its `RequestRecord`.

    `write_request` is the per-request path: the same bytes `handle` would write for the
    record `log_request` would otherwise make, without building a `LogRecord` (or even a
    dict of fields) and walking `logging`'s dispatch for it.
    """

    def __init__(self, stream: TextIO) -> None:
        super().__init__(stream)
        self.setFormatter(JsonFormatter())
        self._timestamps = _Timestamps()
        self._pending: deque[tuple[str, RequestRecord]] = deque()
        self.queue_request = self._pending.append
        """Queue a (logger name, record) for the writer thread: `REQUEST_QUEUES`' entry."""
        self._writer: threading.Thread | None = None
        self._stopped = threading.Event()

    def write_request(self, logger: str, record: RequestRecord) -> bool:
        """Write the line, or queue the record for the writer thread when one runs
        (`write_in_background`); False when writing failed (a closed stream, a broken pipe,
        a field orjson cannot encode), so the caller hands a `LogRecord` to `handle`, whose
        error handling reports it as usual."""
        if self._writer is not None:
            self._pending.append((logger, record))
            return True
        try:
            offset = time.time() - time.perf_counter()
            text = _request_lines(self._timestamps, ((logger, record),), offset)
            with self.lock:  # type: ignore[union-attr]
                self.stream.write(text)
                self.stream.flush()
        except Exception:  # noqa: BLE001 - a log line must never fail the request
            return False
        return True

    def write_in_background(self, every_s: float = WRITE_EVERY_S) -> None:
        """From now on `write_request` only queues its record (a tuple append: the
        request's whole cost) and a daemon thread writes what is queued every `every_s`,
        in one write and one flush. Formatting a batch in a loop and one system call per
        batch cost a fraction of one line each in the middle of a request (issue 28: the
        line was a third of the simulator's CPU per request). Anything else logged, and the
        process's exit, write the queue first, so lines stay in order and none is lost on a
        normal stop (a SIGKILL loses at most `every_s` of them)."""
        if self._writer is None:
            self._writer = threading.Thread(
                target=self._write_every, args=(every_s,), name="request-log", daemon=True
            )
            self._writer.start()
            atexit.register(self.write_pending)

    def _write_every(self, every_s: float) -> None:
        while not self._stopped.wait(every_s):
            self.write_pending()

    def write_pending(self) -> None:
        """Write every queued line now (the writer thread, `emit`, `flush` and exit call it).

        Lines queued straight from the request path (`REQUEST_QUEUES`) are written as
        `log_request` would have logged them: rendered here while their logger is set up as
        `configure_logging` left it, handed to `logging` as records otherwise (a handler or
        filter added since), dropped when it no longer logs INFO."""
        pending = self._pending
        if not pending:
            return
        with self.lock:  # type: ignore[union-attr]
            batch = [pending.popleft() for _ in range(len(pending))]
            ours = {name for name in {name for name, _ in batch} if self._writes_for(name)}
            by_record = [item for item in batch if item[0] not in ours]
            if by_record:
                batch = [item for item in batch if item[0] in ours]
            offset = time.time() - time.perf_counter()
            text = _request_lines(self._timestamps, batch, offset)
            try:
                self.stream.write(text)
                self.stream.flush()
            except Exception:  # noqa: BLE001 - a closed stream: nothing left to write to
                pending.clear()
        for name, record in by_record:
            logger = logging.getLogger(name)
            if logger.isEnabledFor(logging.INFO):
                logger.handle(_request_record(logger, record))

    def _writes_for(self, name: str) -> bool:
        """Whether `name`'s request lines are this handler's alone to write (`log_request`'s
        test, made when they are written)."""
        logger = logging.getLogger(name)
        return _only_destination(logger) is self and logger.isEnabledFor(logging.INFO)

    def emit(self, record: logging.LogRecord) -> None:
        self.write_pending()
        super().emit(record)

    def flush(self) -> None:
        self.write_pending()
        super().flush()

    def close(self) -> None:
        """The queue written, the writer thread stopped, the request path no longer sent here."""
        for name, queue in list(REQUEST_QUEUES.items()):
            if queue == self.queue_request:
                del REQUEST_QUEUES[name]
        self._stopped.set()
        self.write_pending()
        super().close()


def request_fields(record: RequestRecord) -> dict[str, Any]:
    """The request line's fields (`FIELDS`, in order) of a record, as `extra` on a
    `LogRecord` would carry them (unmasked: `_line` masks)."""
    return {
        "request_id": record[REQUEST_ID],
        "method": record[METHOD],
        "path": record[PATH],
        "query": record[QUERY].decode("latin-1"),
        "operation_id": record[OPERATION_ID],
        "status": record[STATUS],
        "duration_ms": _millis(record[DURATION]),
        "tenant": record[TENANT],
        "faults": list(record[FAULTS]),
    }


def log_request(logger: logging.Logger, record: RequestRecord) -> None:
    """The INFO line "request" of one served request, as `logger.info("request",
    extra=request_fields(record))` would log it.

    When the logger's only destination is the `JsonLinesHandler` `configure_logging` set up
    (no filters anywhere), the handler writes the line from the record itself; otherwise (a
    test or an embedding application added its own handler or filter) a `LogRecord` goes
    through `logging` as usual, minus the caller's file and line (no formatter here prints
    them). The caller checked `isEnabledFor(INFO)` (`--log-level warning`: nothing to do).
    """
    handler = _only_destination(logger)
    if handler is not None and handler.write_request(logger.name, record):
        return
    logger.handle(_request_record(logger, record))


def _only_destination(logger: logging.Logger) -> JsonLinesHandler | None:
    """The `JsonLinesHandler` that is `logger`'s only destination, with no filter on either
    and a level that lets INFO through; None when it is set up otherwise."""
    handlers = logger.handlers
    if (
        len(handlers) == 1
        and type(handler := handlers[0]) is JsonLinesHandler
        and not logger.propagate
        and not logger.filters
        and not handler.filters
        and handler.level <= logging.INFO
    ):
        return handler
    return None


def _request_record(logger: logging.Logger, record: RequestRecord) -> logging.LogRecord:
    """The `LogRecord` of a request line, minus the caller's file and line (no formatter
    here prints them)."""
    return logger.makeRecord(
        logger.name, logging.INFO, "", 0, "request", (), None, extra=request_fields(record)
    )


LOGGER_NAMES = ("billing_sim", "uvicorn.error")
"""The loggers `configure_logging` sets up: the simulator's own and uvicorn's errors."""
REQUEST_LOGGER = LOGGER_NAMES[0]
"""The one whose request lines may skip `log_request` (`REQUEST_QUEUES`)."""


def configure_logging(
    level: str = "info",
    stream: TextIO | None = None,
    *,
    background: bool = False,
    every_s: float = WRITE_EVERY_S,
) -> None:
    """JSON lines on stderr for the simulator's logger and uvicorn's error logger; with
    `background` (what `billing-sim serve` asks), request lines are written by a thread
    every `every_s` (`JsonLinesHandler.write_in_background`) and, at INFO, queued for it
    straight from the request path (`REQUEST_QUEUES`)."""
    handler = JsonLinesHandler(stream or sys.stderr)
    REQUEST_QUEUES.clear()  # a handler set up before no longer takes the request lines
    if background:
        handler.write_in_background(every_s)
    for name in LOGGER_NAMES:
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
    if background and logging.getLogger(REQUEST_LOGGER).isEnabledFor(logging.INFO):
        REQUEST_QUEUES[REQUEST_LOGGER] = handler.queue_request
