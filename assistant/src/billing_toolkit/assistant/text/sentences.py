"""Where a sentence ends, in Spanish and English policy text.

A quoted policy is whole sentences or it states something the article does not: cut at the
point of "8:00 a. m." it says the office opens "de 8:00 a."; cut at "Bs." it drops the
bolívar price of "USD 30,00 o Bs. 1.100,00". So a sentence ends at `.`, `!`, `?` or `…`
followed by space and the start of a new sentence (a capital, an opening ¿ ¡ « " or a
digit), and never:
- after an abbreviation (`a. m.`, `p. m.`, `Sr.`, `Sra.`, `Av.`, `Bs.`, `No.`, `aprox.`,
  `etc.`, `Dr.`, `Ud.`, `C.A.`, … listed below) or an initial (`J. Pérez`);
- inside a number (`1.450,00`, `30.00`, `8:00`: no space follows the point);
- at a colon: "Usa estos datos: …" introduces what follows, it does not end.

Bias: when in doubt, no cut. A sentence too long is quoted whole; a sentence cut in two
misquotes the article.
"""

from __future__ import annotations

import re

ABBREVIATIONS = frozenset(
    {
        # Spanish
        "a",
        "m",
        "p",
        "sr",
        "sra",
        "srta",
        "sres",
        "dr",
        "dra",
        "lic",
        "ing",
        "ud",
        "uds",
        "av",
        "avda",
        "bs",
        "no",
        "nro",
        "núm",
        "num",
        "aprox",
        "etc",
        "pág",
        "pag",
        "tel",
        "telf",
        "cía",
        "cia",
        "ca",
        "c",
        "edif",
        "urb",
        "ref",
        "art",
        "ej",
        "vs",
        # English
        "mr",
        "mrs",
        "ms",
        "st",
        "approx",
        "e.g",
        "i.e",
        "inc",
        "ltd",
        "co",
        "dept",
    }
)
_END = re.compile(r"[.!?…]+[\"»”)]*(?=\s+[\"«“¿¡(]?[A-ZÁÉÍÓÚÑÜ0-9])")
_LAST_WORD = re.compile(r"([\w.]+)$")


def _ends_abbreviation(text: str) -> bool:
    """Whether `text` (ending just before a '.') ends with an abbreviation or an initial."""
    match = _LAST_WORD.search(text)
    if match is None:
        return False
    word = match[1].lower().strip(".")
    return word in ABBREVIATIONS or (len(word) == 1 and word.isalpha())


def split_sentences(text: str) -> list[str]:
    """The sentences of one line of prose, in order, each stripped; [] for a blank line."""
    sentences: list[str] = []
    start = 0
    for end in _END.finditer(text):
        if end[0].startswith(".") and _ends_abbreviation(text[start : end.start()]):
            continue
        piece = text[start : end.end()].strip()
        if piece:
            sentences.append(piece)
        start = end.end()
    rest = text[start:].strip()
    return [*sentences, rest] if rest else sentences
