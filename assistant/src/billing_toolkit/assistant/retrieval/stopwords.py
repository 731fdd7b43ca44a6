"""Spanish and English function words left out of the full-text index and the lexical embedder.

Written accent-free and lower-case, because they are compared after
:func:`billing_toolkit.assistant.text.folding.fold`. The list is short on purpose: question
words and pronouns that every support message contains ("¿cómo...?", "what is my...") and
that would otherwise make every chunk a keyword match. Domain words ("pago", "factura",
"fee") are never stopwords: when in doubt a word stays searchable.
"""

from __future__ import annotations

_SPANISH = """
a al algo algun alguna algunas alguno algunos ante antes aqui asi aun cada como con contra
cual cuales cualquier cuando cuanto cuanta cuantos cuantas de del desde donde dos el ella
ellas ellos en entre era eres es esa esas ese eso esos esta estan estar estas este esto estos
estoy fue fueron ha han has hasta hay he la las le les lo los mas me mi mis mucho muy nada ni
no nos nosotros o os otra otro para pero poco por porque puede pueden puedo que quien quienes
se sea ser si sin sobre son soy su sus tambien te tener tengo tiene tienen ti tu tus un una
unas uno unos usted ustedes vosotros y ya yo hola buenas buenos favor
gracias saber quiero quisiera necesito
"""

_ENGLISH = """
a about after all am an and any are as at be been before being but by can could did do does
doing for from had has have having he her here hers him his how i if in into is it its just
me more most my no nor not of off on once only or other our ours out over own same she should
so some such than that the their theirs them then there these they this those through to too
under until up very was we were what when where which while who whom why will with would you
your yours hello hi please thanks thank want need know tell
"""

STOPWORDS: frozenset[str] = frozenset((_SPANISH + _ENGLISH).split())
