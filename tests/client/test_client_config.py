"""Settings come from the caller or the environment; a missing one is a clear one-line error."""

from __future__ import annotations

import pytest

from billing_toolkit.client import BillingClient, Timeouts
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
