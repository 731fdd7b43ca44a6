"""Reading and writing dates in Spanish and English."""

from __future__ import annotations

from datetime import date

import pytest

from billing_toolkit.assistant.text.dates import DateStyle, find_dates, format_date, write_like
from billing_toolkit.assistant.text.language import Language


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("vence el 10 de diciembre de 2026.", date(2026, 12, 10)),
        ("vence el 10 de diciembre del 2026", date(2026, 12, 10)),
        ("due December 10, 2026", date(2026, 12, 10)),
        ("due Dec. 10 2026", date(2026, 12, 10)),
        ("due 10th of December, 2026", date(2026, 12, 10)),
        ("as of 2026-11-29T10:00:00Z", date(2026, 11, 29)),
        ("pagado el 25/12/2026", date(2026, 12, 25)),
        ("pagado el 12/25/2026", date(2026, 12, 25)),
        ("pagado el 10.10.2026", date(2026, 10, 10)),
    ],
)
def test_dates_are_read_to_their_value(text: str, value: date) -> None:
    [mention] = find_dates(text)
    assert mention.value == value


def test_a_numeric_date_readable_two_ways_has_no_value() -> None:
    [mention] = find_dates("vence el 05/11/2026")
    assert mention.literal == "05/11/2026"
    assert mention.value is None


def test_a_date_without_year_keeps_month_and_day() -> None:
    [mention] = find_dates("cierra el 24 de diciembre")
    assert (mention.value, mention.month_day) == (None, (12, 24))


@pytest.mark.parametrize("text", ["el 31 de febrero", "2026-02-30", "31 de febrero de 2026"])
def test_impossible_dates_are_found_without_a_value(text: str) -> None:
    [mention] = find_dates(text)
    assert mention.value is None
    assert mention.month_day is None


def test_mentions_come_in_order() -> None:
    mentions = find_dates("del 5 de noviembre de 2026 al 2026-12-04")
    assert [m.literal for m in mentions] == ["5 de noviembre de 2026", "2026-12-04"]


def test_overlapping_readings_keep_the_first() -> None:
    assert [m.literal for m in find_dates("Dec 10 December 2026")] == ["Dec 10"]


def test_dates_are_written_with_month_names() -> None:
    assert format_date(date(2026, 12, 5), Language.SPANISH) == "5 de diciembre de 2026"
    assert format_date(date(2026, 12, 5), Language.ENGLISH) == "December 5, 2026"


@pytest.mark.parametrize(
    ("text", "style", "written"),
    [
        ("2026-12-10", DateStyle.ISO, "2026-12-11"),
        ("25/12/2026", DateStyle.NUMERIC, "11/12/2026"),
        ("10 de diciembre de 2026", DateStyle.SPANISH, "11 de diciembre de 2026"),
        ("December 10, 2026", DateStyle.ENGLISH, "December 11, 2026"),
    ],
)
def test_a_date_can_be_rewritten_in_the_style_it_was_found(
    text: str, style: DateStyle, written: str
) -> None:
    [mention] = find_dates(text)
    assert mention.style is style
    assert write_like(date(2026, 12, 11), mention) == written


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("vence el 15 de dic. de 2026", date(2026, 12, 15)),
        ("vence el 15 de sept. de 2026", date(2026, 9, 15)),
        ("vence el 15-dic-2026", date(2026, 12, 15)),
        ("due 15.Dec.2026", date(2026, 12, 15)),
        ("el 1.º de enero de 2027", date(2027, 1, 1)),
        ("el 1ro de enero de 2027", date(2027, 1, 1)),
        ("quince de diciembre de dos mil veintiséis", date(2026, 12, 15)),
        ("the twenty-first of December, 2026", date(2026, 12, 21)),
    ],
)
def test_abbreviated_ordinal_compact_and_spelled_dates_are_read(text: str, value: date) -> None:
    [mention] = find_dates(text)
    assert mention.value == value


def test_a_full_month_name_does_not_swallow_the_full_stop() -> None:
    [mention] = find_dates("Vence el 11 de diciembre.")
    assert mention.literal == "11 de diciembre"


def test_a_weekday_before_a_date_is_part_of_the_mention() -> None:
    [mention] = find_dates("vence el martes, 15 de diciembre de 2026")
    assert (mention.literal, mention.weekday) == ("martes, 15 de diciembre de 2026", 1)


def test_a_day_of_the_month_its_sentence_names() -> None:
    [mention] = find_dates("La de diciembre vence el día 15. El día 20 no.")
    assert (mention.literal, mention.month_day, mention.value) == ("el día 15", (12, 15), None)


def test_a_day_in_words_that_makes_no_number_gives_the_date_no_value() -> None:
    [mention] = find_dates("vence el cinco y tres de diciembre de 2026")
    assert (mention.value, mention.month_day) == (None, None)


def test_el_dia_before_a_full_date_is_read_once() -> None:
    [mention] = find_dates("vence el día quince de diciembre")
    assert (mention.literal, mention.month_day) == ("quince de diciembre", (12, 15))


@pytest.mark.parametrize(
    ("text", "month_day"),
    [
        ("Del 5 de diciembre de 2026 hasta el día 20.", (12, 20)),  # a dated mention's month
        ("Del 5 de diciembre hasta el día 20.", (12, 20)),  # a yearless mention's month
        ("Entre el 31 de febrero y el día 20.", (2, 20)),  # an impossible date's month word
    ],
)
def test_el_dia_takes_the_month_of_a_date_in_its_sentence(
    text: str, month_day: tuple[int, int]
) -> None:
    assert find_dates(text)[-1].month_day == month_day
