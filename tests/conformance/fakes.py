"""Fake billing APIs for the kit's unit tests: they answer `ApiSession.send` without a server.

`CannedSession` answers from a table of paths, to drive discovery into each of its errors;
`ExampleApi` implements any contract with that contract's own examples, so a test can run
the kit against an altered contract that no simulator serves.
"""

from __future__ import annotations

import json
from typing import Any

from billing_toolkit.conformance.calls import Call
from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.contract.operations import Operation

# The identifiers of the contract's own examples (what `ExampleApi` answers with).
ACCOUNT = "1000004821"
INVOICE = "INV-2026-004281"
PHONE = "+584121234567"


def json_reply(call: Call, status: int, body: Any) -> Exchange:
    """The exchange of `call` answered with `status` and a JSON body."""
    headers = {"Content-Type": "application/json"}
    url = f"http://api.test{call.path}"
    return Exchange(call.method, url, {}, None, status, headers, json.dumps(body).encode())


def problem_reply(call: Call, status: int, code: str) -> Exchange:
    """The exchange of `call` answered with a problem+json of `status` and `code`."""
    body = {"type": f"https://billing.example.com/problems/{code}", "title": code}
    headers = {"Content-Type": "application/problem+json"}
    url = f"http://api.test{call.path}"
    payload = json.dumps({**body, "status": status, "code": code}).encode()
    return Exchange(call.method, url, {}, None, status, headers, payload)


def raw_reply(call: Call, status: int, media_type: str, body: bytes) -> Exchange:
    """The exchange of `call` answered with any status, media type and body."""
    url = f"http://api.test{call.path}"
    return Exchange(call.method, url, {}, None, status, {"Content-Type": media_type}, body)


def success_example(facts: ContractFacts, operation: Operation | str) -> Any:
    """The contract's first example of an operation's success body."""
    found = facts.contract.operations[operation] if isinstance(operation, str) else operation
    examples = found.responses[found.success_status].examples["application/json"]
    return next(iter(examples.values()))


class CannedSession:
    """Answers requests from a path → JSON body table (a not_found problem for anything else)."""

    def __init__(self, answers: dict[str, Any]) -> None:
        self.answers = answers

    def send(self, call: Call, **_: Any) -> Exchange:
        body = self.answers.get(call.path)
        if body is None:
            return problem_reply(call, 404, "not_found")
        return json_reply(call, 200, body)


class ForeignSession:
    """Something that is not the billing API: answers every request with one canned reply."""

    def __init__(self, status: int, media_type: str, body: bytes) -> None:
        self.reply = (status, media_type, body)
        self.sent: list[Call] = []

    def send(self, call: Call, **_: Any) -> Exchange:
        self.sent.append(call)
        return raw_reply(call, *self.reply)


class ExampleApi:
    """A fake implementation of `facts` that answers each documented request with the
    contract's own example of its success (404 otherwise) and keeps what it was sent."""

    def __init__(self, facts: ContractFacts) -> None:
        self.facts = facts
        self.sent: list[Call] = []

    def send(self, call: Call, **_: Any) -> Exchange:
        self.sent.append(call)
        operation = self.facts.matcher.operation_for(call.method, call.path)
        if operation is None:
            return json_reply(call, 404, None)
        return json_reply(call, operation.success_status, success_example(self.facts, operation))
