"""Masking personal identifiers before they reach a log or a trace.

Phones, national IDs and account numbers identify a person; logs and traces are read by more
people than the conversation is. How one is hidden is the project's one policy,
`billing_toolkit.contract.masking.hide` (first and last two digits kept: `+584121234567` →
`+58********67`), so a subscriber reads the same in the simulator's request log, the
assistant's trace and the conformance report, and an operator can still match a trace to a
complaint. *Which* text is an identifier is the assistant's own finder: it knows more
spellings than the kernel's `mask` — a spaced `+58 412-1234567`, a lower-case or spaced
cédula `v 12345678`, Unicode dashes, an account number introduced as one ("cuenta
10000048"). Invoice and payment numbers are not personal on their own and are left alone (a
trace without them could not be debugged). Bias: anything shaped like a personal identifier
is masked.
"""

from __future__ import annotations

from billing_toolkit.assistant.text.identifiers import IdentifierKind, find_identifiers
from billing_toolkit.contract.masking import hide

_PERSONAL = {IdentifierKind.PHONE, IdentifierKind.NATIONAL_ID, IdentifierKind.ACCOUNT}


def mask_personal(text: str) -> str:
    """`text` with every phone, national ID and account number hidden. Every kind is looked
    for, so an invoice or payment number keeps the text it claims (and stays visible)."""
    pieces, last = [], 0
    for identifier in find_identifiers(text):
        if identifier.kind in _PERSONAL:
            pieces += [text[last : identifier.start], hide(identifier.literal)]
            last = identifier.end
    return "".join(pieces) + text[last:]
