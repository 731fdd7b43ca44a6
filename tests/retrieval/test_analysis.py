"""The analyzer keeps identifiers whole and folds only what the source system treats as equal;
words are stemmed (Spanish and English), identifiers and numbers never."""

from __future__ import annotations

import pytest

from billing_toolkit.assistant.retrieval.analysis import (
    analyze_query,
    canonical_number,
    fold_plural,
    index_entry,
)
from billing_toolkit.assistant.text.identifiers import find_identifiers


@pytest.mark.parametrize(
    ("text", "identifier"),
    [
        ("¿Qué es INV-2026-004281 en mi factura?", "inv-2026-004281"),
        ("RIF J-12345678-9", "j-12345678-9"),
        ("rif j123456789", "j-12345678-9"),
        ("mi cédula es V-12.345.678", "v-12345678"),
        ("v12345678", "v-12345678"),
        ("E-8123456", "e-8123456"),
        ("cuenta 1000004821", "1000004821"),
        ("pago PAY-0000012345", "pay-0000012345"),
        ("plan PLN-FIBRA-100", "pln-fibra-100"),
        ("llámame al 0412-1234567", "+584121234567"),
        ("mi número es +58 412 1234567", "+584121234567"),
        ("factura INV\u20132026\u2013004281", "inv-2026-004281"),
        ("plan PLN\u2013FIBRA\u2013100", "pln-fibra-100"),
        ("cédula V 12345678", "v-12345678"),
        ("oficina 0212-1234567", "+582121234567"),
    ],
)
def test_identifiers_become_one_canonical_term(text: str, identifier: str) -> None:
    assert identifier in analyze_query(text).identifiers


def test_a_longer_number_is_not_mistaken_for_a_shorter_identifier() -> None:
    assert analyze_query("INV-2026-0042810").identifiers == ()
    assert analyze_query("10000048210").identifiers == ()


def test_an_identifier_shaped_typo_is_searched_as_words() -> None:
    query = analyze_query("factura INV-2026-04281")
    assert query.identifiers == ()
    assert query.groups == (("factur", "factura"), ("inv",), ("2026",), ("04281",))


def test_an_amount_is_not_mistaken_for_an_account_number() -> None:
    assert analyze_query("total 1234567890.50").identifiers == ()


def test_the_analyzer_and_the_pipeline_agree_on_identifiers() -> None:
    text = "INV-2026-004281, PAY-0000012345, J-12345678-9, v-12.345.678, 0412-1234567, 1000004821"
    pipeline_keys = [i.normalized.lower() for i in find_identifiers(text) if i.normalized]
    assert analyze_query(text).identifiers == tuple(pipeline_keys)


def test_neighbouring_invoices_stay_distinct() -> None:
    assert index_entry("INV-2026-004281").terms != index_entry("INV-2026-004218").terms


def test_id_digits_are_indexed_so_a_bare_number_still_matches() -> None:
    assert "12345678" in index_entry("cédula V-12.345.678").terms


def test_stopwords_and_accents_are_dropped_from_words() -> None:
    assert analyze_query("¿Cuándo me cortan el SERVICIO?").groups == (
        ("cort", "cortan"),
        ("servici", "servicio"),
    )
    assert analyze_query("what is the late fee?").groups == (("lat", "late"), ("fee",))


@pytest.mark.parametrize(
    ("asked", "written"),
    [
        ("reconecten", "Cómo reconectar"),
        ("me cortaron", "el corte ocurre"),
        ("pagué", "cualquiera de nuestros métodos de pago"),
        ("facturas", "tu factura mensual"),
        ("facturas vencidas", "Cada factura vence 15 días después"),
        ("paying late", "pay before the due date"),
        ("reconnecting", "Reconnection costs USD 5.00"),
        ("suspending", "service is suspended"),
        ("prorated", "the proration line"),
    ],
)
def test_an_inflected_word_meets_the_form_the_document_uses(asked: str, written: str) -> None:
    query = analyze_query(asked)
    indexed = set(index_entry(written).terms)
    assert query.groups
    assert any(set(group) & indexed for group in query.groups)


def test_identifiers_and_numbers_are_never_stemmed() -> None:
    text = "factura INV-2026-004281 del plan PLN-FIBRA-100, cédula V-12.345.678, total 1.500,00"
    terms = index_entry(text).terms
    for exact in ("inv-2026-004281", "pln-fibra-100", "v-12345678", "12345678", "1500.00"):
        assert exact in terms
    # the Spanish stemmer strips a final vowel ("100" aside): nothing of the ids is cut
    assert not any(t.startswith("inv-2026-00428") and t != "inv-2026-004281" for t in terms)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("INV-2026-004281", "INV-2026-004218"),
        ("INV-2026-008263", "INV-2026-008263A"),
        ("cédula V-12345678", "cédula V-12345679"),
        ("PLN-FIBRA-100", "PLN-FIBRA-300"),
        ("total 45,00", "total 4.500,00"),
    ],
)
def test_two_different_identifiers_or_amounts_never_share_their_exact_term(
    one: str, other: str
) -> None:
    exact = [t for t in index_entry(one).terms if any(c.isdigit() for c in t)]
    assert exact and not set(exact) & set(index_entry(other).terms)


def test_a_word_gets_both_stems_in_one_group_and_a_number_none() -> None:
    query = analyze_query("reconecten 2026")
    assert query.groups == (("reconect", "reconecten"), ("2026",))
    assert query.words == ("reconect", "reconecten", "2026")


@pytest.mark.parametrize(
    ("token", "canonical"),
    [
        ("250,00", "250.00"),
        ("1.500,00", "1500.00"),
        ("1,500.00", "1500.00"),
        ("12.345.678", "12345678"),
        ("16", "16"),
        ("2,5", "2.5"),  # an amount as the grounding verifier reads one
    ],
)
def test_numbers_have_one_spelling_per_value(token: str, canonical: str) -> None:
    assert canonical_number(token) == canonical


def test_amounts_of_different_magnitude_do_not_meet() -> None:
    assert canonical_number("45.00") != canonical_number("4.500")


@pytest.mark.parametrize(
    ("word", "folded"),
    [
        ("facturas", "factura"),
        ("fees", "fee"),
        ("reconexiones", "reconexion"),
        ("mes", "mes"),
        ("access", "access"),
    ],
)
def test_plural_folding_is_light(word: str, folded: str) -> None:
    assert fold_plural(word) == folded
