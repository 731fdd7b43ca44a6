"""Shaping a reply for WhatsApp: plain text, short, no Markdown.

WhatsApp shows Markdown as literal asterisks and hashes, and a wall of text on a phone reads
as a form letter. The humanizer only *removes*: Markdown marks, extra blank lines and spaces,
and — past `max_chars` — whole trailing lines or sentences. It never rewrites a word or a
figure, and it cuts at a line, sentence or word boundary whenever there is one. It cannot
create a number the evidence lacks: at worst a cut truncates a token, which the grounding
verifier (it checks the humanized text, the exact text that is sent) then rejects.
"""

from __future__ import annotations

import re

DEFAULT_MAX_CHARS = 1000
_ELLIPSIS = "…"
_MARKDOWN = (
    (re.compile(r"^\s{0,3}#{1,6}\s*", re.MULTILINE), ""),  # headings
    (re.compile(r"\*\*(.+?)\*\*|__(.+?)__", re.DOTALL), r"\1\2"),  # bold
    (re.compile(r"`+([^`]*)`+"), r"\1"),  # code
    (re.compile(r"\[([^\]]+)\]\((\S+?)\)"), r"\1 (\2)"),  # links
    (re.compile(r"^\s*[-*+]\s+", re.MULTILINE), "• "),  # bullets
)
_SPACES = re.compile(r"[ \t]+")
_BLANK_LINES = re.compile(r"\n{3,}")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def _shorten(text: str, max_chars: int) -> str:
    """Keep whole lines, then whole sentences, then whole words, within `max_chars`."""
    budget = max_chars - len(_ELLIPSIS)
    for boundary in (re.compile(r"\n"), _SENTENCE_END, re.compile(r"\s")):
        cuts = [m.start() for m in boundary.finditer(text) if 0 < m.start() <= budget]
        if cuts:
            return text[: cuts[-1]].rstrip() + _ELLIPSIS
    return text[:budget] + _ELLIPSIS


def humanize(reply: str, *, max_chars: int = DEFAULT_MAX_CHARS) -> str:
    """Plain, compact WhatsApp text of at most `max_chars` characters."""
    text = reply.replace("\r\n", "\n")
    for pattern, replacement in _MARKDOWN:
        text = pattern.sub(replacement, text)
    lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    text = _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()
    return text if len(text) <= max_chars else _shorten(text, max_chars)
