"""Whether a message asks what became of a payment report: "¿ya verificaron mi pago?",
"did you get my payment report?".

Answered from the account's latest report (its status), not from its payments: a reported
payment is not a payment until the billing team verifies it. "¿Cuál fue mi último pago?"
is not one of these — it asks for a payment on record. Read on folded text. Bias: a plain
"¿recibieron mi pago?" stays a question about payments on record; waiting for it to arrive
("¿ya les llegó mi pago?", "¿ya recibieron mi pago?", "¿se reflejó mi pago?", "did my payment
go through?") is waiting on what they reported. Right after a report was filed, a plain
"¿recibieron mi pago?" is about it too: `asks_if_received` tells the turn, which knows.
"""

from __future__ import annotations

import re

_VERBS_ES = (
    r"(?:verificaron|confirmaron|validaron|revisaron|aprobaron|procesaron|chequearon|rechazaron"
    r"|verifican|confirman|aprueban|procesan|van a verificar|van a confirmar)"
)
_PARTICIPLES_ES = r"(?:verificad|confirmad|aprobad|validad|rechazad|procesad)[oa]"
_VERBS_EN = (
    r"(?:verify|verified|confirm|confirmed|check|checked|process|processed|approve|approved)"
)
_WHAT = r"(?:pago|reporte|transferencia|pago movil|zelle|deposito)"
_REPORTED_METHOD = r"(?:pago movil|transferencia|zelle|transfer|bank transfer)\b"
"""The ways of paying that are reported, not seen by the API: a question about one of them
("¿recibieron mi pago móvil?", "what happened with my transfer") is about its report."""
_OF_A_REFERENCE = (
    r"\b(?:que (?:paso|hay|sabes|se sabe)|como va|novedades?|noticias|estado|estatus|status)"
    r" (?:con|de|del|sobre)? ?(?:mi |el |la |un )?(?:reporte |pago )?(?:de la |con la |con )?"
    r"(?:referencia|ref|nro de referencia|numero de referencia)\b"
    r"|\b(?:what happened|what's happening|whats happening|any news|any updates?|news|updates?|"
    r"status)(?: (?:to|with|on|about|of))? (?:my |the )?(?:payment |report )?"
    r"(?:(?:with|of) (?:the )?)?(?:reference|ref|confirmation)\b"
)
"""A report named by its reference: "¿qué pasó con la referencia 0045127?", "status of
reference 0045127" — a question about that report, never a new report to be filed."""
_REPORT_STATUS = re.compile(
    rf"\b{_VERBS_ES} (?:ya )?(?:mi|el|la) (?:{_WHAT}|anterior|otro|otra|primero|de ayer)\b"
    rf"|\b(?:esta|fue|ya esta) (?:ya )?{_PARTICIPLES_ES} (?:mi|el) {_WHAT}\b"
    rf"|^\W*(?:y |pero )?(?:ya )?(?:me )?(?:lo |la )?(?:ya )?{_VERBS_ES}(?: ya)?[ ?!.]*$"
    r"|^\W*(?:y |y que hay de |que hay de |y como va )?(?:mi|el) reporte(?: de pago)?[ ?!.]*$"
    rf"|\b(?:mi|el) {_WHAT} (?:ya )?(?:fue|esta|quedo|lo) (?:verificad|confirmad|aprobad|validad|"
    r"rechazad|procesad|verificaron|confirmaron|aprobaron)"
    rf"|\b(?:estado|estatus|status) (?:de|del) (?:mi )?(?:reporte|pago reportado|{_WHAT})\b"
    rf"|\b(?:que paso|que hay|como va) (?:con )?(?:mi|el|la) (?:reporte|{_REPORTED_METHOD})\b"
    r"|\b(?:recibieron|did you(?: guys)? (?:get|receive)|"
    r"have you(?: guys)? (?:got|gotten|received)) "
    rf"(?:mi|my|el|la|the) {_REPORTED_METHOD}"
    rf"|\b(?:did|have|has) (?:you|anyone|someone) (?:already )?{_VERBS_EN} my "
    r"(?:payment|transfer|report|zelle)"
    r"|\b(?:did|have) you (?:get|got|receive|received|see|seen) my (?:payment )?report\b"
    r"|\b(?:status of|(?:any )?(?:updates?|news) (?:on|about|with|for)) (?:my|the) "
    r"(?:payment |zelle )?(?:report|payment|zelle|transfer)\b"
    r"|\b(?:did|has|have) (?:my|the) (?:last |latest )?(?:payment|transfer|zelle|report)"
    r"(?: report)? (?:already )?(?:go|gone|went) through\b"
    r"|\bmy (?:payment|transfer|zelle) (?:already )?went through\b"
    rf"|\b(?:ya )?(?:les|te|le) llego (?:mi|el|la) {_WHAT}\b"
    rf"|\b{_WHAT} (?:ya )?(?:les|te|le) llego\b"
    rf"|\bya recibieron (?:mi|el|la) {_WHAT}\b"
    rf"|\b(?:ya )?se (?:reflejo|refleja|ve reflejad[oa]) (?:mi|el|la) {_WHAT}\b"
    rf"|\b(?:mi|el|la) {_WHAT} (?:ya )?se (?:reflejo|refleja|ve reflejad[oa])\b"
    rf"|\b(?:novedades?|noticias) (?:de|del|con|sobre) (?:mi|el) {_WHAT}\b"
    r"|\b(?:already |you )?(?:verified|confirmed|approved|processed) my "
    r"(?:payment|transfer|report|zelle)\b(?: (?:yet|already))?"
    r"[ ?!.]*$"
    r"|\bwhy (?:was|did you|were) (?:my )?(?:payment|report|transfer|zelle)? ?(?:reject|decline)"
    r"|\b(?:is|was|has) my (?:payment|transfer|report|zelle)(?: report)? (?:been )?(?:verified|"
    r"confirmed|approved|rejected|processed|checked|reviewed|validated)\b"
    rf"|{_OF_A_REFERENCE}"
)


def asks_report_status(text: str) -> bool:
    return bool(_REPORT_STATUS.search(text))


_RECEIVED = re.compile(
    r"\b(?:recibieron|recibiste|recibio|les llego|te llego|did you(?: guys)? (?:get|receive)|"
    r"have you(?: guys)? (?:got|gotten|received)|did it (?:arrive|come through))\b"
)


def asks_if_received(text: str) -> bool:
    """Whether folded `text` asks if a payment arrived ("¿recibieron mi pago?", "did you get
    my payment?"): a payment on record in general, the report's status right after one was
    filed (the turn decides which, `turn/pipeline.py`)."""
    return bool(_RECEIVED.search(text))
