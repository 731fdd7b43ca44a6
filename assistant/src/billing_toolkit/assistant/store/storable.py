"""Text the store can hold: what a database refuses is repaired, never a reason to refuse.

A subscriber's message can carry code points no database stores: a lone UTF-16 surrogate
(half an emoji, `"hola \\ud83d"` — valid JSON, not valid Unicode text) cannot be encoded as
UTF-8, and PostgreSQL refuses NUL in `TEXT`. Rejecting the message would lose it (WhatsApp
redelivers it, it fails again, and every message delivered with it waits forever), so the bias
is to keep: each such code point becomes U+FFFD, the replacement character, and the rest of
the text is stored and answered as written. A surrogate pair split over two code points is
joined into the character it stands for, not replaced.
"""

from __future__ import annotations

import re

REPLACEMENT = "\ufffd"
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def is_storable(text: str) -> bool:
    """True when `text` is stored exactly as it is."""
    return _UNSTORABLE.search(text) is None


def storable(text: str) -> str:
    """`text` with every code point the store cannot hold replaced by U+FFFD."""
    if is_storable(text):
        return text
    joined = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return _UNSTORABLE.sub(REPLACEMENT, joined)
