"""`Prefer: code=NNN` / `Prefer: example=NAME`: the response QA asks for, as Prism answers.

The choice is read from what the operation documents, never invented: a status is one of
the operation's responses, a success answers that response's example, an error answers a
problem+json (its documented example when there is one, else the contract's problem for
that status). Anything the operation does not document is refused with a 400 that names
what it does document (bias: a test that asked for a 404 and silently got a 200 is worse
than a test that is told its request makes no sense).

Pure: a header value and an `Operation` in, a `Reply` out; the endpoint decides when this
runs (after authentication, before the body is read or billing runs, so a chosen answer
changes no state).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from billing_toolkit.contract.operations import Operation
from billing_toolkit.simulator.problems import PROBLEM, Reply, invalid, problem
from billing_toolkit.simulator.validation.messages import FieldError

FIELD = "header.Prefer"
FALLBACK_CODES = {
    400: "validation_error", 401: "unauthorized", 404: "not_found", 409: "idempotency_conflict",
    413: "validation_error", 422: "validation_error", 429: "rate_limited", 500: "internal",
    502: "unavailable", 503: "unavailable", 504: "unavailable",
}  # fmt: skip
"""The contract's problem code for a status whose response carries no example."""
HEADER_VALUES = {"Retry-After": "1", "WWW-Authenticate": 'Bearer realm="billing"'}
"""Values for the headers a documented response requires (X-Request-Id is the endpoint's)."""


@dataclass(frozen=True, slots=True)
class Preference:
    code: int | None = None
    example: str | None = None

    @property
    def chosen(self) -> bool:
        return self.code is not None or self.example is not None


class PreferRefused(ValueError):
    """A preference the operation cannot honour; `reply` is the 400 that says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.reply = invalid([FieldError(FIELD, message)])


def parse_prefer(values: list[str]) -> Preference:
    """`code` and `example` from every `Prefer` header (RFC 7240: comma-separated
    preferences, `;` parameters, optionally quoted values). Other preferences
    (`return=minimal`, `respond-async`) are not ours and are left alone."""
    found: dict[str, str] = {}
    for value in values:
        for item in value.split(","):
            name, _, text = item.split(";", 1)[0].partition("=")
            name = name.strip().lower()
            if name in ("code", "example"):
                if name in found:
                    raise PreferRefused(f"{name} is given twice")
                found[name] = text.strip().strip('"')
    code = found.get("code")
    if code is not None and not (len(code) == 3 and code.isdigit()):
        raise PreferRefused(f"code must be a three-digit HTTP status, got {code[:20]!r}")
    example = found.get("example")
    if example is not None and not example:
        raise PreferRefused("example must name an example")
    return Preference(None if code is None else int(code), example)


def _answerable(operation: Operation) -> list[int]:
    """Statuses a preference can choose: every error, and each success with an example."""
    return sorted(
        status
        for status, spec in operation.responses.items()
        if status >= 400 or status == 204 or any(spec.examples.values())
    )


def _examples(operation: Operation, status: int) -> dict[str, Any]:
    return {
        name: value
        for media in operation.responses[status].examples.values()
        for name, value in media.items()
    }


def _status_of_example(operation: Operation, name: str) -> int:
    for status in sorted(operation.responses):
        if name in _examples(operation, status):
            return status
    every = sorted({n for s in operation.responses for n in _examples(operation, s)})
    raise PreferRefused(
        f"{operation.operation_id} documents no example {name[:40]!r}"
        f" (examples: {', '.join(every) or 'none'})"
    )


def _headers(operation: Operation, status: int) -> dict[str, str]:
    required = operation.responses[status].headers
    return {name: HEADER_VALUES[name] for name, (needed, _) in required.items()
            if needed and name in HEADER_VALUES}  # fmt: skip


def preferred_reply(operation: Operation, preference: Preference) -> Reply:
    """The documented response `preference` chooses; `PreferRefused` when there is none."""
    status = preference.code
    if status is None:
        assert preference.example is not None
        status = _status_of_example(operation, preference.example)
    allowed = _answerable(operation)
    if status not in allowed:
        missing = "no example" if status in operation.responses else "no response"
        raise PreferRefused(
            f"{operation.operation_id} documents {missing} for code {status}"
            f" (codes: {', '.join(map(str, allowed))})"
        )
    examples = _examples(operation, status)
    name = preference.example or next(iter(examples), None)
    if preference.example is not None and preference.example not in examples:
        raise PreferRefused(
            f"{operation.operation_id} documents no example {preference.example[:40]!r}"
            f" for code {status}"
            f" (examples: {', '.join(examples) or 'none'})"
        )
    headers = _headers(operation, status)
    if status == 204:
        return Reply(204, None, headers)
    if name is None:  # an error without examples (a success has one: `_answerable`)
        code = FALLBACK_CODES.get(status, "internal")
        return problem(
            status, code, f"Answered as asked by Prefer: code={status}.", headers=headers
        )
    if status < 400:
        media = next(iter(operation.responses[status].content))
        return Reply(status, examples[name], headers, media)
    return Reply(status, dict(examples[name]), headers, PROBLEM)
