"""A speed said to be a plan's download (or upload) speed must be a download (or upload)
speed of the evidence.

With "Fibra 100 (100/50 Mbps …)", "50 Mbps de bajada y 100 de subida" passes the figure check
— both numbers are there — yet promises the subscriber the wrong direction. So a number
the reply ties to a direction ("100 Mbps de bajada", "de subida 50", "100 Mbps down",
"upload speed of 50") is backed only by a speed of that direction: the first figure of a
`down/up Mbps` pair in the evidence (a plan's description, the plans table) for download,
the second for upload. Only evidence that gives such pairs is read this way, and a speed is
held to its direction's speeds of all the plans in the evidence, not of the plan it is said
of (the plans table beside the subscriber's own plan backs either's). Bias: a speed said of
a direction must be that direction's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from billing_toolkit.assistant.guards.record_binding import sentences
from billing_toolkit.assistant.text.folding import fold

_PAIR = re.compile(r"\b(\d+)/(\d+) ?mbps\b", re.IGNORECASE)
_UNIT = r"(?:\s*(?:mbps|megas|mb|megabits)(?: por segundo)?)?"
_DOWN = r"(?:bajada|descarga|down(?:load)?(?: speed)?|downstream)"
_UP = r"(?:subida|carga|up(?:load)?(?: speed)?|upstream)"
_SAID = tuple(
    (direction, re.compile(pattern))
    for direction, words in ((0, _DOWN), (1, _UP))
    for pattern in (
        rf"\b(\d+){_UNIT}\s+(?:de\s+)?{words}\b",
        rf"\b{words}\s*(?::\s*|\s+(?:de\s+|of\s+)?)(\d+){_UNIT}",
    )
)
"""(direction, pattern): 0 download, 1 upload; group 1 is the speed."""


def unsupported_speeds(answer: str, evidence_texts: Sequence[str]) -> tuple[str, ...]:
    """The speeds `answer` ties to a direction that no speed of that direction in the
    evidence backs."""
    pairs = [(m[1], m[2]) for text in evidence_texts for m in _PAIR.finditer(text)]
    if not pairs:
        return ()
    by_direction = ({down for down, _ in pairs}, {up for _, up in pairs})
    failed = [
        match[1]
        for sentence in sentences(answer)
        for direction, pattern in _SAID
        for match in pattern.finditer(fold(sentence))
        if match[1] not in by_direction[direction]
    ]
    return tuple(dict.fromkeys(failed))
