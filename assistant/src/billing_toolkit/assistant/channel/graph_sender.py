"""Sending a text reply through the WhatsApp Cloud API (Graph API `/{phone_number_id}/messages`).

The base URL is configurable (a local fake in tests and demos, `graph.facebook.com` in
production) and the HTTP client is injected, so tests route it to respx or an in-process app
and never reach the network. Waiting between attempts goes through the injected `sleep`: tests
record the waits instead of sleeping. Error texts are masked before they are kept, because the
Graph API quotes phone numbers in some of them.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx

from billing_toolkit.assistant.channel.config import Secret
from billing_toolkit.assistant.channel.send_retry import (
    SendBudget,
    retry_after_seconds,
    retryable_status,
)
from billing_toolkit.assistant.text.masking import mask_personal

Sleep = Callable[[float], Awaitable[None]]
DEFAULT_TIMEOUT = httpx.Timeout(10.0, connect=5.0)


@dataclass(frozen=True, slots=True)
class SendOutcome:
    sent: bool
    attempts: int
    provider_id: str | None = None
    """WhatsApp's id of the sent message (`wamid.…`)."""
    error: str | None = None


@dataclass(frozen=True, slots=True)
class _Attempt:
    provider_id: str | None = None
    error: str | None = None
    retryable: bool = False
    retry_after: float | None = None


def _graph_error(response: httpx.Response) -> str:
    try:
        error = response.json().get("error") or {}
    except (ValueError, AttributeError):
        error = {}
    detail = error.get("message") if isinstance(error, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    text = f"HTTP {response.status_code}" + (f" (code {code})" if code is not None else "")
    return mask_personal(f"{text}: {detail}" if detail else text)


def _provider_id(response: httpx.Response) -> str | None:
    try:
        messages = response.json().get("messages") or []
        return str(messages[0]["id"])
    except (ValueError, AttributeError, LookupError, TypeError):
        return None


class GraphSender:
    """Sends text messages with retries; never raises for a failed send."""

    def __init__(
        self,
        base_url: str,
        http: httpx.AsyncClient,
        *,
        budget: SendBudget | None = None,
        sleep: Sleep = asyncio.sleep,
        rng: random.Random | None = None,
    ) -> None:
        self._base_url = base_url.rstrip("/")
        self._http = http
        self._budget = budget or SendBudget()
        self._sleep = sleep
        self._rng = rng or random.Random()

    async def send_text(
        self, token: Secret, phone_number_id: str, to: str, text: str
    ) -> SendOutcome:
        """Send `text` from the operator's number `phone_number_id` to `to` (E.164)."""
        body = {
            "messaging_product": "whatsapp",
            "recipient_type": "individual",
            "to": to.lstrip("+"),
            "type": "text",
            "text": {"preview_url": False, "body": text},
        }
        attempt = _Attempt()
        for number in range(1, self._budget.attempts + 1):
            attempt = await self._attempt(token, phone_number_id, body)
            if attempt.error is None:
                return SendOutcome(True, number, provider_id=attempt.provider_id)
            if not attempt.retryable:
                return SendOutcome(False, number, error=attempt.error)
            if number < self._budget.attempts:
                await self._sleep(self._budget.delay(number, self._rng, attempt.retry_after))
        return SendOutcome(False, self._budget.attempts, error=attempt.error)

    async def _attempt(self, token: Secret, phone_number_id: str, body: dict[str, Any]) -> _Attempt:
        url = f"{self._base_url}/{phone_number_id}/messages"
        try:
            response = await self._http.post(
                url,
                json=body,
                timeout=DEFAULT_TIMEOUT,
                headers={"Authorization": f"Bearer {token.value}"},
            )
        except httpx.TransportError as exc:
            return _Attempt(
                error=f"{type(exc).__name__}: could not reach the Graph API", retryable=True
            )
        if response.is_success:
            return _Attempt(provider_id=_provider_id(response))
        return _Attempt(
            error=_graph_error(response),
            retryable=retryable_status(response.status_code),
            retry_after=retry_after_seconds(response.headers.get("Retry-After")),
        )
