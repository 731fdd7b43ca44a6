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
