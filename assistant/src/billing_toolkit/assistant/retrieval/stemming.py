"""Word stems for the full-text index: Spanish and English Snowball, both, for every word.

Why stems: subscribers inflect, documents inflect differently. "que tengo que hacer para que
me reconecten" must find the section headed "Cómo reconectar"; "what if I'm paying late"
the one that says "pay"; "me cortaron el servicio" the one about "el corte".

Why both languages for every word: a WhatsApp message does not declare its language and is
often code-switched ("pagué tarde, is there a late fee?"), and an English word stemmed as
Spanish (or the reverse) stays itself or loses a letter, it does not meet an unrelated
word. So each word is indexed and queried under its Spanish stem and its English stem (one
term when they agree). Measured on ``eval_queries.yaml`` (57 queries, 20 of them inflected)
against the Spanish stem alone, the English stem alone and the shorter of the two, this is
the best full-text leg and fused ranking (figures in ``assistant/retrieval/README.md``).

Only *words* reach this module: identifiers, numbers and amounts are recognised first by
:mod:`billing_toolkit.assistant.retrieval.analysis` and never stemmed, so two invoices,
cédulas or amounts never collapse into one term.

The stemmers are the Snowball algorithms of ``snowballstemmer`` (pure Python), built once per
process; ``stemWord`` is deterministic, so index and query produce the same terms.
"""

from __future__ import annotations

import threading
from functools import lru_cache

import snowballstemmer

STEMMER_LANGUAGES = ("spanish", "english")
"""Order matters only for the order of a word's terms, which is stable."""

_STEMMERS = tuple(snowballstemmer.stemmer(language) for language in STEMMER_LANGUAGES)
_LOCK = threading.Lock()
"""A Snowball stemmer keeps the word being stemmed in its own fields: one thread at a time."""


@lru_cache(maxsize=65536)
def word_stems(word: str) -> tuple[str, ...]:
    """The distinct stems of a folded, lower-case word: Spanish first, then English.

    ``reconecten`` → ``("reconect", "reconecten")``; ``paying`` → ``("paying", "pay")``;
    ``internet`` → ``("internet",)``. Cached: the KB and the questions reuse a few thousand
    words, and the stemmer is the slowest step of the analyzer.
    """
    with _LOCK:
        return tuple(dict.fromkeys(stemmer.stemWord(word) for stemmer in _STEMMERS))
