"""Splitting a message that asks several things: "cuanto debo y como pago".

A clause boundary is a question or full stop, a semicolon, or a coordinating "y"/"and"/
"también"/"also" between two clauses that each have at least two words. The split is
conservative on purpose: "pago movil y transferencia" stays whole because one side has a
single word, and the router only acts on a split when the parts land on *different* confident
intents (otherwise the message is routed whole).
"""

from __future__ import annotations

import re

_HARD = re.compile(r"[?¿!¡;.\n]+(?:\s|$)|[?¿!¡;]+")
_SOFT = re.compile(r"\s*,?\s+(?:y|e|and|tambien|también|also|ademas|además|plus)\s+", re.IGNORECASE)
MIN_WORDS = 2


def split_clauses(message: str) -> list[str]:
    """The clauses of `message`, in order (the whole message when it has only one)."""
    parts: list[str] = []
    for piece in _HARD.split(message):
        pieces = [p.strip(" ,") for p in _SOFT.split(piece)]
        if len(pieces) > 1 and all(len(p.split()) >= MIN_WORDS for p in pieces):
            parts += pieces
        elif piece.strip(" ,"):
            parts.append(piece.strip(" ,"))
    return parts or [message.strip()]
