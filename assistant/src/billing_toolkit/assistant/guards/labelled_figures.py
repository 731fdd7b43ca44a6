"""A figure said to be an overdue amount, a credit, the net balance or a payment must be
that figure of the evidence.

With a balance of "amount due USD 32.48, overdue USD 0.00, credit USD 0.00", "tu monto
vencido es USD 32,48" and "tienes USD 32,48 a favor" both pass the figure check (32.48 is in
the evidence), yet one tells the subscriber their service is at risk when nothing is late and
the other that they have money to spend when they owe it. So an amount the reply says of one
of these fields — the field's words in the few words before it, in its own clause ("tu saldo
vencido es USD 32,48", "your credit balance is USD 5.00"), or right after it ("USD 32,48
vencidos", "USD 5,00 a favor", "USD 5.00 in credit") — is backed only by an evidence figure
of that field:
- overdue: a balance's `overdue USD …`, or what an overdue invoice still owes (an invoice
  that is paid or open is not overdue: with only such invoices, no amount is);
- credit: a balance's `credit USD …`, what a payment kept as credit (`unapplied (kept as
  credit) USD …`), or what a verified report credited (`credited USD …`);
- net balance ("saldo neto"): a balance's `net balance USD …`;
- paid ("pagaste USD 40,00", "tu último pago fue de…", "we received USD 40.00"): a
  payment's amount or what it applied to an invoice, what an invoice had paid, a payment
  report's amount, what a report credited.

What is owed ("debes USD 5,00", "total a pagar: USD 5,00", "you owe USD 5.00") is too wide
a field to list every figure of — an amount due, an invoice's total or one of its lines, a
plan's price — so it is checked the other way round: such an amount is stopped only when the
evidence gives it solely as money on the subscriber's side, a credit or something already
paid (a credit of USD 7.52 said as "debes USD 7,52"), or the total of an invoice something was
already paid on ("aún debes USD 45,10" of an invoice of USD 45.10 with USD 20.00 paid); a
figure the evidence also gives anywhere else, unsigned and not below zero, passes.

Only evidence that labels a figure of the field is read this way: with none, such an amount
is left to the figure check as before. A field word after a negation ("no está vencido",
"no tienes saldo a favor de") says nothing of the amount. Bias: when a field's words stand
by an amount, the amount must be a figure of that field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property

from billing_toolkit.assistant.guards.record_binding import sentences
from billing_toolkit.assistant.text.amounts import find_amounts
from billing_toolkit.assistant.text.folding import fold

_FIGURE = r"(?:USD|VES) (-?\d+(?:\.\d+)?)"
"""An amount as the evidence writes it (`client.evidence.money`): its value is group 1."""
_NEGATIONS = r"no|not|sin(?! embargo)|nada|ningun[oa]?|without"
_NEGATED = re.compile(rf"\b(?:{_NEGATIONS})\s+(?:\w+\s+){{0,2}}$")
_NEGATED_OR_IF = re.compile(rf"\b(?:{_NEGATIONS}|si|if)\s+(?:\w+\s+){{0,2}}$")
_CONVERSION = re.compile(r"\bUSD (\d+\.\d+) at the rate of \S+ is VES (\d+\.\d+)")
"""`payment_report_capabilities.conversion_evidence`: a dollar amount and its bolívares."""
_PAYMENT_AMOUNT = re.compile(rf"\bof {_FIGURE} by\b")
"""`client.evidence.payment_evidence`: "PAY-… of USD 40.00 by transfer"."""
_INVOICE_PAID = re.compile(rf"\bpaid {_FIGURE}")
_PAID_TOTAL = re.compile(rf"\btotal {_FIGURE}; paid (?:USD|VES) (?!0\.00\b)")
"""The total of an invoice something was paid on: no longer what is owed of it."""
_REPORT_AMOUNT = re.compile(rf"\bPayment report \S+ for account \S+: \S+ {_FIGURE}")
_REPORTED = re.compile(rf"\breported {_FIGURE}")
"""What a report's credit was converted from ("the reported VES 1234.56")."""
_CREDITED = re.compile(rf"\bcredited {_FIGURE}")
"""What a verified report credited."""
_NOT_IN_GAP = (
    r"y|e|o|u|and|or|but|pero|cubre|cubrira|covers?|restar?|restando|subtract\w*|reduc\w*"
    r"|descuent\w*|brings?|lowers?|recomiendo|recomendamos|recommend|sugiero|sugerimos|suggest"
)
"""Words that end a field's reach before an amount: a conjunction ("tienes USD 7,52 a favor y
USD 45,10 pendientes") or a verb that makes the amount another phrase's object ("tu saldo a
favor cubre parte de los USD 45,10")."""
_OF_WHAT = (
    r"(?:de|del|en|on|of|in|for) (?:la |tu |your |the |esta |this )?"
    r"(?:(?:cuenta|account)(?: \d+)?|(?:factura|invoice|bill|recibo)(?: (?:de|del|of|for) \w+)?"
    r"(?: inv-[\d-]+)?|inv-[\d-]+)"
)
"""What a field is of, right after its words, counted as no word of the gap: "el saldo neto
de tu cuenta es de", "el monto vencido de tu factura de octubre es", "on INV-2026-000130"."""
_CURRENCY_BEFORE = re.compile(r"(?:usd|ves|bs\.?|\$|us\$)\s*$")
_UNIT_AFTER = re.compile(r"\s*(?:usd|ves|bs\.?|d[oó]lares|dollars|bol[ií]vares)\b")


