"""Masking personal identifiers before they reach a log or a trace.

Phones, national IDs and account numbers identify a person; logs and traces are read by more
people than the conversation is. All but the last four digits are replaced by `•`, so an
operator can still tell two subscribers apart and match a trace to a complaint. Invoice and
payment numbers are not personal on their own and are left alone (a trace without them could
not be debugged). Bias: anything shaped like a personal identifier is masked.
"""

from __future__ import annotations

from assistant.identifiers import IdentifierKind, find_identifiers

_PERSONAL = {IdentifierKind.PHONE, IdentifierKind.NATIONAL_ID, IdentifierKind.ACCOUNT}
_VISIBLE_DIGITS = 4


def _mask_literal(literal: str) -> str:
    digits = [i for i, ch in enumerate(literal) if ch.isdigit()]
    hidden = set(digits[:-_VISIBLE_DIGITS]) if len(digits) > _VISIBLE_DIGITS else set(digits)
    return "".join("•" if i in hidden else ch for i, ch in enumerate(literal))


def mask_personal(text: str) -> str:
    """`text` with every phone, national ID and account number masked."""
    pieces, last = [], 0
    for identifier in find_identifiers(text):
        if identifier.kind in _PERSONAL:
            pieces += [text[last:identifier.start], _mask_literal(identifier.literal)]
            last = identifier.end
    return "".join(pieces) + text[last:]

