"""A stand-in for the Graph API's messages endpoint, for running the service without WhatsApp.

    billing-assistant fake-graph --port 9000      # then graph_api_url: http://127.0.0.1:9000/v21.0

It accepts `POST /{version}/{phone_number_id}/messages` with a bearer token, prints each text
to stdout and answers like the Cloud API (`{"messages": [{"id": "wamid.…"}]}`), so the whole
path — webhook, turn, reply, send — can be watched on a laptop or in docker compose.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route


def create_fake_graph_app(show: Callable[[str], None] = print) -> Starlette:
    ids = itertools.count(1)

    async def messages(request: Request) -> Response:
        if not request.headers.get("Authorization", "").startswith("Bearer "):
            return JSONResponse(
                {"error": {"message": "missing access token", "code": 190}}, status_code=401
            )
        try:
            body = json.loads(await request.body())
            to, text = str(body["to"]), str(body["text"]["body"])
        except ClientDisconnect:  # the sender died mid-request: nothing was sent
            return Response(status_code=499)
        except (ValueError, KeyError, TypeError):
            return JSONResponse(
                {"error": {"message": "expected a text message", "code": 100}}, status_code=400
            )
        show(f"→ +{to.lstrip('+')} (from {request.path_params['number']}): {text}")
        return JSONResponse(
            {
                "messaging_product": "whatsapp",
                "contacts": [{"input": to, "wa_id": to.lstrip("+")}],
                "messages": [{"id": f"wamid.FAKE{next(ids):010d}"}],
            }
        )

    return Starlette(routes=[Route("/{version}/{number}/messages", messages, methods=["POST"])])
