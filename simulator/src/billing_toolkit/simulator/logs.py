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
from collections.abc import Mapping
from typing import Any, TextIO

import orjson

from billing_toolkit.contract.masking import mask_all

FIELDS = (
    "request_id", "method", "path", "query", "operation_id", "status",
    "duration_ms", "tenant", "faults",
)  # fmt: skip


_KNOWN_FIELDS = frozenset(FIELDS)
"""Of these, `request_id`, `path` and `query` can carry client text: they are
percent-decoded, then identifiers masked and token-shaped values redacted (`mask_all`);
the rest are codes, numbers and kinds we set."""


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


WRITE_EVERY_S = 0.05
"""How often the background writer writes the queued request lines."""

_masked_text = functools.lru_cache(maxsize=4096)(mask_all)
"""`mask_all` remembered per distinct text: a request line's path and query repeat (tests
and load ask for the same few accounts), and the regex walk is most of a line's cost."""
_OUR_REQUEST_ID = re.compile(r"req-[a-p]{16}")
"""The ids the simulator makes (`endpoint.new_request_id`): no digit, no secret, nothing to
mask. Any other id is the client's text and is masked like the path."""


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
    request_id = line.get("request_id")
    if request_id and not (request_id.startswith("req-") and _OUR_REQUEST_ID.fullmatch(request_id)):
        line["request_id"] = mask_all(request_id)  # a client's: a key in it is redacted
    if path := line.get("path"):
        line["path"] = _masked_text(path)
    if query := line.get("query"):
        line["query"] = _masked_text(query)
    return line


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
    `write_info`, which writes the line of an INFO message straight from its fields.

    `write_info` is the per-request path: the same bytes `handle` would write for the
    record, without building the `LogRecord` and walking `logging`'s dispatch for it.
    """

    def __init__(self, stream: TextIO) -> None:
        super().__init__(stream)
        self.setFormatter(JsonFormatter())
        self._timestamps = _Timestamps()
        self._pending: deque[tuple[float, str, str, Mapping[str, Any]]] = deque()
        self._writer: threading.Thread | None = None
        self._stopped = threading.Event()

    def write_info(self, logger: str, message: str, fields: Mapping[str, Any]) -> bool:
        """Write the line, or queue it for the writer thread when one runs
        (`write_in_background`); False when writing failed (a closed stream, a broken pipe,
        a field orjson cannot encode), so the caller hands a record to `handle`, whose
        error handling reports it as usual."""
        if self._writer is not None:
            self._pending.append((time.time(), logger, message, fields))
            return True
        try:
            text = self._text(time.time(), logger, message, fields)
            with self.lock:  # type: ignore[union-attr]
                self.stream.write(text)
                self.stream.flush()
        except Exception:  # noqa: BLE001 - a log line must never fail the request
            return False
        return True

    def _text(self, created: float, logger: str, message: str, fields: Mapping[str, Any]) -> str:
        line = _line(self._timestamps, created, "info", logger, message, fields)
        return orjson.dumps(line, option=orjson.OPT_APPEND_NEWLINE).decode()

    def write_in_background(self, every_s: float = WRITE_EVERY_S) -> None:
        """From now on `write_info` only queues its line (a tuple append: the request's
        whole cost) and a daemon thread writes what is queued every `every_s`, in one
        write and one flush. Formatting a batch in a loop and one system call per batch
        cost a fraction of one line each in the middle of a request (issue 28: the line
        was a third of the simulator's CPU per request). Anything else logged, and the
        process's exit, write the queue first, so lines stay in order and none is lost
        on a normal stop (a SIGKILL loses at most `every_s` of them)."""
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
        """Write every queued line now (the writer thread, `emit`, `flush` and exit call it)."""
        pending = self._pending
        if not pending:
            return
        with self.lock:  # type: ignore[union-attr]
            lines = []
            while pending:
                lines.append(self._text(*pending.popleft()))
            try:
                self.stream.write("".join(lines))
                self.stream.flush()
            except Exception:  # noqa: BLE001 - a closed stream: nothing left to write to
                pending.clear()

    def emit(self, record: logging.LogRecord) -> None:
        self.write_pending()
        super().emit(record)

    def flush(self) -> None:
        self.write_pending()
        super().flush()

    def close(self) -> None:
        """The queue written, the writer thread stopped."""
        self._stopped.set()
        self.write_pending()
        super().close()


def log_fields(logger: logging.Logger, message: str, fields: Mapping[str, Any]) -> None:
    """An INFO line carrying `fields`, as `logger.info(message, extra=fields)` would log it.

    When the logger's only destination is the `JsonLinesHandler` `configure_logging` set up
    (no filters anywhere) and every field is one of `FIELDS`, the handler writes the line
    directly (keys in `fields`' order); otherwise (a test or an embedding application added
    its own handler or filter) a record goes through `logging` as usual, minus the caller's
    file and line (no formatter here prints them).
    """
    if not logger.isEnabledFor(logging.INFO):
        return
    handlers = logger.handlers
    if (
        len(handlers) == 1
        and type(handler := handlers[0]) is JsonLinesHandler
        and not logger.propagate
        and not logger.filters
        and not handler.filters
        and handler.level <= logging.INFO
        and fields.keys() <= _KNOWN_FIELDS
        and handler.write_info(logger.name, message, fields)
    ):
        return
    logger.handle(
        logger.makeRecord(logger.name, logging.INFO, "", 0, message, (), None, extra=fields)
    )


LOGGER_NAMES = ("billing_sim", "uvicorn.error")
"""The loggers `configure_logging` sets up: the simulator's own and uvicorn's errors."""


def configure_logging(
    level: str = "info", stream: TextIO | None = None, *, background: bool = False
) -> None:
    """JSON lines on stderr for the simulator's logger and uvicorn's error logger; with
    `background` (what `billing-sim serve` asks), request lines are written by a thread
    (`JsonLinesHandler.write_in_background`)."""
    handler = JsonLinesHandler(stream or sys.stderr)
    if background:
        handler.write_in_background()
    for name in LOGGER_NAMES:
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
