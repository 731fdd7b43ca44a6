"""Splitting a message that asks several things: "cuanto debo y como pago".

A clause boundary is a numbered or lettered item ("1) … 2) …") or a bullet, a question or
full stop, a semicolon, or a coordinating "y"/"and"/"también"/"also" between clauses that
each have at least two words — and then the commas of that enumeration ("cuánto debo,
cuándo vence y cómo pago"; a comma alone is not a boundary: "now that it is cancelled, do
I owe anything?" is one question, and "30,00" is a figure). The split is
conservative on purpose: "pago movil y transferencia" stays whole because one side has a
single word, and the router only acts on a split when the parts land on *different* confident
intents (otherwise the message is routed whole).
"""

from __future__ import annotations

import re

_NUMBERED = re.compile(r"(?:^|\s)\(?(?:\d{1,2}|[a-eA-E])[).-](?=\s)|(?:^|\n)\s*[-*•]\s")
"""A numbered or lettered item ("1) saldo 2) mora", "a. … b. …") or a bullet opens a clause."""
_HARD = re.compile(r"[?¿!¡;.\n]+(?:\s|$)|[?¿!¡;]+")
_SOFT = re.compile(r"\s*,?\s+(?:y|e|and|tambien|también|also|ademas|además|plus)\s+", re.IGNORECASE)
_COMMA = re.compile(r"\s*,\s+")
MIN_WORDS = 2


def split_clauses(message: str) -> list[str]:
    """The clauses of `message`, in order (the whole message when it has only one)."""
    parts: list[str] = []
    pieces = [p for item in _NUMBERED.split(message) for p in _HARD.split(item)]
    for piece in pieces:
        pieces = [p.strip(" ,") for p in _SOFT.split(piece)]
        if len(pieces) > 1:
            pieces = [c.strip(" ,") for p in pieces for c in _COMMA.split(p)]
        if len(pieces) > 1 and all(len(p.split()) >= MIN_WORDS for p in pieces):
            parts += pieces
        elif piece.strip(" ,"):
            parts.append(piece.strip(" ,"))
    return parts or [message.strip()]


_ITEM = re.compile(rf"{_COMMA.pattern}|{_SOFT.pattern}", re.IGNORECASE)


def split_items(message: str) -> list[str]:
    """The items of a message written as a list — a payment report's "pago móvil, ref
    0045127, Bs. 1.310,40, banesco y ¿a cómo está el dólar?": its clauses cut again at every
    comma and conjunction, however short the pieces (the caller decides which item asks
    something; the rest are facts)."""
    items = (item.strip(" ,") for clause in split_clauses(message) for item in _ITEM.split(clause))
    return [item for item in items if item]