@dataclass(frozen=True)
class LabelledField:
    """One field a reply may say an amount is, and the evidence figures that back it."""

    words: str
    """The field's words in a folded reply (a regex alternation)."""
    after: str
    """What may stand between the amount and the field's words after it ("como saldo")."""
    evidence: tuple[re.Pattern[str], ...]
    """Patterns of the evidence's figures of this field (group 1: the value)."""
    refuted_by: tuple[re.Pattern[str], ...] = ()
    """For a field too wide to list (what is owed): the figures that contradict it; an
    amount said of the field is wrong when the evidence gives it only as one of these."""
    gap: str = rf"(?:\s+{_OF_WHAT})?(?:\s+(?!(?:{_NOT_IN_GAP})\b)[^\s,;:.]+){{0,4}}?"
    """What may stand between the field's words and the amount after them: by default up to
    four words, none of `_NOT_IN_GAP`."""
    cancelled_by: re.Pattern[str] = _NEGATED
    """Words just before the field's words that say nothing of the amount ("no tienes
    saldo a favor de…")."""
    after_only: str | None = None
    """When set, the only text right after an amount that says it is of the field (for
    verbs, which after a fronted amount have it as another phrase's object: "con tu crédito
    de USD 7,52 te toca pagar…" says no debt of USD 7.52)."""
    spared_after: str | None = None
    """Text right after an amount (and its unit) that takes it out of the field."""
    spared_before: str | None = None
    """Text right before an amount (and its currency) that takes it out of the field."""
    converted: bool = False
    """The bolívares of a conversion whose dollars are a figure of the field back it too."""
    known_by: tuple[re.Pattern[str], ...] = ()
    """Evidence that settles the field without a figure of it (an invoice whose status is
    "paid" or "open" is not overdue): with it, an amount said of the field is held to the
    figures there are, even none."""

    @cached_property
    def before(self) -> re.Pattern[str]:
        """The field's words shortly before an amount (`gap`: by default four words, no
        comma or clause end between; a colon right after them is a label: "saldo a favor:
        USD 5,00")."""
        return re.compile(rf"\b{self.words}\b(?:{self.gap}|\s*:)\s*$")

    @cached_property
    def after_words(self) -> re.Pattern[str]:
        """The field's words right after an amount, joined by `after` at most (or
        `after_only`)."""
        if self.after_only is not None:
            return re.compile(rf"^\s*(?:{self.after_only})")
        return re.compile(rf"^\s*(?:{self.after}\s+)?{self.words}\b")

    @cached_property
    def spared(self) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
        """`spared_before` and `spared_after`, compiled."""
        return (
            re.compile(rf"\b(?:{self.spared_before})\s*$") if self.spared_before else None,
            re.compile(rf"^\s*(?:[^\s,;.]+\s+){{0,6}}?(?:{self.spared_after})\b")
            if self.spared_after
            else None,
        )


