"""One served request as the request-context layer saw it: a plain tuple, built once and
read by both the journal and the request log.

The journal's entry is this tuple with the request's headers and body after it
(`journal.Entry` names every field); a request the journal does not keep (`--journal-size
0`, or a `/_sim` path) gets just this part, with `seq` 0. The request log renders its line
from the same tuple on its writer thread, so a request costs no dict of log fields and no
second copy of what the journal already holds. Positions, not a `NamedTuple`: making one is
a Python call, a tuple display one opcode, and this runs on every request.
"""

from __future__ import annotations

from typing import Any

FIELDS = (
    "seq", "started", "elapsed_s", "request_id", "method", "path", "query",
    "operation_id", "tenant", "status", "faults", "duration_s",
)  # fmt: skip
"""The shared part, in order: `journal.Entry` starts with exactly these."""
STARTED, REQUEST_ID, METHOD, PATH, QUERY, OPERATION_ID, TENANT, STATUS, FAULTS, DURATION = (
    FIELDS.index(name)
    for name in (
        "started", "request_id", "method", "path", "query", "operation_id", "tenant",
        "status", "faults", "duration_s",
    )
)  # fmt: skip

RequestRecord = tuple[Any, ...]
"""`FIELDS` first; `started` on `time.perf_counter`, `query` as bytes, `faults` a tuple."""


def unjournaled(
    started: float,
    request_id: str,
    method: str,
    path: str,
    query: bytes,
    operation_id: str | None,
    tenant: str | None,
    status: int | None,
    faults: tuple[str, ...],
    duration_s: float,
) -> RequestRecord:
    """The record of a request the journal did not keep (no sequence number, no arrival on
    the fault clock): what its log line needs."""
    return (0, started, 0.0, request_id, method, path, query, operation_id, tenant, status,
            faults, duration_s)  # fmt: skip
