"""Reading and writing dates in Spanish and English."""

from __future__ import annotations

from datetime import date

import pytest

from billing_toolkit.assistant.text.dates import DateStyle, find_dates, format_date, write_like
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.text.relative_dates import relative_days, stated_days


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


@pytest.mark.parametrize(
    ("wording", "days"),
    [
        ("mañana", 1),
        ("pasado mañana", 2),
        ("the day before yesterday", -2),
        ("vence hoy", 0),
        ("en 16 días", 16),
        ("dentro de dos semanas", 14),
        ("hace 9 días", -9),
        ("in a week", 7),
        ("3 days ago", -3),
        ("a week from today", 7),
        ("en 2 meses", None),  # a month has no fixed length
        ("en unos días", None),
        ("en veinte treinta días", None),  # words that make no number
        ("el viernes", None),
    ],
)
def test_a_relative_date_names_an_exact_count_of_days_or_none(
    wording: str, days: int | None
) -> None:
    assert relative_days(wording) == days


def test_the_evidence_states_counts_of_days_the_way_the_capabilities_compute_them() -> None:
    text = "16 days until the next due date 2026-12-15; the oldest fell due 2026-11-20, 9 days ago"
    assert stated_days(text) == {16, -9}


@pytest.mark.parametrize(
    ("text", "day_first", "month_day"),
    [
        ("el 15/12", None, (12, 15)),  # the one real reading
        ("el 05/11", None, None),  # both real: no reading without a locale
        ("el 05/11", True, (11, 5)),
        ("el 05/11", False, (5, 11)),
        ("el 05/13", True, (5, 13)),  # the locale's reading is no date: the real one
    ],
)
def test_a_short_numeric_date_is_read_like_a_full_one(
    text: str, day_first: bool | None, month_day: tuple[int, int] | None
) -> None:
    [mention] = find_dates(text, day_first)
    assert mention.month_day == month_day


def test_a_weekday_after_its_date_is_kept_on_it() -> None:
    [mention] = find_dates("vence el 15 de diciembre de 2026 (martes), sin recargo")
    assert (mention.literal, mention.weekday) == ("15 de diciembre de 2026 (martes)", 1)


@pytest.mark.parametrize(
    ("text", "literal"),
    [
        (
            "Vence el VEINTISÉIS de diciembre de dos mil veintiséis.",
            "VEINTISÉIS de diciembre de dos mil veintiséis",
        ),
        ("İ ñ: el día quince de diciembre", "quince de diciembre"),
        ("Ü, ñ, é: pagaste el 1.º de diciembre", "1.º de diciembre"),
    ],
)
def test_a_date_matched_without_accents_keeps_the_replys_own_spelling_and_place(
    text: str, literal: str
) -> None:
    """The patterns read an accent-stripped copy; offsets and literal are the reply's."""
    (mention,) = find_dates(text)
    assert mention.literal == literal == text[mention.start : mention.end]