OVERDUE = LabelledField(
    r"(?:vencid[oa]s?|atrasad[oa]s?|en mora|overdue|past[- ]due)",
    r"(?:est[aá]n?|is|are)",
    (
        re.compile(rf"\boverdue {_FIGURE}"),
        # `client.evidence.invoice_summary`: "status overdue; …; amount due USD 32.48" (the
        # dots of its amounts are not the sentence's end)
        re.compile(rf"\bstatus overdue\b(?:[^.]|\.\d)*?\bamount due {_FIGURE}"),
    ),
    spared_before=r"(?:un |a )?total(?: de| of)?|out of|tendras|tendra|you'll have|you will have"
    r"|would have|will have",
    known_by=(re.compile(r"\bInvoice \S+ of account \S+: status (?:open|paid)\b"),),
)
CREDIT = LabelledField(
    r"(?:(?:saldo )?a (?:tu )?favor|saldo acreedor|(?<!tarjeta de )(?<!nota de )credito"
    r"|credit(?! card| note)(?: balance)?)",
    r"(?:(?:como|de|of|as|in)(?: (?:saldo|tu|your))?"
    r"|(?:est[aá]n?|is|are|quedan?|remain)(?: (?:en|as))?|disponibles?|available)",
    (
        re.compile(rf"\bcredit {_FIGURE}"),
        re.compile(rf"\bkept as credit\) {_FIGURE}"),
        _CREDITED,
    ),
)
NET_BALANCE = LabelledField(
    r"(?:saldo neto|net balance)",
    r"(?:de|of|es|is)",
    (re.compile(rf"\bnet balance {_FIGURE}"),),
)
_SETTLES = (
    r"(?:y |and )?(?:(?:quedaras|quedas|quedaria|estaras|te pones|te pondras) (?:al dia|solvente)"
    r"|para (?:quedar|estar|ponerte|quedarte) (?:al dia|solvente)"
    r"|you(?:'ll| will|'d| would)? (?:be|get) (?:up to date|current|caught up|all square)"
    r"|to (?:get|bring|be)(?: your account| it)? (?:up to date|current|caught up))\b"
)
"""After an amount to pay, what paying it would settle ("si pagas USD 7,52 quedarás al
día", "pay USD 7.52 to bring your account up to date"): the amount is what is owed."""
OWED = LabelledField(
    r"(?:debes|adeudas|(?:tienes|tendras|hay) que pagar|te toca pagar|pendientes? de pago"
    r"|(?:monto|total|saldo|importe|cantidad) (?:a|por) (?:pagar|cancelar)"
    r"|(?:te |le )?(?:quedan?|faltan?) (?:por )?pagar|(?:saldo|monto|importe) (?:pendiente|deudor)"
    r"|deuda|tienes pendientes?|you (?:still )?owe|you (?:still )?(?:need|have) to pay"
    r"|you(?:'ll| will)(?: still)? (?:need|have) to pay|please pay|necesitas pagar"
    r"|amount (?:you owe|to pay|due)|balance due|outstanding (?:balance|amount)"
    r"|amount outstanding)",
    "",
    (),
    refuted_by=(
        *CREDIT.evidence,
        _INVOICE_PAID,
        _PAID_TOTAL,
        _PAYMENT_AMOUNT,
        _REPORT_AMOUNT,
        _REPORTED,
    ),
    gap=rf"(?:\s+(?:{_OF_WHAT}|pagar|cancelar|abonar|por pagar|por cancelar|con nosotros|with us|aun|todavia"
    r"|ahora|solo|pendiente|un total de|un monto de"
    r"|en total|es|es de|de|us|still|now|only|is|of|a total of|in total))*",
    after_only=r"(?:es lo que|son lo que|is what|are what)\s+(?:debes|adeudas|you (?:still )?owe)\b"
    r"|(?:that |which )?you (?:still )?owe\b(?!\s+(?:nothing|no\b|none|usd|ves|bs|\$|us\$|\d))"
    r"|que (?:aun |todavia )?(?:debes|adeudas)\b(?!\s+(?:nada|usd|ves|bs|\$|us\$|\d))"
    r"|(?:quedan? |faltan? )?por (?:pagar|cancelar)\b|sin pagar\b|adeudad[oa]s?\b"
    r"|pendientes?\b(?!\s+(?:de|por)\s+(?!pago\b)(?!pagar\b)"
    r"(?!(?:la |tu |esa |esta )?(?:factura|recibo|cuota|inv-)))"
    r"(?!\s+(?:a (?:tu )?favor|para|en revision|hasta)\b)"
    r"|(?:(?:is|are|remains?|still)\s+)*(?:outstanding|unpaid)\b(?!\s+credit)"
    rf"|{_SETTLES}",
    spared_before=r"(?:reporte|report|credito|credit|reembolso|refund)\s+(?:de|por|of|for)"
    r"|(?:devolv|reembols|reintegr|refund|return)\w*(?:\s+(?:los|las|el|la|tus|the|your))?",
)
"""Its words are those of a debt: never the bare "saldo" (either side of the account) nor
"por pagar" ("gracias por pagar USD 32,48"), and between them and the amount only words of
a debt ("debes pagar un total de"), so "debes saber que tienes USD 7,52 a favor" is no
debt of USD 7.52. After the amount, "pendientes" is a debt unless something else is pending
of it ("pendiente de verificación", "pendientes a tu favor", "en revisión"); and an amount a
report, a credit or a refund is said to be of ("tu reporte de Bs. 1.234,56 pendiente"), or
money we give back ("te devolveremos los USD 7,52 pendientes"), is that money, not a debt."""
PAID = LabelledField(
    r"(?:pagaste|abonaste|transferiste|cancelaste|depositaste|(?:nos )?enviaste|you paid"
    r"|you sent|we received|you(?:'ve| have) paid|we(?:'ve| have) received|recibimos"
    r"|we(?:'ve| have)? got|nos llegaron|se recibio"
    r"|(?:nos llego|registramos|confirmamos|se registro)"
    r"(?= (?:tu|el|un|la) (?:pago|transferencia|abono|deposito))"
    r"|(?:hiciste|realizaste) un pago|tu pago (?:del? (?:\d{1,2} de )?\w+ )?fue|ultimo pago"
    r"|pago mas reciente|(?:your|the) (?:last|latest|most recent) payment"
    r"|monto pagado|total pagado|pago recibido|amount paid)",
    "",
    (
        _PAYMENT_AMOUNT,
        re.compile(rf"{_FIGURE} to INV-"),  # what it applied to an invoice
        _INVOICE_PAID,
        _REPORT_AMOUNT,
        _CREDITED,
        _REPORTED,
    ),
    gap=r"(?:\s+(?:fue|fueron|was|de|por|of|for|un total de|en total|a total of|in total|el|the"
    r"|ayer|hoy|yesterday|today|tu pago de|tu pago por|el pago de|el pago por|pago de|your|tu"
    r"|your payment of|your transfer of"
    r"|(?:tu|el|un|la|una) (?:pago|transferencia|abono|deposito)(?: movil)? (?:de|por)|con (?:transferencia|tarjeta|pago movil)|by (?:transfer|card)))*",
    cancelled_by=_NEGATED_OR_IF,
    after_only=r"(?:que|that|which)(?: (?:ya|you))?\s+(?:pagaste|abonaste|transferiste"
    r"|cancelaste|recibimos|you paid|you sent|we received)\b"
    r"|(?:you paid|you sent|we received)\b(?!\s+(?:usd|ves|bs|\$|us\$|\d))"
    r"|(?:ya )?(?:fue|ha sido|fueron|han sido) (?:recibid|registrad|procesad|aplicad)[oa]s?\b"
    r"|(?:ya )?se (?:recibio|registro)\b|quedo registrad[oa]\b|recibid[oa]s?\b"
    r"|(?:(?:payment|transfer) )?(?:was|were|has been|have been) (?:successfully )?"
    r"(?:received|registered|processed|applied)\b",
    spared_after=r"de mas|de sobra|en exceso|extra|adicionales?|more than|too much"
    r"|como (?:saldo a favor|credito)|as credit",
    spared_before=r"extra|adicionales?|excedentes?|sobrantes?|restantes?|remaining|the rest of"
    r"|el resto de"
    r"|(?:credito|excedente|reembolso|refund|credit)\s+(?:de|por|of|for)",
    converted=True,
)
"""Money that went from the subscriber: said in the past ("pagaste", "recibimos", "your last
payment"; after the amount, "fue recibido", "was received"), never "tu pago de" alone (also a
payment to come), not after "si" / "if" ("si pagaste
USD 32,48, repórtalo" says nothing of what was paid), and not what was paid over ("pagaste
USD 7,52 de más": the credit it left, which the credit field holds)."""
BILLED = LabelledField(
    r"(?:(?:tu|la|su|esta|esa) (?:factura|recibo)(?: (?:de|del) (?:este mes|mes pasado|\w+))?"
    r"(?: inv-[\d-]+)?|(?:your|the|this|that) (?:\w+ )?(?:bill|invoice)(?: inv-[\d-]+)?"
    r"(?: (?:this|last) month)?(?: total)?)",
    "",
    (),
    refuted_by=(*CREDIT.evidence, _PAYMENT_AMOUNT, _REPORT_AMOUNT, _REPORTED),
    gap=r"(?:\s+(?:es|fue|era|sale|salio|viene|vino|queda|de|por|en|is|was|comes to|came to"
    r"|of|for|total|un total de|a total of|en total|por un total de))*",
    after_only=r"(?!)",
)
"""What a bill is said to come to ("tu factura de este mes es de", "your November bill is",
"the invoice total is"): like a debt, too wide to list (a total, what is left of it, a
line), so it is stopped only when the evidence gives the amount solely as money on the
subscriber's side — a credit, a payment, a report. Only the verbs of an amount stand
between ("tu factura fue pagada con…" says nothing of the bill's amount)."""
PLAN_PRICE = LabelledField(
    r"(?:plan\b[^,;.]{0,100}?\b(?:cuesta|cuestan|vale|valen|costs?|is priced at"
    r"|tiene un (?:precio|costo)(?: mensual)? de|(?:su |tu |el )?precio(?: mensual)? es(?: de)?"
    r"|price is|por|for)"
    r"|(?:precio|costo)(?: mensual)? (?:de|del) (?:tu |el |su )?plan\b[^,;.]{0,40}?\bes(?: de)?"
    r"|(?:price|cost) of (?:your|the) plan\b[^,;.]{0,40}?\bis)",
    "",
    (),
    refuted_by=(
        re.compile(rf"\btotal {_FIGURE}"),
        re.compile(rf"\bamount due {_FIGURE}"),
        _INVOICE_PAID,
        _PAYMENT_AMOUNT,
        re.compile(rf"{_FIGURE} to INV-"),  # what a payment applied to an invoice
        *CREDIT.evidence,
        *OVERDUE.evidence[:1],
        *NET_BALANCE.evidence,
    ),
    gap="",
    after_only=r"(?!)",
)
"""What a plan is said to cost ("tu plan Fibra 100 cuesta USD 28,00", "…por USD 28,00 al
mes", "your plan costs…"): a plan's monthly price, which an invoice's total is not (the tax
is on top) — so an amount said of it is stopped when the evidence gives it only as what was
billed, owed, paid or credited; a price of the plans table passes (it is no such figure)."""
FIELDS = (OWED, OVERDUE, CREDIT, NET_BALANCE, PAID, BILLED, PLAN_PRICE)
"""In the order the fault injector tries them (the debt first: a reply that states a credit
also says what is owed)."""
_ANY_FIGURE = re.compile(_FIGURE)


