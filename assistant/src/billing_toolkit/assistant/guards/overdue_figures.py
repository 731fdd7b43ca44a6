"""A figure said to be overdue must be an overdue figure of the evidence.

With a balance of "amount due USD 32.48, overdue USD 0.00", "tu monto vencido es USD 32,48"
passes the figure check (32.48 is in the evidence) yet tells the subscriber their service is
at risk when nothing is late. So an amount the reply calls overdue — an overdue word in the
few words before it, in its own clause ("tu saldo vencido es USD 32,48", "your overdue
amount is USD 32.48"), or right after it ("USD 32,48 vencidos", "USD 32.48 past due") — is
backed only by an evidence figure labelled overdue ("overdue USD 0.00") or by what an
overdue invoice still owes ("status overdue … amount due USD 32.48").

Only evidence that labels an overdue figure is read this way (a balance, an overdue
invoice): with none, an "overdue" amount is left to the figure check as before. A word after
a negation ("no está vencido", "not yet overdue") calls nothing overdue. Bias: when an
overdue word stands by an amount, the amount must be an overdue figure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from billing_toolkit.assistant.guards.record_binding import sentences
from billing_toolkit.assistant.text.amounts import find_amounts
from billing_toolkit.assistant.text.folding import fold

_OVERDUE_WORD = r"(?:vencid[oa]s?|atrasad[oa]s?|en mora|overdue|past due)"
_NEGATED = re.compile(r"\b(?:no|not|sin|nada|ningun[oa]?|without)\s+(?:\w+\s+){0,2}$")
_BEFORE = re.compile(rf"\b{_OVERDUE_WORD}\b(?P<gap>(?:\s+[^\s,;:.]+){{0,4}}?)\s*$")
"""An overdue word within four words before an amount, no comma or clause end between."""
_AFTER = re.compile(rf"^\s*(?:(?:est[aá]n?|is|are)\s+)?{_OVERDUE_WORD}\b")
"""An overdue word right after an amount ("USD 32,48 vencidos", "USD 32.48 is overdue")."""
_LABELLED = re.compile(r"\boverdue (?:USD|VES) (-?\d+(?:\.\d+)?)")
_OVERDUE_INVOICE = re.compile(
    r"\bstatus overdue\b(?:[^.]|\.\d)*?\bamount due (?:USD|VES) (-?\d+(?:\.\d+)?)"
)
"""`client.evidence.invoice_summary`: "status overdue; …; amount due USD 32.48" (the dots of
its amounts are not the sentence's end)."""
_CURRENCY_BEFORE = re.compile(r"(?:usd|ves|bs\.?|\$|us\$)\s*$")


def overdue_figures(evidence_texts: Sequence[str]) -> frozenset[Decimal]:
    """Every figure the evidence labels overdue: balances' and overdue invoices' dues."""
    return frozenset(
        Decimal(match[1])
        for text in evidence_texts
        for pattern in (_LABELLED, _OVERDUE_INVOICE)
        for match in pattern.finditer(text)
    )


def _called_overdue(folded: str, start: int, end: int) -> bool:
    before = _CURRENCY_BEFORE.sub("", folded[:start])
    found = _BEFORE.search(before)
    if found is not None and not _NEGATED.search(before[: found.start()]):
        return True
    after = folded[end:]
    unit = re.match(r"\s*(?:usd|ves|bs\.?|d[oó]lares|dollars|bol[ií]vares)\b", after)
    after = after[unit.end() :] if unit else after
    return _AFTER.match(after) is not None


def unsupported_overdue(answer: str, evidence_texts: Sequence[str]) -> tuple[str, ...]:
    """The amounts `answer` calls overdue that no overdue figure of the evidence backs."""
    backed = overdue_figures(evidence_texts)
    if not backed:
        return ()
    failed = []
    for sentence in sentences(answer):
        folded = fold(sentence)
        for mention in find_amounts(folded):
            value = abs(mention.value)
            if value not in backed and _called_overdue(folded, mention.start, mention.end):
                failed.append(folded[mention.start : mention.end])
    return tuple(dict.fromkeys(failed))
