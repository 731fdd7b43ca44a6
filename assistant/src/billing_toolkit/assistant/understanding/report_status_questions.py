"""Whether a message asks what became of a payment report: "¿ya verificaron mi pago?",
"did you get my payment report?".

Answered from the account's latest report (its status), not from its payments: a reported
payment is not a payment until the billing team verifies it. "¿Cuál fue mi último pago?"
is not one of these — it asks for a payment on record. Read on folded text. Bias: a plain
"¿recibieron mi pago?" stays a question about payments on record.
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
_REPORT_STATUS = re.compile(
    rf"\b{_VERBS_ES} (?:ya )?(?:mi|el|la) {_WHAT}\b"
    rf"|\b(?:esta|fue|ya esta) (?:ya )?{_PARTICIPLES_ES} (?:mi|el) {_WHAT}\b"
    rf"|^\W*(?:y |pero )?(?:ya )?(?:me )?(?:lo |la )?(?:ya )?{_VERBS_ES}(?: ya)?[ ?!.]*$"
    r"|^\W*(?:y |y que hay de |que hay de |y como va )?(?:mi|el) reporte(?: de pago)?[ ?!.]*$"
    rf"|\b(?:mi|el) {_WHAT} (?:ya )?(?:fue|esta|quedo|lo) (?:verificad|confirmad|aprobad|validad|"
    r"rechazad|procesad|verificaron|confirmaron|aprobaron)"
    r"|\b(?:estado|estatus|status) (?:de|del) (?:mi )?(?:reporte|pago reportado)"
    r"|\b(?:que paso|que hay|como va) (?:con )?(?:mi|el) reporte\b"
    rf"|\b(?:did|have|has) (?:you|anyone|someone) (?:already )?{_VERBS_EN} my "
    r"(?:payment|transfer|report|zelle)"
    r"|\b(?:did|have) you (?:get|got|receive|received|see|seen) my (?:payment )?report\b"
    r"|\bstatus of my (?:payment )?report\b"
    r"|\b(?:any )?(?:updates?|news) (?:on|about|with) my (?:payment )?report\b"
    rf"|\b(?:novedades?|noticias) (?:de|del|con|sobre) (?:mi|el) {_WHAT}\b"
    r"|\b(?:already |you )?(?:verified|confirmed|approved|processed) my "
    r"(?:payment|transfer|report|zelle)\b(?: (?:yet|already))?"
    r"[ ?!.]*$"
    r"|\bwhy (?:was|did you|were) (?:my )?(?:payment|report|transfer|zelle)? ?(?:reject|decline)"
    r"|\b(?:is|was|has) my (?:payment|transfer|report|zelle)(?: report)? (?:been )?(?:verified|"
    r"confirmed|approved|rejected|processed)\b"
)


def asks_report_status(text: str) -> bool:
    return bool(_REPORT_STATUS.search(text))
