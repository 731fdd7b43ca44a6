"""The unit a figure is said in: its currency (code, symbol or word) or a percentage.

The verifier must not accept the right number in the wrong currency — a USD 45.00 balance
told as "Bs. 45,00" is a different debt — so every figure is read with the unit written next
to it, the same way in a reply and in evidence:

- a code or symbol before the digits, with an optional space and minus in between: `USD 45`,
  `US$ 45`, `$45`, `Bs. 45`, `Bs.D 45`, `VES -0,16`, `€ 5`, `EUR 5`;
- a code, symbol or word after them: `45 USD`, `45 $`, `45,00 Bs`, `45 dólares`,
  `45 dollars`, `45 bolívares`, `5 €`, `5 euros` — unless another figure follows it, where it
  is that figure's unit (`10,00 USD 45,00` has `USD` for `45,00` only);
- `%`, "por ciento", "percent" after the digits: the unit `PERCENT`, never a currency.

Every bolívar spelling of the current currency (`Bs`, `Bs.`, `Bs.D`, `Bs.S`, `VES`, `VED`,
"bolívares", the everyday "bolos") is `VES`; the retired bolívar fuerte (`Bs.F`, `VEF`,
"bolívares fuertes") is its own unit, as are
currencies the billing system never uses (pesos, pounds) and cents standing alone ("45
centavos"): a figure in them is backed by nothing. A figure with one unit before and another after has the unit `CONFLICT`, which no
evidence holds. A figure with no unit beside it has none (None), and the verifier judges it
by value alone. Bias: a unit we cannot tell apart is a unit no evidence has.
"""

from __future__ import annotations

import re

from billing_toolkit.assistant.text.folding import fold

PERCENT = "%"
CENTS = "cents"
"""The unit of "45 centavos" standing alone: a fraction of a currency it does not name, which
no evidence states (cents after a whole figure, "45 dólares con 50 centavos", are read with
it by `number_words.fraction_after`)."""
CONFLICT = "conflict"
"""The unit of a figure written with two different units around it: backed by nothing."""

_CODES: dict[str, str] = {
    "usd": "USD",
    "us$": "USD",
    "u$s": "USD",
    "$": "USD",
    "ves": "VES",
    "ved": "VES",
    "bs": "VES",
    "bs.": "VES",
    "bs.d": "VES",
    "bsd": "VES",
    "bs.s": "VES",
    "bss": "VES",
    "vef": "VEF",
    "bs.f": "VEF",
    "bsf": "VEF",
    "eur": "EUR",
    "€": "EUR",
    "cop": "COP",
    "mxn": "MXN",
    "gbp": "GBP",
    "£": "GBP",
}
"""Codes and symbols, folded (lower case): what may stand before or after the digits."""

_WORDS: tuple[tuple[str, str], ...] = (
    (r"(?:us[ \t]+|american[ \t]+)?dollars?|d[oó]lar(?:es)?(?:[ \t]+americanos?)?", "USD"),
    (r"bol[ií]var(?:es|s)?[ \t]+fuertes?", "VEF"),
    (r"bol[ií]var(?:es|s)?(?:[ \t]+digital(?:es)?)?|bolos?", "VES"),
    (r"euros?", "EUR"),
    (r"pesos?", "peso"),
    (r"libras?|pounds?", "GBP"),
    (r"centavos?|c[eé]ntimos?|cents?", CENTS),
)
"""Currency words: only after the figure ("45 dólares", "sixty-two US dollars")."""


def _alternation(names: list[str]) -> str:
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))


_SYMBOLS = [name for name in _CODES if not name[0].isalpha()]
_LETTER_CODES = [name for name in _CODES if name[0].isalpha()]
_CODE = rf"(?:(?<![^\W\d_])(?:{_alternation(_LETTER_CODES)})(?![^\W\d_])|{_alternation(_SYMBOLS)})"
_WORD = "|".join(f"(?P<w{i}>{pattern})" for i, (pattern, _) in enumerate(_WORDS))
_BEFORE = re.compile(rf"(?i:{_CODE})[ \t\u00a0]*(?:-[ \t]*)?\Z")
_AFTER = re.compile(
    rf"[ \t\u00a0]*(?:(?P<percent>%|por[ \t]?ciento\b|percent\b|per[ \t]cent\b)"
    rf"|(?P<code>(?i:{_CODE}))|(?i:(?:de[ \t]+)?(?:{_WORD}))\b)"
    rf"(?P<next>[ \t\u00a0]*-?[ \t]*\d)?"
)
_REACH = 12
"""How far before the digits a code may start (`Bs.D` or `US$`, spaces and a minus)."""


def _code(written: str) -> str:
    return _CODES[fold(written)]


def currency_before(text: str, start: int) -> tuple[int, int, str] | None:
    """The span and unit of the currency written just before the digits at `start`."""
    match = _BEFORE.search(text, max(0, start - _REACH), start)
    if match is None:
        return None
    written = match[0].rstrip(" \t\u00a0-")
    return match.start(), match.start() + len(written), _code(written)


def unit_before(text: str, start: int) -> str | None:
    """The currency written just before the digits at `start`, or None."""
    found = currency_before(text, start)
    return found[2] if found else None


def unit_after(text: str, end: int) -> tuple[str, int] | None:
    """The unit written just after the figure ending at `end`, and where the unit ends; None
    when there is none, or when another figure follows it (whose unit it then is)."""
    match = _AFTER.match(text, end)
    if match is None:
        return None
    if match["percent"]:
        return PERCENT, match.end("percent")
    if match["next"]:
        return None
    if match["code"]:
        return _code(match["code"]), match.end()
    return next(unit for i, (_, unit) in enumerate(_WORDS) if match[f"w{i}"]), match.end()


def unit_of(text: str, start: int, end: int) -> str | None:
    """The unit of the figure `text[start:end]`: before or after it, `CONFLICT` when the
    two disagree, None when neither is written."""
    before, written_after = unit_before(text, start), unit_after(text, end)
    after = written_after[0] if written_after else None
    if before is not None and after is not None and before != after:
        return CONFLICT
    return before or after
