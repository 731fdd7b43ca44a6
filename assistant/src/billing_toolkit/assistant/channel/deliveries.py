"""Building a signed webhook delivery the way WhatsApp does, to try the service by hand.

    billing-assistant webhook-send --from +584121234567 "¿cuánto debo?" \
        --phone-number-id 100000000000001 --secret-env FIBRANET_WHATSAPP_APP_SECRET

posts one text message to the service's webhook, signed with the app secret read from the
named environment variable, exactly as the platform would.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any


def text_delivery(
    phone_number_id: str,
    phone: str,
    text: str,
    *,
    message_id: str | None = None,
    timestamp: int | None = None,
) -> bytes:
    """The raw body of a delivery of one text message from `phone` to the operator's number."""
    sender = phone.lstrip("+")
    value: dict[str, Any] = {
        "messaging_product": "whatsapp",
        "metadata": {"display_phone_number": phone_number_id, "phone_number_id": phone_number_id},
        "contacts": [{"profile": {"name": sender}, "wa_id": sender}],
        "messages": [
            {
                "from": sender,
                "id": message_id or f"wamid.{uuid.uuid4().hex}",
                "timestamp": str(timestamp or int(time.time())),
                "type": "text",
                "text": {"body": text},
            }
        ],
    }
    payload = {
        "object": "whatsapp_business_account",
        "entry": [{"id": phone_number_id, "changes": [{"field": "messages", "value": value}]}],
    }
    return json.dumps(payload, ensure_ascii=False).encode()
