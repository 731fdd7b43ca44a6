"""Structured logs: one JSON object per line, identifiers masked on the way out.

Masking happens in the formatter, so no call site can forget it: whatever a message or a
field carries (a path with an account number, a lookup by phone), the line written has it
masked.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

from simulator.masking import mask

FIELDS = (
    "request_id", "method", "path", "query", "operation_id", "status",
    "duration_ms", "tenant", "faults",
)  # fmt: skip


def _masked(value: Any) -> Any:
    if isinstance(value, str):
        return mask(value)
    if isinstance(value, list):
        return [_masked(item) for item in value]
    return value


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": mask(record.getMessage()),
        }
        for name in FIELDS:
            if name in record.__dict__:
                line[name] = _masked(record.__dict__[name])
        if record.exc_info:
            line["exception"] = mask(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False)


def configure_logging(level: str = "info", stream: TextIO | None = None) -> None:
    """JSON lines on stderr for the simulator's logger and uvicorn's error logger."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    for name in ("billing_sim", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
