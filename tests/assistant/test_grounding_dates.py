"""Dates as people and models write them: read by value, and a wrong one still rejected."""

from __future__ import annotations

import pytest

from billing_toolkit.assistant.text.language import Language
from tests.assistant.grounding_helpers import verify

EVIDENCE = (
    "Balance of account 1000004821 as of 2026-11-29T10:00:00Z: amount due USD 45.00; "
    "next due date 2026-12-15. Subscription: next billing date 2026-09-01."
)
"""2026-12-15 is a Tuesday; 2026-09-01 a Tuesday too."""


@pytest.mark.parametrize(
    "answer",
    [
        "Debes 45 USD; vence el 15 de dic. de 2026.",  # the case
        "Vence el 15 de dic de 2026.",
        "Vence el 15-dic-2026.",
        "Vence el 15/Dec/2026.",
        "Due Dec. 15th, 2026.",
        "Due the 15th of December.",
        "Due December fifteenth, 2026.",
        "Vence el quince de diciembre de dos mil veintiséis.",
        "Se factura el 1.º de set. de 2026.",
        "Se factura el 1º de septiembre.",
        "Se factura el primero de septiembre.",
        "Bills on Sept. 1st, 2026.",
        "Vence el martes 15 de diciembre de 2026.",
        "Due Tuesday, December 15, 2026.",
        "Vence el martes 15 de diciembre.",  # a yearless date: the evidence year decides
        "Tu factura de diciembre vence el día 15.",
        "Your December invoice is due on the 15th.",
    ],
)
def test_a_date_written_as_people_write_it_is_grounded(answer: str) -> None:
    result = verify(answer, EVIDENCE, language=Language.SPANISH)
    assert result.grounded, result.unsupported


@pytest.mark.parametrize(
    ("answer", "token"),
    [
        ("Vence el 16 de dic. de 2026.", "16 de dic. de 2026"),
        ("Vence el 15-nov-2026.", "15-nov-2026"),
        ("Vence el dieciséis de diciembre.", "dieciséis de diciembre"),
        ("Vence el treinta y dos de diciembre.", "treinta y dos de diciembre"),  # no such day
        ("Vence el lunes 15 de diciembre de 2026.", "lunes 15 de diciembre de 2026"),
        ("Due Wednesday, December 15, 2026.", "Wednesday, December 15, 2026"),
        ("Vence el lunes 15 de diciembre.", "lunes 15 de diciembre"),
        ("Vence el lunes 31 de febrero.", "lunes 31 de febrero"),
        ("Tu factura de diciembre vence el día 16.", "el día 16"),
        ("Tu factura de febrero vence el día 30.", "el día 30"),
        ("Tu factura vence mañana.", "mañana"),
        ("Your invoice is due tomorrow.", "tomorrow"),
        ("Vence en 3 días.", "en 3 días"),
        ("Vence la próxima semana.", "la próxima semana"),
        ("It is due in three days.", "in three days"),
    ],
)
def test_a_wrong_or_relative_date_is_rejected(answer: str, token: str) -> None:
    assert token in verify(answer, EVIDENCE).unsupported_tokens


def test_a_relative_date_the_evidence_states_is_grounded() -> None:
    policy = "Los pagos se reflejan en 2 días hábiles."
    assert verify("Tu pago se refleja en 2 días hábiles.", policy).grounded


def test_a_day_with_no_month_in_its_sentence_is_only_a_number() -> None:
    # "el día 15" names no month: it is the figure 15, backed by the billing day.
    assert verify("Tu día de corte es el día 15.", "billing day 15").grounded
    assert not verify("Tu día de corte es el día 16.", "billing day 15").grounded


def test_a_day_in_a_sentence_naming_two_months_is_only_a_number() -> None:
    answer = "Entre noviembre y diciembre, el día 15."
    assert verify(answer, "billing day 15").grounded
