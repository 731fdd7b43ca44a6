"""The last identifier check: a reply may only name identifiers this customer is entitled to.

Every invoice, account, payment, ID or phone number in the final reply must be one the
subscriber wrote in this message or one a tool returned for this customer in this turn. The
grounding verifier already rejects invented digits; this catches what it cannot: an identifier
that *is* in the evidence but not the customer's — an example invoice number quoted from a
knowledge-base article, say — which a subscriber would read as their own. Compared by
canonical key, so `V-12.345.678` and `V-12345678` are the same identifier.
"""

from __future__ import annotations

from collections.abc import Sequence

from billing_toolkit.assistant.text.identifiers import Identifier, find_identifiers


def foreign_identifiers(reply: str, entitled_texts: Sequence[str]) -> list[Identifier]:
    """The identifiers in `reply` that appear in none of `entitled_texts`."""
    entitled = {i.key for text in entitled_texts for i in find_identifiers(text)}
    return [i for i in find_identifiers(reply) if i.key not in entitled]
