"""Writing an API amount for a subscriber: `USD 45,00`, `Bs. 1.234,56` (es-VE) or `USD 45.00`.

Formatting only regroups the digits the API sent; it never rounds, converts or computes. The
amount must be the contract's decimal string (`-?digits.two-decimals`); anything else is
refused rather than guessed at, because a figure we cannot read exactly must not be shown.
"""

from __future__ import annotations

from billing_toolkit.assistant.text.amounts import wire_amount
from billing_toolkit.assistant.text.language import Language

_SYMBOL = {"USD": "USD", "VES": "Bs."}


def _group(integer: str, separator: str) -> str:
    head = len(integer) % 3 or 3
    groups = [integer[:head]] + [integer[i : i + 3] for i in range(head, len(integer), 3)]
    return separator.join(groups)


def format_amount(amount: str, currency: str, language: Language) -> str:
    """`format_amount("1234.56", "VES", Language.SPANISH) == "Bs. 1.234,56"`.

    Spanish uses the es-VE convention (`.` thousands, `,` decimals); English keeps the API's
    own form with `,` thousands. The sign stays attached to the digits (`USD -5,00`) so a
    reader, and the grounding verifier, cannot miss it. The digits written are the API's
    own, split at its `.`, never a re-rendered number.
    """
    if wire_amount(amount) is None:
        raise ValueError(f"not a contract amount (expected e.g. '45.00'): {amount!r}")
    if currency not in _SYMBOL:
        raise ValueError(f"unknown currency (expected USD or VES): {currency!r}")
    sign, digits = ("-", amount[1:]) if amount.startswith("-") else ("", amount)
    integer, cents = digits.split(".")
    thousands, decimal = (",", ".") if language is Language.ENGLISH else (".", ",")
    return f"{_SYMBOL[currency]} {sign}{_group(integer, thousands)}{decimal}{cents}"
