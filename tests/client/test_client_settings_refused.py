"""A client built from a wrong base URL or key refuses at construction, naming the setting —
not on the first call, where every failure reads as an outage."""

from __future__ import annotations

import pytest

from billing_toolkit.client import AsyncBillingClient, BillingClient

BAD_URLS = [
    "notaurl",
    "ftp://billing.example",
    "http://",
    "https://",
    "://billing.example",
    "http://[::1",
    "http://billing example",
    " http://billing.example",
    "http://billing.example:99999",
    "billing.example:8080",
    "file:///etc/passwd",
]
BAD_KEYS = ["sk live", "sk_live\n", "clé-ñ", "\x00sk", "sk_tab\tkey"]


@pytest.mark.parametrize("twin", [BillingClient, AsyncBillingClient])
@pytest.mark.parametrize("url", BAD_URLS)
def test_a_base_url_that_is_not_http_with_a_host_is_refused(twin: type, url: str) -> None:
    with pytest.raises(ValueError, match="base URL") as raised:
        twin(url, "sk_test_key")
    assert repr(url) in str(raised.value)


@pytest.mark.parametrize("twin", [BillingClient, AsyncBillingClient])
@pytest.mark.parametrize("key", BAD_KEYS)
def test_a_key_that_is_not_one_printable_token_is_refused_without_quoting_it(
    twin: type, key: str
) -> None:
    with pytest.raises(ValueError, match="API key") as raised:
        twin("http://127.0.0.1:8080", key)
    assert key not in str(raised.value) and "sk" not in str(raised.value)


def test_the_environment_is_checked_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BILLING_API_URL", "notaurl")
    with pytest.raises(ValueError, match=r"\$BILLING_API_URL"):
        BillingClient(api_key="sk_test_key")


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8080",
        "https://billing.example/v1",
        "http://[::1]:8080",
        "HTTP://Billing.Example",
    ],
)
def test_a_good_base_url_is_kept(url: str) -> None:
    with BillingClient(url, "sk_test_key") as client:
        assert client.base_url.host
