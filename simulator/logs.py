"""Structured logs: one JSON object per line, identifiers masked on the way out.

Masking happens in the formatter, so no call site can forget it: whatever a message or a
field carries (a path with an account number, a lookup by phone), the line written has it
masked.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Mapping
from typing import Any, TextIO

import orjson

from simulator.masking import mask

FIELDS = (
    "request_id", "method", "path", "query", "operation_id", "status",
    "duration_ms", "tenant", "faults",
)  # fmt: skip


MASKED_FIELDS = frozenset({"request_id", "path", "query"})
"""Fields that can carry client text; the others are codes, numbers and kinds we set."""


class JsonFormatter(logging.Formatter):
    """A log record as one JSON line (the request line is written on every request, so
    the timestamp's seconds part is formatted once per second)."""

    def __init__(self) -> None:
        super().__init__()
        self._second, self._prefix = -1, ""

    def _timestamp(self, record: logging.LogRecord) -> str:
        second = int(record.created)
        if second != self._second:
            self._second = second
            self._prefix = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        return f"{self._prefix}.{int(record.msecs):03d}Z"

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": self._timestamp(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": mask(record.getMessage()),
        }
        fields = record.__dict__
        for name in FIELDS:
            if name in fields:
                value = fields[name]
                line[name] = mask(value) if name in MASKED_FIELDS and value else value
        if record.exc_info:
            line["exception"] = mask(self.formatException(record.exc_info))
        return orjson.dumps(line).decode()


def log_fields(logger: logging.Logger, message: str, fields: Mapping[str, Any]) -> None:
    """An INFO record carrying `fields`, handed to `logger`'s handlers.

    The same record `logger.info(message, extra=fields)` makes, minus the caller's file and
    line (no formatter here prints them): that stack walk is skipped for a line written on
    every request.
    """
    if logger.isEnabledFor(logging.INFO):
        logger.handle(
            logger.makeRecord(logger.name, logging.INFO, "", 0, message, (), None, extra=fields)
        )


def configure_logging(level: str = "info", stream: TextIO | None = None) -> None:
    """JSON lines on stderr for the simulator's logger and uvicorn's error logger."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    for name in ("billing_sim", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
