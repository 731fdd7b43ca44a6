"""The one amount reader, and the verifier and the evaluation's judge reading amounts alike.

Held to full branch coverage together with the verifier (the command is in test_grounding.py).
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from billing_toolkit.assistant.evaluation.truth import Facts, wrong_items
from billing_toolkit.assistant.guards.grounding import GroundingVerifier
from billing_toolkit.assistant.text.amounts import find_amounts, wire_amount


def grounded(answer: str, evidence: str) -> bool:
    return (
        GroundingVerifier()
        .verify(
            answer=answer,
            used_chunk_ids=[],
            retrieved_chunk_ids=[],
            evidence_texts=[],
            tool_result_texts=[evidence],
        )
        .grounded
    )


def judged_right(reply: str, *amounts: str) -> bool:
    facts = Facts(frozenset(), frozenset(Decimal(a) for a in amounts), frozenset())
    return wrong_items(reply, facts, "") == []


@pytest.mark.parametrize(
    ("text", "token", "value"),
    [
        ("debes USD 45,00", "45,00", "45.00"),
        ("Bs. 1.234,56", "1.234,56", "1234.56"),
        ("USD 1,234.56", "1,234.56", "1234.56"),
        ("USD 45,5", "45,5", "45.5"),
        ("saldo USD -0,16", "-0,16", "-0.16"),
        ("saldo -USD 0,16", "-0,16", "-0.16"),
        ("saldo USD-0,16", "-0,16", "-0.16"),
        ("saldo USD \u22120,16", "-0,16", "-0.16"),
        ("saldo - 0,16", "- 0,16", "0.16"),
        ("(0,16)", "0,16", "0.16"),
    ],
)
def test_an_amount_is_read_with_its_sign_in_any_spelling(text: str, token: str, value: str) -> None:
    [amount] = find_amounts(text)
    assert (amount.token, amount.value) == (token, Decimal(value))
    assert text[amount.start : amount.end] == token.lstrip("- ")


@pytest.mark.parametrize(
    "text", ["INV-2026-004281", "2026-12-10", "V-12.345.678", "4.500", "1000004821", "10:30"]
)
def test_what_is_not_amount_shaped_is_no_amount(text: str) -> None:
    assert find_amounts(text) == []


def test_a_dash_is_located_where_it_is_written() -> None:
    text = "neto -USD 0,16, antes USD -1,00 y 2,00"
    minus_usd, minus, unsigned = find_amounts(text)
    assert (text[minus_usd.dash : minus_usd.end], text[minus.dash : minus.end]) == (
        "-USD 0,16",
        "-1,00",
    )
    assert unsigned.dash is None and not unsigned.ambiguous
    assert find_amounts("saldo - 0,16")[0].ambiguous


@pytest.mark.parametrize(
    ("wire", "value"),
    [
        ("45.00", Decimal("45.00")),
        ("-0.16", Decimal("-0.16")),
        ("0.00", Decimal("0.00")),
        ("45", None),
        ("45.0", None),
        ("1,234.56", None),
        ("045.00", None),
        ("45,00", None),
    ],
)
def test_api_amounts_are_read_by_the_contract_format(wire: str, value: Decimal | None) -> None:
    assert wire_amount(wire) == value


@pytest.mark.parametrize(
    "reply",
    [
        "Tu saldo es USD -0,16.",
        "Tu saldo es -USD 0,16.",
        "Tu saldo es USD-0,16.",
        "Tu saldo es USD \u22120,16.",
        "Tu saldo es - Bs. 0,16.",
    ],
)
def test_the_judge_backs_a_minus_wherever_the_verifier_does(reply: str) -> None:
    """Before the judge shared the reader, `-USD 0,16` read as +0.16 to it (wrong) and as
    -0.16 to the verifier (grounded)."""
    currency = "VES" if "Bs" in reply else "USD"
    assert grounded(reply, f"net balance {currency} -0.16")
    assert judged_right(reply, "-0.16")
    assert not judged_right(reply, "0.16")


@pytest.mark.parametrize(
    ("evidence", "backed"),
    [
        (("-0.16",), False),
        (("0.16",), False),
        (("0.16", "-0.16"), True),
    ],
)
def test_an_ambiguous_dash_must_hold_both_ways_for_both(
    evidence: tuple[str, ...], backed: bool
) -> None:
    reply = "Tu saldo - 0,16."
    assert grounded(reply, " ".join(f"USD {e}" for e in evidence)) is backed
    assert judged_right(reply, *evidence) is backed


def test_one_decimal_is_an_amount_for_both() -> None:
    assert grounded("USD 45,5", "USD 45.50") and judged_right("USD 45,5", "45.50")
    assert not grounded("USD 45,5", "USD 45.05") and not judged_right("USD 45,5", "45.05")


_SPELLINGS = (
    "USD {sign}{amount}",
    "{sign}USD {amount}",
    "USD{sign}{amount}",
    "Bs. {sign}{amount}",
    "{sign}Bs. {amount}",
)


@given(
    cents=st.integers(min_value=-(10**9), max_value=10**9),
    spelling=st.sampled_from(_SPELLINGS),
    comma=st.booleans(),
)
def test_any_spelling_reads_to_the_wire_value_for_verifier_and_judge(
    cents: int, spelling: str, comma: bool
) -> None:
    wire = f"{Decimal(cents).scaleb(-2):.2f}"
    written = f"{abs(Decimal(wire)):.2f}".replace(".", "," if comma else ".")
    sign = "-" if cents < 0 else ""
    reply = "saldo " + spelling.format(sign=sign, amount=written)
    assert [a.value for a in find_amounts(reply)] == [Decimal(wire)]
    assert grounded(reply, f"net balance {'VES' if 'Bs' in spelling else 'USD'} {wire}")
    assert judged_right(reply, wire)