def labelled_figures(field: LabelledField, evidence_texts: Sequence[str]) -> frozenset[Decimal]:
    """Every figure the evidence gives for `field`, unsigned: a net balance of USD -7.52 is
    said "saldo neto a favor de USD 7,52" too (the sign is the sign guard's to check)."""
    figures = frozenset(
        abs(Decimal(match[1]))
        for text in evidence_texts
        for pattern in field.evidence
        for match in pattern.finditer(text)
    )
    if not field.converted:
        return figures
    return figures | {
        Decimal(match[2])
        for text in evidence_texts
        for match in _CONVERSION.finditer(text)
        if Decimal(match[1]) in figures
    }


def wrong_for(
    field: LabelledField, evidence_texts: Sequence[str]
) -> Callable[[Decimal], bool] | None:
    """Whether an amount (unsigned) said to be of `field` is wrong by this evidence; None
    when the evidence labels no figure of the field (nothing to hold the amount to)."""
    if not field.refuted_by:
        backed = labelled_figures(field, evidence_texts)
        known = backed or any(p.search(text) for text in evidence_texts for p in field.known_by)
        return (lambda value: value not in backed) if known else None
    refuting = {
        (index, match.start(1)): abs(Decimal(match[1]))
        for index, text in enumerate(evidence_texts)
        for pattern in field.refuted_by
        for match in pattern.finditer(text)
    }
    elsewhere = {
        Decimal(match[1])
        for index, text in enumerate(evidence_texts)
        for match in _ANY_FIGURE.finditer(text)
        if (index, match.start(1)) not in refuting
    }
    wrong = frozenset(refuting.values()) - elsewhere - {Decimal(0)}  # no debt is no credit
    return wrong.__contains__ if wrong else None


