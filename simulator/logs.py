"""Structured logs: one JSON object per line, identifiers masked on the way out.

Masking happens in the formatter, so no call site can forget it: whatever a message or a
field carries (a path with an account number, a lookup by phone), the line written has it
masked.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any, TextIO

from simulator.masking import mask

FIELDS = (
    "request_id", "method", "path", "query", "operation_id", "status",
    "duration_ms", "tenant", "faults",
)  # fmt: skip


MASKED_FIELDS = frozenset({"request_id", "path", "query"})
"""Fields that can carry client text; the others are codes, numbers and kinds we set."""


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
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
