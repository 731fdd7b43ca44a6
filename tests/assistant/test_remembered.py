"""The text readers remember their answers per text (`text/remembered.py`): the same answer
as reading again, never one caller's list handed to another, and bounded."""

from __future__ import annotations

from datetime import date

import pytest

from billing_toolkit.assistant.text import remembered as remembering
from billing_toolkit.assistant.text.amounts import find_amounts
from billing_toolkit.assistant.text.dates import find_dates
from billing_toolkit.assistant.text.identifiers import IdentifierKind, find_identifiers
from billing_toolkit.assistant.text.remembered import remembered


def test_an_answer_changed_by_its_caller_is_not_the_next_callers() -> None:
    text = "Tu factura INV-2026-000123 vence el 15/12/2026 por USD 45,50."
    first = find_amounts(text)
    first.clear()
    assert [a.value for a in find_amounts(text)] == [a.value for a in find_amounts(text + " ")]
    assert find_amounts(text) != [] and find_amounts(text) is not find_amounts(text)


def test_the_same_text_read_another_way_is_read_again() -> None:
    text = "vence el 05/11/2026"
    spanish, english = find_dates(text, day_first=True), find_dates(text, day_first=False)
    assert [d.value for d in spanish + english] == [date(2026, 11, 5), date(2026, 5, 11)]
    text = "mi cuenta 1000004821, mi teléfono +58 414 1234567"
    accounts = find_identifiers(text, {IdentifierKind.ACCOUNT})  # a set: any collection
    assert [i.kind for i in accounts] == [IdentifierKind.ACCOUNT]
    assert len(find_identifiers(text)) == 2


def test_a_reader_reads_each_text_once_and_keeps_a_bounded_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(remembering, "TEXTS", 2)
    calls: list[str] = []

    @remembered
    def words(text: str) -> list[str]:
        calls.append(text)
        return text.split()

    assert words("a b") == ["a", "b"] and words("a b") == ["a", "b"]
    assert calls == ["a b"]
    words("c")
    words("d")  # "a b" is now the least recently used of three
    words("a b")
    assert calls == ["a b", "c", "d", "a b"]
