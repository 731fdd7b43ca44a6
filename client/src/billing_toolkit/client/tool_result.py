"""What a capability call becomes: data the assistant can cite, a business "no", or an outage.

The distinction that matters downstream is `should_escalate`: "the billing API is down" and
"this invoice does not exist" both carry no data, but the first is an outage (hand the
conversation to a human now) and the second is an answer (tell the subscriber it was not found).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ToolResult:
    """The outcome of one capability call.

    `evidence_text` states every figure exactly as the system of record gave it (same digits,
    same decimals, with currency and identifiers), plus any figure derived in code with
    Decimal, so the grounding verifier can cite it. It is None when there is no data.
    """

    capability: str
    ok: bool
    evidence_text: str | None = None
    data: dict[str, Any] | None = None
    error: str | None = None
    should_escalate: bool = False
