"""Who is writing: identity comes from the inbound phone, never from what the message claims.

1. A conversation that already proved its identity keeps it (`verified_account`).
2. Otherwise the billing system is asked who owns the phone: account data goes only to the
   phone registered on the account.
3. A phone it does not know gets no account data by default — a cédula is close to public in
   Venezuela, so quoting one proves nothing (the pipeline hands over for verification). Only
   a tenant that opted into two-factor self-service (`two_factor`) lets such a phone prove an
   identity, with an account number *and* a national ID in the message, both resolving by
   exact lookup to one and the same customer.

A lookup that fails for infrastructure reasons is an outage (escalate), never "not found": the
subscriber would be told their account does not exist because the API was down. A claim that
is malformed or matches nobody is "not found" without detail, so the reply cannot be used to
probe which accounts exist. Bias: when in doubt, not identified.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from billing_toolkit.assistant.store.model import Conversation
from billing_toolkit.assistant.text.identifiers import Identifier, IdentifierKind
from billing_toolkit.assistant.turn.ports import BillingCapabilities
from billing_toolkit.client.tool_result import ToolResult


class IdentityStatus(StrEnum):
    KNOWN_PHONE = "known_phone"
    VERIFIED = "verified"
    JUST_VERIFIED = "just_verified"
    UNKNOWN = "unknown"
    NOT_FOUND = "not_found"
    OUTAGE = "outage"


@dataclass(frozen=True, slots=True)
class Identity:
    """The outcome of identification; `lookups` are the calls made, in order."""

    status: IdentityStatus
    lookups: tuple[ToolResult, ...] = field(default_factory=tuple)

    @property
    def customer(self) -> Mapping[str, Any] | None:
        last = self.lookups[-1] if self.lookups else None
        return last.data if last is not None and last.ok else None

    @property
    def failure(self) -> ToolResult | None:
        return next((r for r in self.lookups if r.should_escalate), None)


_CLAIMS = {IdentifierKind.ACCOUNT, IdentifierKind.NATIONAL_ID}


def _verify_claims(
    capabilities: BillingCapabilities, claims: Sequence[Identifier], lookups: list[ToolResult]
) -> Identity:
    keys = [(claim.kind, claim.normalized) for claim in claims if claim.normalized is not None]
    if len(keys) != len(claims):
        return Identity(IdentityStatus.NOT_FOUND, tuple(lookups))
    accounts: set[str] = set()
    for kind, key in keys:
        result = (
            capabilities.customer_by_account(key)
            if kind is IdentifierKind.ACCOUNT
            else capabilities.customer_by_national_id(key)
        )
        lookups.append(result)
        if result.should_escalate:
            return Identity(IdentityStatus.OUTAGE, tuple(lookups))
        if not result.ok or not result.data:
            return Identity(IdentityStatus.NOT_FOUND, tuple(lookups))
        accounts.add(str(result.data.get("account_number")))
    status = IdentityStatus.JUST_VERIFIED if len(accounts) == 1 else IdentityStatus.NOT_FOUND
    return Identity(status, tuple(lookups))


def identify(
    capabilities: BillingCapabilities,
    phone: str,
    conversation: Conversation,
    identifiers: Sequence[Identifier],
    *,
    two_factor: bool = False,
) -> Identity:
    """Identify the writer of one message (see the module docstring for the order)."""
    lookups: list[ToolResult] = []
    if conversation.verified_account:
        result = capabilities.customer_by_account(conversation.verified_account)
        lookups.append(result)
        if result.should_escalate:
            return Identity(IdentityStatus.OUTAGE, tuple(lookups))
        if result.ok:
            return Identity(IdentityStatus.VERIFIED, tuple(lookups))
    result = capabilities.customer_by_phone(phone)
    lookups.append(result)
    if result.should_escalate:
        return Identity(IdentityStatus.OUTAGE, tuple(lookups))
    if result.ok:
        return Identity(IdentityStatus.KNOWN_PHONE, tuple(lookups))
    claims = [i for i in identifiers if i.kind in _CLAIMS]
    if not two_factor or {claim.kind for claim in claims} != _CLAIMS:
        return Identity(IdentityStatus.UNKNOWN, tuple(lookups))
    return _verify_claims(capabilities, claims, lookups)


_CUSTOMER_FIELD = {
    IdentifierKind.ACCOUNT: "account_number",
    IdentifierKind.NATIONAL_ID: "national_id",
    IdentifierKind.PHONE: "phone",
}


def claims_of_someone_else(
    identifiers: Sequence[Identifier], customer: Mapping[str, Any]
) -> list[Identifier]:
    """The account numbers, national IDs and phones in a message that are not `customer`'s.

    Identity came from the phone; a different account number in the message does not switch
    customers, it is a key that — for this customer — does not exist.
    """
    return [
        i
        for i in identifiers
        if i.kind in _CUSTOMER_FIELD and i.normalized != customer.get(_CUSTOMER_FIELD[i.kind])
    ]
