"""Does the message point back at something the last reply showed? "¿y qué trae esa?".

Only the pointing is read here ("esa", "la anterior", "la otra", "la primera", "that one",
"the previous one", "el pago anterior"); the turn resolves it against the conversation's referents
(`turn/referents.py`) and asks which when there is nothing (or too much) to point at.

Bias: a pointing word counts only as the subject of a short follow-up — the message has no
invoice number, month or digits of its own and is at most `MAX_WORDS` words — so "esa es mi
cuenta" in a long message or "la otra vez pagué" are not read as "that invoice" by accident.
"""

from __future__ import annotations

import re
from enum import StrEnum

from billing_toolkit.assistant.text.folding import fold

MAX_WORDS = 10


class Pointer(StrEnum):
    THAT = "that"
    PREVIOUS = "previous"
    OTHER = "other"
    FIRST = "first"
    SECOND = "second"
    PAYMENT = "payment"
    PREVIOUS_PAYMENT = "previous_payment"


_POINTERS = (
    (
        Pointer.PREVIOUS_PAYMENT,
        (
            r"\b(?:el|mi) pago (?:anterior|de antes|previo)\b|\bel (?:anterior|penultimo) pago\b"
            r"|\b(?:the|my) (?:previous|earlier|prior) payment\b|\bthe payment before\b"
        ),
    ),
    (
        Pointer.PAYMENT,
        (
            r"\b(?:ese pago|that payment|this payment|el mismo pago)\b"
            # how the payment shown was made: "¿con qué lo pagué?", "what did I pay it with?"
            r"|\bcon (?:que|cual) (?:lo |la )?(?:pague|pagamos|pagaste)\b"
            r"|\bcomo (?:lo |la )?(?:pague|pagamos|pagaste)\b(?! (?:la|mi|el|una?)\b)"
            r"|\b(?:what|how) did (?:i|we) pay (?:it|that)(?: with)?\b"
            r"|\bwhat did (?:i|we) pay with\b"
        ),
    ),
    (
        Pointer.PREVIOUS,
        (
            r"\b(?:la|el) (?:(?:factura|recibo) )?(?:anterior|de antes|previa)\b"
            r"|\bthe (?:previous|earlier|prior) (?:one|invoice|bill)\b"
            r"|\bthe one before\b"
        ),
    ),
    (Pointer.OTHER, r"\b(?:la otra|el otro)\b|\bthe other(?: one| invoice| bill)?\b"),
    (Pointer.FIRST, r"\b(?:la|el) (?:primera|primero|1ra|1era)\b|\bthe first(?: one)?\b"),
    (Pointer.SECOND, r"\b(?:la|el) (?:segunda|segundo|2da)\b|\bthe second(?: one)?\b"),
    (
        Pointer.THAT,
        (
            r"\b(?:esa|esta|la misma|dicha)(?! es\b)(?: factura)?\b|\b(?:ese|este|dicho) recibo\b"
            r"|\b(?:that|this|that same)(?: one| invoice| bill)\b"
            # whether the invoice shown is paid: its own status answers, not the last payment
            r"|\b(?:was|is|has) it (?:been )?(?:paid|settled)\b|\bya (?:esta|fue|quedo) pagad[ao]\b"
            r"|\bya (?:esta|fue|quedo) paga\b|\bya (?:la|lo) pague\b|\bse (?:la )?pago\b"
        ),
    ),
)
_COMPILED = tuple((pointer, re.compile(pattern)) for pointer, pattern in _POINTERS)


_INVOICE_WORD = re.compile(r"\b(?:factura|recibo|invoice|bill)\b")


def names_invoice(message: str) -> bool:
    """Whether the message says it is about an invoice ("esa factura", "that bill"): then a
    pointer with nothing to point at is a question to ask back, not a policy question."""
    return bool(_INVOICE_WORD.search(fold(message)))


def follow_up_text(message: str) -> str:
    """`message` folded, its punctuation and emoji gone, one space between words: what the
    follow-up rules read ("¿y cuánto era? 🙏" → "y cuanto era")."""
    return " ".join(re.sub(r"[^\w' ]+", " ", fold(message)).split())


def pointer_in(message: str) -> Pointer | None:
    """What the follow-up `message` points at, or None (see the module's bias)."""
    text = follow_up_text(message)
    if len(text.split()) > MAX_WORDS:
        return None
    for pointer, pattern in _COMPILED:
        if pattern.search(text):
            return pointer
    return None
