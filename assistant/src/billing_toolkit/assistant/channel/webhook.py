"""The WhatsApp Cloud API webhook: URL verification (GET) and deliveries (POST).

A delivery is proven by its signature before anything else happens: a bad or missing one is
401 and the body is neither parsed nor stored. The body is bounded before it is read (3 MiB,
WhatsApp's own limit for a webhook payload) and its nesting before it is parsed
(`json_body`). A proven delivery is stored and acknowledged at once (200), and processed in
the background — the platform redelivers anything not acknowledged within seconds, and a
redelivered message is recognised by its id and not processed again. Each message of a
delivery is stored on its own: one the store refuses does not keep the others out (they are
stored and queued; the delivery is answered 503 so that the refused one comes again).
"""

from __future__ import annotations

import hmac
import logging
import time

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from billing_toolkit.assistant.channel.json_body import BodyProblem, parse_json, read_body
from billing_toolkit.assistant.channel.problems import problem
from billing_toolkit.assistant.channel.service import ChannelService
from billing_toolkit.assistant.channel.signature import SIGNATURE_HEADER, signing_secret
from billing_toolkit.assistant.channel.webhook_payload import PayloadError, read_delivery
from billing_toolkit.contract.masking import mask_all

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 3 * 1024 * 1024
"""WhatsApp's limit for a webhook payload; deliveries are a few KB."""


def _service(request: Request) -> ChannelService:
    service: ChannelService = request.app.state.channel
    return service


async def verify(request: Request) -> Response:
    """The platform's subscription check: echo `hub.challenge` if the token is ours."""
    params = request.query_params
    token = params.get("hub.verify_token", "")
    expected = _service(request).config.verify_token.value
    if params.get("hub.mode") != "subscribe" or not hmac.compare_digest(
        token.encode(), expected.encode()
    ):
        return problem(
            403,
            "verification_failed",
            "hub.mode must be `subscribe` and hub.verify_token the configured token.",
        )
    return PlainTextResponse(params.get("hub.challenge", ""))


async def receive(request: Request) -> Response:
    """A delivery, counted by the status it is answered with and timed to its answer."""
    started = time.perf_counter()
    response = await _receive(request)
    metrics = _service(request).metrics
    metrics.deliveries.labels(str(response.status_code)).inc()
    metrics.ack_seconds.observe(time.perf_counter() - started)
    return response


async def _receive(request: Request) -> Response:
    service = _service(request)
    try:
        body = await read_body(request, MAX_BODY_BYTES)
    except BodyProblem as refused:
        return problem(refused.status, refused.code, refused.detail)
    secrets = sorted({t.app_secret.value for t in service.config.tenants})
    secret = signing_secret(body, request.headers.get(SIGNATURE_HEADER), secrets)
    if secret is None:
        logger.warning("rejected a webhook delivery with a missing or wrong signature")
        return problem(
            401,
            "invalid_signature",
            f"{SIGNATURE_HEADER} must be sha256=<HMAC-SHA256 of the body with the app secret>.",
        )
    try:
        delivery = read_delivery(parse_json(body, "malformed_payload"))
    except BodyProblem as refused:
        return problem(refused.status, refused.code, refused.detail)
    except PayloadError as exc:
        return problem(400, "malformed_payload", str(exc))
    if delivery.rejected and not delivery.messages:
        return problem(400, "malformed_payload", delivery.rejected[0])
    if delivery.rejected:  # the others go on; redelivering would not mend these
        logger.warning(
            "dropped %d malformed message(s) of a delivery: %s",
            len(delivery.rejected),
            mask_all("; ".join(delivery.rejected)),
        )
    messages = delivery.messages
    acceptance = await service.accept(messages, secret)
    if acceptance.failed:
        return problem(
            503,
            "store_unavailable",
            f"{acceptance.failed} of {len(messages)} message(s) could not be stored "
            f"({acceptance.stored} stored, {acceptance.duplicates} already stored); "
            "redeliver later.",
            headers={"Retry-After": "5"},
        )
    return JSONResponse(
        {
            "stored": acceptance.stored,
            "duplicates": acceptance.duplicates,
            "ignored": acceptance.ignored,
            "rejected": len(delivery.rejected),
        }
    )


ROUTES = [
    Route("/webhook", verify, methods=["GET"]),
    Route("/webhook", receive, methods=["POST"]),
]
