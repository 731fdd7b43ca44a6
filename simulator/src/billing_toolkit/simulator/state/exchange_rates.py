"""The official USD→VES rate series: one rate per business day, seeded.

A rate is a pure function of the seed and the day, so every replica, snapshot and restart
answers the same series without storing it. Weekends and Venezuelan national holidays have
no publication: they carry the last published rate and say so. Conversions at a rate are
the kernel's (`billing_toolkit.contract.conversion`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal

FIRST_RATE_DAY = date(2024, 1, 2)
"""The first business day of the series; an earlier date has no rate (404)."""
BASE_RATE = Decimal("36.0000")
DAILY_GROWTH = Decimal("1.0009")
SCALE = 4
QUANTUM = Decimal(1).scaleb(-SCALE)
SOURCE = "BCV"
PUBLISHED_AT = time(20, 0, tzinfo=UTC)
"""The rate of a business day is published the evening (UTC) of the day before it."""

FIXED_HOLIDAYS = frozenset(
    {(1, 1), (5, 1), (6, 24), (7, 5), (7, 24), (10, 12), (12, 24), (12, 25), (12, 31)}
)
"""Month and day of the national holidays that never move (no rate is published on them)."""


@dataclass(frozen=True, slots=True)
class PublishedRate:
    """The rate that applies on `day`: published for `effective_date` at `published_at`."""

    day: date
    rate: Decimal
    effective_date: date
    published_at: datetime

    @property
    def carried_over(self) -> bool:
        return self.effective_date != self.day


def is_business_day(day: date) -> bool:
    return day.weekday() < 5 and (day.month, day.day) not in FIXED_HOLIDAYS


def _published_rate(seed: int, day: date) -> Decimal:
    """A slow devaluation with a seeded wobble of up to ±0.5 %, to four decimals."""
    digest = hashlib.sha256(f"{seed}|{day.isoformat()}".encode()).digest()
    wobble = Decimal(int.from_bytes(digest[:4], "big") % 1001 - 500).scaleb(-5)
    trend = BASE_RATE * DAILY_GROWTH ** (day - FIRST_RATE_DAY).days
    return (trend * (1 + wobble)).quantize(QUANTUM, ROUND_HALF_UP)


def rate_on(seed: int, day: date) -> PublishedRate | None:
    """The rate of `day` (carried from the last business day when it has none); None before
    the series starts. Callers bound `day` by today: the trend of a date centuries ahead
    outgrows Decimal's precision."""
    if day < FIRST_RATE_DAY:
        return None
    effective = day
    while not is_business_day(effective):
        effective -= timedelta(days=1)
    if effective < FIRST_RATE_DAY:
        return None
    published = datetime.combine(effective - timedelta(days=1), PUBLISHED_AT)
    return PublishedRate(day, _published_rate(seed, effective), effective, published)
