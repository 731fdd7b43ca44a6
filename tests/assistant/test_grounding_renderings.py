"""The verifier accepts every legitimate rendering of a supported figure, and only those;
and illustration is not evidence for a reply about the subscriber's account."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from billing_toolkit.assistant.guards.grounding import GroundingResult, GroundingVerifier
from billing_toolkit.assistant.text.language import Language

EVIDENCE = (
    "Invoice INV-2026-004281: total USD 45.00, amount due USD 45.50, due 2026-12-05. "
    "Phone +58 412-1234567. Net balance 1234567.89."
)


def verify(
    answer: str,
    *,
    language: Language | None = None,
    example_texts: Sequence[str] = (),
    about_account: bool = False,
) -> GroundingResult:
    return GroundingVerifier().verify(
        answer=answer,
        used_chunk_ids=[],
        retrieved_chunk_ids=[],
        evidence_texts=[],
        tool_result_texts=[EVIDENCE],
        language=language,
        example_texts=example_texts,
        about_account=about_account,
    )


@pytest.mark.parametrize(
    ("answer", "language"),
    [
        ("Vence el 05/12/2026.", Language.SPANISH),  # dd/mm in a Spanish reply
        ("Due 12/05/2026.", Language.ENGLISH),  # mm/dd in an English one
        ("Vence el 5 de diciembre de 2026.", Language.SPANISH),
        ("Due December 5, 2026.", Language.ENGLISH),
        ("El total es USD 45.", Language.SPANISH),  # whole amount, zero decimals
        ("The total is 45 USD.", Language.ENGLISH),
        ("Saldo neto 1 234 567,89.", Language.SPANISH),  # space as thousands separator
        ("Llámanos al +58 412 123 4567.", Language.SPANISH),  # spaced phone, digit equality
        ("Call +58 (412) 1234567.", Language.ENGLISH),
    ],
)
def test_legitimate_renderings_pass(answer: str, language: Language) -> None:
    result = verify(answer, language=language)
    assert result.grounded, result.unsupported


@pytest.mark.parametrize(
    ("answer", "language", "token"),
    [
        ("Vence el 12/05/2026.", Language.SPANISH, "12/05/2026"),  # 12 May in Spanish: wrong
        ("Por pagar: USD 46.", Language.SPANISH, "46"),  # 45.50 is not a whole 46
        ("Por pagar: USD 45, y listo.", Language.SPANISH, None),  # 45 = 45.00 (the total)
        ("Saldo neto 1 234 576,89.", Language.SPANISH, "1 234 576,89"),
        ("Llámanos al +58 412 123 4576.", Language.SPANISH, "4576"),
        ("Call (0412) 1234567.", Language.ENGLISH, "0412"),  # the local form is other digits
    ],
)
def test_wrong_renderings_are_still_rejected(
    answer: str, language: Language, token: str | None
) -> None:
    result = verify(answer, language=language)
    if token is None:
        assert result.grounded
    else:
        assert not result.grounded and token in result.unsupported


def test_an_ambiguous_numeric_date_without_a_locale_has_no_value() -> None:
    assert not verify("Vence el 05/12/2026.").grounded


def test_an_example_figure_never_backs_a_statement_about_the_account() -> None:
    example = "Ejemplo: Cuenta 1000000123, total USD 32,48."
    answer = "Tu factura es de USD 32,48."
    about = verify(answer, example_texts=[example], about_account=True)
    assert not about.grounded and about.illustrative_tokens == ("32,48",)
    policy = verify(answer, example_texts=[example], about_account=False)
    assert policy.grounded


def test_a_figure_no_evidence_backs_is_not_called_illustrative() -> None:
    result = verify(
        "Tu factura es de USD 99,99.", example_texts=["Ejemplo: USD 32,48."], about_account=True
    )
    assert result.unsupported == ("99,99",) and result.illustrative_tokens == ()


def test_a_short_number_is_not_backed_by_a_fragment_of_an_evidence_date() -> None:
    # "Hogar 06" for "Hogar 60" must not pass because the customer opened on 2022-08-06.
    result = GroundingVerifier().verify(
        answer="Tu plan es Hogar 06.",
        used_chunk_ids=[],
        retrieved_chunk_ids=[],
        evidence_texts=[],
        tool_result_texts=["Plan Hogar 60; account opened 2022-08-06"],
    )
    assert result.unsupported == ("06",)
