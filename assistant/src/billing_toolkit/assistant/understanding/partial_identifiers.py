"""The last digits of an invoice, as subscribers quote them: "la que termina en 4410".

Only the digits are read here; the turn resolves them among the subscriber's *own* invoices
(`turn/invoice_choice.py`), never by a look-up in the billing system: a suffix is not an
identifier, and searching the whole tenant by one would let anybody fish for invoices.

Bias: 3 to 6 digits, after words that say they are the end of a number ("termina en",
"terminada en", "acaba en", "los últimos dígitos", "ends in", "ending with", "the one
ending 4410", "last digits"), or right after an invoice word ("la factura 7875", "factura
nro 7875", "invoice 7875": a whole number is never that short) — but not a year ("la
factura 2026") nor an amount ("factura 100,00"). Fewer than three digits match too many invoices to mean one; more than six is a
whole number, read by `text/identifiers.py`.
"""

from __future__ import annotations

import re

from billing_toolkit.assistant.text.folding import fold

_COUNT = r"(?:\d|tres|cuatro|cinco|seis|three|four|five|six) "
_SUFFIX = re.compile(
    r"\b(?:termina(?:n|da)? en|acaba(?:n|da)? en|finaliza(?:da)? en|"
    rf"(?:los |sus |cuyos )?ultimos (?:{_COUNT})?(?:digitos|numeros)(?: son| es| de)?|"
    r"(?:ends|ending)(?: in| with)?|end (?:in|with)|"
    rf"(?:the |whose )?last (?:{_COUNT})?(?:digits|numbers)(?: are| of)?"
    r"|(?:factura|recibo|invoice|bill)(?: (?:nro|no|n|numero|number|num)\.?°?)?"
    r"|(?:la|el) de los numeros)"
    r"[\s:#-]*(?:el |en |in |with )?(?!20\d\d(?!\d))(\d{3,6})(?![.,-]?\d)"
)


def suffix_asked(message: str) -> str | None:
    """The trailing digits `message` quotes to name one of the subscriber's invoices."""
    match = _SUFFIX.search(fold(message))
    return match[1] if match else None


def ends_with(number: str, suffix: str) -> bool:
    """Whether the digits of `number` ("INV-2026-004410") end with `suffix` ("4410")."""
    return "".join(c for c in number if c.isdigit()).endswith(suffix)
