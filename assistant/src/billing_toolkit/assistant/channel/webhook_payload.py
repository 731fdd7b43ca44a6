"""Reading a WhatsApp Cloud API webhook delivery: the subscribers' messages in it.

A delivery holds entries, each with changes; a `messages` change names the operator's number
it arrived at (`metadata.phone_number_id`) and lists messages and/or delivery statuses. Only
messages matter here; statuses (sent, delivered, read) are acknowledged and dropped. A message
of a type other than `text` is kept with its type and no text, so the service can answer "text
only". The payload is read only after its signature was verified.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from billing_toolkit.assistant.text.identifiers import normalize_phone

TEXT = "text"


class PayloadError(ValueError):
    """The delivery is not shaped like a WhatsApp webhook; the message says where."""


@dataclass(frozen=True, slots=True)
class IncomingMessage:
    phone_number_id: str
    """The operator's WhatsApp number id the message was sent to: it names the tenant."""
    message_id: str
    phone: str
    """The subscriber, in E.164."""
    kind: str
    text: str | None


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise PayloadError(f"{where} must be an object")
    return value


def _list(container: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = container.get(key, [])
    if not isinstance(value, list):
        raise PayloadError(f"{where}.{key} must be an array")
    return value


def _string(container: Mapping[str, Any], key: str, where: str) -> str:
    value = container.get(key)
    if not isinstance(value, str) or not value:
        raise PayloadError(f"{where}.{key} must be a non-empty string")
    return value


def _message(raw: Any, phone_number_id: str, where: str) -> IncomingMessage:
    message = _mapping(raw, where)
    sender = _string(message, "from", where)
    phone = normalize_phone("+" + sender.lstrip("+"))
    if phone is None:
        raise PayloadError(f"{where}.from is not a phone number")
    kind = _string(message, "type", where)
    text = None
    if kind == TEXT:
        text = _string(_mapping(message.get("text"), f"{where}.text"), "body", f"{where}.text")
    return IncomingMessage(phone_number_id, _string(message, "id", where), phone, kind, text)


@dataclass(frozen=True, slots=True)
class Delivery:
    """A delivery read message by message: the messages that can be processed, and where and
    why each one that cannot was refused. One malformed message (a sender that is no phone
    number, a missing id) never holds back the others of the same delivery."""

    messages: list[IncomingMessage]
    rejected: list[str]


def read_delivery(payload: Any) -> Delivery:
    """Every subscriber message of a delivery, in delivery order, each read on its own.

    Raises PayloadError when the delivery itself is not a WhatsApp webhook (its envelope:
    entries, changes, metadata); a malformed message is only listed in `rejected`.
    """
    body = _mapping(payload, "payload")
    found: list[IncomingMessage] = []
    rejected: list[str] = []
    for e, entry in enumerate(_list(body, "entry", "payload")):
        where = f"entry[{e}]"
        for c, change in enumerate(_list(_mapping(entry, where), "changes", where)):
            at = f"{where}.changes[{c}]"
            value = _mapping(_mapping(change, at).get("value"), f"{at}.value")
            messages = _list(value, "messages", f"{at}.value")
            if not messages:
                continue
            metadata = _mapping(value.get("metadata"), f"{at}.value.metadata")
            number = _string(metadata, "phone_number_id", f"{at}.value.metadata")
            for m, raw in enumerate(messages):
                try:
                    found.append(_message(raw, number, f"{at}.value.messages[{m}]"))
                except PayloadError as refused:
                    rejected.append(str(refused))
    return Delivery(found, rejected)


def incoming_messages(payload: Any) -> list[IncomingMessage]:
    """Every subscriber message of a delivery; raises PayloadError on the first malformed
    one (for tools that build deliveries and want to know they built a good one)."""
    delivery = read_delivery(payload)
    if delivery.rejected:
        raise PayloadError(delivery.rejected[0])
    return delivery.messages