def said_to_be(field: LabelledField, folded: str, start: int, end: int) -> bool:
    """Whether the amount at `start:end` of a folded text is said to be of `field`."""
    before = _CURRENCY_BEFORE.sub("", folded[:start])
    after = folded[end:]
    unit = _UNIT_AFTER.match(after)
    after = after[unit.end() :] if unit else after
    spared_before, spared_after = field.spared
    if (spared_before and spared_before.search(before)) or (
        spared_after and spared_after.match(after)
    ):
        return False
    found = field.before.search(before)
    if found is not None and not field.cancelled_by.search(before[: found.start()]):
        return True
    return field.after_words.match(after) is not None


def unsupported_labelled(answer: str, evidence_texts: Sequence[str]) -> tuple[str, ...]:
    """The amounts `answer` says are of a field (`FIELDS`) that no figure of that field in
    the evidence backs."""
    checks = [(field, wrong) for field in FIELDS if (wrong := wrong_for(field, evidence_texts))]
    failed = []
    for sentence in sentences(answer) if checks else ():
        folded = fold(sentence)
        for mention in find_amounts(folded):
            value = abs(mention.value)
            if any(
                wrong(value) and said_to_be(field, folded, mention.start, mention.end)
                for field, wrong in checks
            ):
                failed.append(mention.token)  # as the figure check lists it: once
    return tuple(dict.fromkeys(failed))
