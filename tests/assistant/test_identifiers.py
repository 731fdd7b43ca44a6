"""Identifier detection: literals kept, only known-equivalent forms normalised."""

from __future__ import annotations

import pytest

from billing_toolkit.assistant.text.identifiers import (
    SUBSCRIBER_KINDS,
    IdentifierKind,
    find_identifiers,
    normalize_phone,
)
from billing_toolkit.contract.formats import contract_formats


def found(text: str) -> list[tuple[str, str, str | None]]:
    return [(i.kind.value, i.literal, i.normalized) for i in find_identifiers(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("factura INV-2026-004281", ("invoice_number", "INV-2026-004281", "INV-2026-004281")),
        ("factura inv-2026-004281", ("invoice_number", "inv-2026-004281", "INV-2026-004281")),
        (
            "factura INV\u20132026\u2014004281",
            ("invoice_number", "INV\u20132026\u2014004281", "INV-2026-004281"),
        ),
        ("cédula V-12.345.678", ("national_id", "V-12.345.678", "V-12345678")),
        ("cédula v12345678", ("national_id", "v12345678", "V-12345678")),
        ("cédula E 81234567", ("national_id", "E 81234567", "E-81234567")),
        ("cédula V-123456789", ("national_id", "V-123456789", "V-123456789")),
        ("RIF J-12345678-9", ("national_id", "J-12345678-9", "J-12345678-9")),
        ("RIF j123456789", ("national_id", "j123456789", "J-12345678-9")),
        ("RIF V-12345678-9", ("national_id", "V-12345678-9", "V-12345678-9")),
        ("cuenta 1000004821.", ("account_number", "1000004821", "1000004821")),
        ("pago PAY-0000012345", ("payment_id", "PAY-0000012345", "PAY-0000012345")),
        ("tel 0412-1234567", ("phone", "0412-1234567", "+584121234567")),
        ("tel +58 412 1234567", ("phone", "+58 412 1234567", "+584121234567")),
    ],
)
def test_valid_identifiers_are_found_and_normalised(
    text: str, expected: tuple[str, str, str]
) -> None:
    assert found(text) == [expected]


@pytest.mark.parametrize(
    ("text", "literal"),
    [
        ("factura INV-2026-04281", "INV-2026-04281"),  # a digit short
        ("factura INV2026004281", "INV2026004281"),  # separators are part of the key
        ("mi cuenta es 10000048", "10000048"),  # introduced as an account, wrong shape
        ("account number 1000 004 821", "1000 004 821"),  # inner spaces are not removed
    ],
)
def test_identifier_shaped_text_that_does_not_validate_is_kept_as_invalid(
    text: str, literal: str
) -> None:
    [identifier] = find_identifiers(text)
    assert identifier.literal == literal
    assert not identifier.valid
    assert identifier.key == (identifier.kind, literal)


def test_zeros_are_never_dropped() -> None:
    [identifier] = find_identifiers("INV-2026-04281")
    assert identifier.normalized is None
    assert found("INV-2026-000123") == [("invoice_number", "INV-2026-000123", "INV-2026-000123")]


def test_several_identifiers_come_back_in_order() -> None:
    text = "V-12345678 pagó INV-2026-004281 y INV-2026-004102 desde la cuenta 1000004821"
    assert [i.kind for i in find_identifiers(text)] == [
        IdentifierKind.NATIONAL_ID,
        IdentifierKind.INVOICE,
        IdentifierKind.INVOICE,
        IdentifierKind.ACCOUNT,
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Debes USD 45,00 desde el 2026-12-10",
        "total 1234567890.50",  # a ten-digit amount is not an account
        "referencia 004512873301",  # a bank reference is not a phone
        "EV-12345678",  # a letter glued to another word
        "el plan PLN-FIBRA-100",
    ],
)
def test_figures_dates_and_codes_are_not_identifiers(text: str) -> None:
    assert find_identifiers(text) == []


@pytest.mark.parametrize(
    ("raw", "e164"),
    [
        ("+584121234567", "+584121234567"),
        ("584121234567", "+584121234567"),
        ("0412-1234567", "+584121234567"),
        ("(0412) 123-4567", "+584121234567"),
        ("+0412", None),
        ("phone", None),
        ("", None),
    ],
)
def test_inbound_phones_are_normalised_to_e164(raw: str, e164: str | None) -> None:
    assert normalize_phone(raw) == e164


@pytest.mark.parametrize(
    ("text", "literal", "normalized"),
    [
        ("el plan PLN-FIBRA-100", "PLN-FIBRA-100", "PLN-FIBRA-100"),
        ("el plan pln-hogar-60, por favor", "pln-hogar-60", "PLN-HOGAR-60"),
        ("el plan PLN\u2013FIBRA\u2013300.", "PLN\u2013FIBRA\u2013300", "PLN-FIBRA-300"),
    ],
)
def test_plan_codes_are_found_only_when_asked_for(text: str, literal: str, normalized: str) -> None:
    assert find_identifiers(text) == []
    [plan] = find_identifiers(text, frozenset(IdentifierKind))
    assert (plan.kind, plan.literal, plan.normalized) == (IdentifierKind.PLAN, literal, normalized)


def test_asking_for_plan_codes_leaves_the_other_identifiers_unchanged() -> None:
    text = "cambio PLN-FIBRA-100 de la cuenta 1000004821, cédula V-12.345.678, tel 0412-1234567"
    everything = find_identifiers(text, frozenset(IdentifierKind))
    assert [i for i in everything if i.kind is not IdentifierKind.PLAN] == find_identifiers(text)
    assert IdentifierKind.PLAN not in SUBSCRIBER_KINDS


def test_only_the_kinds_asked_for_are_found() -> None:
    text = "INV-2026-004281 de la cuenta 1000004821"
    assert [i.literal for i in find_identifiers(text, {IdentifierKind.ACCOUNT})] == ["1000004821"]


@pytest.mark.parametrize(
    "text",
    [
        "INV-2026-004281",
        "INV-2026-04281",
        "1000004821",
        "cuenta 10000048",
        "V-12.345.678",
        "j123456789",
        "PAY-0000012345",
        "0412-1234567",
        "+58 412 1234567",
        "PLN-FIBRA-100",
    ],
)
def test_a_key_is_valid_exactly_when_the_contract_format_accepts_it(text: str) -> None:
    """The canonical forms are the contract's `components/schemas` patterns, not copies."""
    formats = contract_formats()
    [identifier] = find_identifiers(text, frozenset(IdentifierKind))
    candidate = identifier.normalized or identifier.literal
    assert identifier.valid is bool(
        formats.identifier(identifier.kind.contract_format).fullmatch(candidate)
    )
