"""When a reply is sent again, and how long the service waits first."""

from __future__ import annotations

import random

import pytest

from billing_toolkit.assistant.channel.send_retry import (
    SendBudget,
    retry_after_seconds,
    retryable_status,
)


def test_waits_grow_exponentially_with_jitter_and_stay_under_the_cap() -> None:
    budget = SendBudget(attempts=8, base_delay=1.0, max_delay=10.0)
    rng = random.Random(1)
    waits = [budget.delay(n, rng) for n in range(1, 8)]
    for n, wait in enumerate(waits, start=1):
        backoff = min(10.0, 2 ** (n - 1))
        assert backoff / 2 <= wait <= backoff


def test_the_same_seed_gives_the_same_waits() -> None:
    budget = SendBudget()
    assert [budget.delay(n, random.Random(9)) for n in (1, 2, 3)] == [
        budget.delay(n, random.Random(9)) for n in (1, 2, 3)
    ]


def test_retry_after_lengthens_the_wait_within_the_cap() -> None:
    budget = SendBudget(max_delay=30.0)
    assert budget.delay(1, random.Random(0), retry_after=12.0) == 12.0
    assert budget.delay(1, random.Random(0), retry_after=3600.0) == 30.0


@pytest.mark.parametrize(
    ("status", "retry"),
    [
        (500, True),
        (502, True),
        (503, True),
        (429, True),
        (408, True),
        (400, False),
        (401, False),
        (403, False),
        (404, False),
    ],
)
def test_which_answers_are_worth_repeating(status: int, retry: bool) -> None:
    assert retryable_status(status) is retry


@pytest.mark.parametrize(
    ("header", "seconds"),
    [("5", 5.0), ("0.5", 0.5), (None, None), ("Wed, 21 Oct 2026 07:28:00 GMT", None), ("-1", None)],
)
def test_retry_after_in_seconds(header: str | None, seconds: float | None) -> None:
    assert retry_after_seconds(header) == seconds
