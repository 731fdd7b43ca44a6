"""Settings come from the caller or the environment; a missing one is a clear one-line error."""

from __future__ import annotations

import dataclasses
import inspect
import math
from collections.abc import Callable

import pytest

from billing_toolkit.client import (
    AsyncBillingClient,
    BillingClient,
    ClientOptions,
    RetryPolicy,
    Timeouts,
)
from billing_toolkit.client.base import ENV_API_KEY, ENV_BASE_URL


def test_base_url_and_key_fall_back_to_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_BASE_URL, "http://127.0.0.1:9999")
    monkeypatch.setenv(ENV_API_KEY, "secret-from-env")
    with BillingClient() as client:
        assert str(client.base_url) == "http://127.0.0.1:9999"
        assert "secret-from-env" not in repr(client)


@pytest.mark.parametrize(
    ("missing", "what"), [(ENV_BASE_URL, "a base URL"), (ENV_API_KEY, "an API key")]
)
def test_a_missing_setting_says_which_and_how_to_fix_it(
    missing: str, what: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_BASE_URL, "http://127.0.0.1:9999")
    monkeypatch.setenv(ENV_API_KEY, "k")
    monkeypatch.delenv(missing)
    with pytest.raises(
        ValueError, match=f"^billing client needs {what}: pass it or set {missing}$"
    ):
        BillingClient()


def test_timeouts_must_be_positive_and_attempts_get_what_is_left() -> None:
    with pytest.raises(ValueError):
        Timeouts(connect=0)
    attempt = Timeouts(connect=2.0, read=5.0, total=10.0).for_attempt(remaining=3.0)
    assert (attempt.connect, attempt.read) == (2.0, 3.0)


@pytest.mark.parametrize("twin", [BillingClient, AsyncBillingClient])
def test_a_misspelt_option_is_refused_not_ignored(twin: type[BillingClient]) -> None:
    with pytest.raises(TypeError, match=r"unknown option\(s\) retries$"):
        twin("http://127.0.0.1:9999", "k", retries=3)  # type: ignore[call-arg]


def test_both_twins_take_the_one_typed_list_of_options() -> None:
    """The options are spelt out once (`ClientOptions`) and each twin's signature names it,
    so an IDE and a type checker see every option of either twin by name and type."""
    assert set(ClientOptions.__optional_keys__) == {
        "timeouts",
        "retry",
        "breaker",
        "clock",
        "rng",
        "idempotency_key_factory",
    }
    for twin in (BillingClient, AsyncBillingClient):
        options = inspect.signature(twin.__init__).parameters["options"]
        assert options.kind is inspect.Parameter.VAR_KEYWORD
        assert options.annotation == "Unpack[ClientOptions]"


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Timeouts(read=True), "Timeouts.read must be a valid number, got True"),
        (lambda: Timeouts(total="10"), "Timeouts.total must be a valid number"),  # type: ignore[arg-type]
        (lambda: Timeouts(connect=math.inf), "Timeouts.connect must be a finite number, got inf"),
        (lambda: RetryPolicy(max_attempts=0), "RetryPolicy.max_attempts must be greater than"),
        (lambda: RetryPolicy(base_delay=-1), "RetryPolicy.base_delay must be greater than"),
        (lambda: RetryPolicy(base_delay=3.0), "RetryPolicy needs base_delay <= max_delay"),
        (lambda: RetryPolicy(max_delay=math.nan), "RetryPolicy.max_delay must be a finite"),
    ],
)
def test_a_bad_option_is_one_line_naming_it(build: Callable[[], object], message: str) -> None:
    with pytest.raises(ValueError) as raised:
        build()
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)


def test_an_option_object_is_still_a_frozen_value() -> None:
    timeouts = Timeouts(1.0, 2.0, 3.0)
    assert timeouts == Timeouts(connect=1.0, read=2.0, total=3.0)
    assert hash(timeouts) == hash(Timeouts(connect=1.0, read=2.0, total=3.0))
    with pytest.raises(ValueError, match="^Timeouts.read must be greater than 0, got 0$"):
        dataclasses.replace(timeouts, read=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        timeouts.read = 9.0  # type: ignore[misc]
