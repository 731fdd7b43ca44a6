"""The rules that compare one operation of the old contract with the same operation of the new:
its parameters, its request body, its statuses and media types, its security.

Severity choices (oasdiff's classification, with the deviations said where they are):
a removed parameter is an `error` (oasdiff: warning) because the issue counts it as breaking
and a filter that silently stops filtering changes the answer; a removed success status or a
removed media type is an `error`; a removed error status is a `warning` (clients' handlers
for it go dead, nothing they send breaks). A *new* error status on an existing operation
(a 413, a 422) is `info`: HTTP clients must already handle any 4xx/5xx, and the body is the
same problem+json; a new success status is a `warning`, since a client that only knows the
documented one may misread it.
"""

from __future__ import annotations

from collections.abc import Iterator

from billing_toolkit.conformance.diff.changes import Hit, Rule, Severity
from billing_toolkit.conformance.diff.schema_view import same_shape
from billing_toolkit.conformance.diff.sites import parameter_site, parameters_by_key
from billing_toolkit.contract.operations import Operation, Parameter

SUCCESS_BELOW = 400


def _removed_parameters(old: Operation, new: Operation) -> Iterator[Parameter]:
    after = parameters_by_key(new)
    for key, parameter in parameters_by_key(old).items():
        if key not in after:
            yield parameter


def parameter_removed(old: Operation, new: Operation) -> Iterator[Hit]:
    added = [p for k, p in parameters_by_key(new).items() if k not in parameters_by_key(old)]
    for parameter in _removed_parameters(old, new):
        twins = [
            p.name
            for p in added
            if p.location == parameter.location and same_shape(p.schema, parameter.schema)
        ]
        hint = f" (renamed to `{twins[0]}`?)" if len(twins) == 1 else ""
        yield Hit(parameter_site(parameter), f"parameter `{parameter.name}` removed{hint}")


def _added_parameters(old: Operation, new: Operation, *, required: bool) -> Iterator[Parameter]:
    before = parameters_by_key(old)
    for key, parameter in parameters_by_key(new).items():
        if key not in before and parameter.required == required:
            yield parameter


def required_parameter_added(old: Operation, new: Operation) -> Iterator[Hit]:
    for parameter in _added_parameters(old, new, required=True):
        yield Hit(parameter_site(parameter), f"required parameter `{parameter.name}` added")


def optional_parameter_added(old: Operation, new: Operation) -> Iterator[Hit]:
    for parameter in _added_parameters(old, new, required=False):
        yield Hit(parameter_site(parameter), f"optional parameter `{parameter.name}` added")


def parameter_became_required(old: Operation, new: Operation) -> Iterator[Hit]:
    before = parameters_by_key(old)
    for key, parameter in parameters_by_key(new).items():
        if key in before and parameter.required and not before[key].required:
            yield Hit(parameter_site(parameter), f"parameter `{parameter.name}` became required")


def body_became_required(old: Operation, new: Operation) -> Iterator[Hit]:
    if new.body_required and not old.body_required:
        yield Hit("body", "a request body is now required")


def request_media_type_changed(old: Operation, new: Operation) -> Iterator[Hit]:
    if old.body_media is not None and new.body_media != old.body_media:
        yield Hit("body", f"request media type {old.body_media} → {new.body_media or 'none'}")


def _statuses(operation: Operation, *, success: bool) -> set[int]:
    return {status for status in operation.statuses if (status < SUCCESS_BELOW) == success}


def _status_hits(statuses: set[int], verb: str) -> Iterator[Hit]:
    for status in sorted(statuses):
        yield Hit(f"response {status}", f"status {status} {verb}")


def success_status_removed(old: Operation, new: Operation) -> Iterator[Hit]:
    yield from _status_hits(_statuses(old, success=True) - new.statuses, "removed")


def error_status_removed(old: Operation, new: Operation) -> Iterator[Hit]:
    yield from _status_hits(_statuses(old, success=False) - new.statuses, "removed")


def success_status_added(old: Operation, new: Operation) -> Iterator[Hit]:
    yield from _status_hits(_statuses(new, success=True) - old.statuses, "added")


def error_status_added(old: Operation, new: Operation) -> Iterator[Hit]:
    yield from _status_hits(_statuses(new, success=False) - old.statuses, "added")


def response_media_type_removed(old: Operation, new: Operation) -> Iterator[Hit]:
    for status, response in old.responses.items():
        current = new.responses.get(status)
        if current is None:
            continue
        for media in response.content:
            if media not in current.content:
                yield Hit(f"response {status}", f"media type {media} removed")


def required_header_removed(old: Operation, new: Operation) -> Iterator[Hit]:
    for status, response in old.responses.items():
        current = new.responses.get(status)
        if current is None:
            continue
        kept = {name.lower(): required for name, (required, _) in current.headers.items()}
        for name, (required, _) in response.headers.items():
            if required and not kept.get(name.lower(), False):
                yield Hit(
                    f"response {status} header {name}",
                    f"required header {name} removed or made optional",
                )


def auth_added(old: Operation, new: Operation) -> Iterator[Hit]:
    if new.requires_auth and not old.requires_auth:
        yield Hit("security", "the operation now requires an API key")


def auth_removed(old: Operation, new: Operation) -> Iterator[Hit]:
    if old.requires_auth and not new.requires_auth:
        yield Hit("security", "the operation no longer requires an API key")


ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

OPERATION_RULES: tuple[Rule[Operation], ...] = (
    Rule("request-parameter-removed", "removed", ERROR,
         "A parameter was removed (or renamed).", parameter_removed),
    Rule("request-required-parameter-added", "became-required", ERROR,
         "A new parameter is required: existing clients do not send it.",
         required_parameter_added),
    Rule("request-parameter-became-required", "became-required", ERROR,
         "An optional parameter became required.", parameter_became_required),
    Rule("request-optional-parameter-added", "added", INFO,
         "A new optional parameter.", optional_parameter_added),
    Rule("request-body-became-required", "became-required", ERROR,
         "The request body became required.", body_became_required),
    Rule("request-media-type-changed", "media-type-removed", ERROR,
         "The request body's media type changed: clients send the old one.",
         request_media_type_changed),
    Rule("response-success-status-removed", "status-removed", ERROR,
         "A success (1xx-3xx) status was removed.", success_status_removed),
    Rule("response-error-status-removed", "status-removed", WARNING,
         "An error status was removed; client handlers for it go dead.", error_status_removed),
    Rule("response-success-status-added", "status-added", WARNING,
         "A new success status clients may not expect.", success_status_added),
    Rule("response-error-status-added", "status-added", INFO,
         "A new error status (4xx/5xx) on an existing operation.", error_status_added),
    Rule("response-media-type-removed", "media-type-removed", ERROR,
         "A response media type was removed.", response_media_type_removed),
    Rule("response-required-header-removed", "removed", ERROR,
         "A required response header was removed or made optional.", required_header_removed),
    Rule("security-added", "auth-added", ERROR,
         "An operation that needed no API key now requires one.", auth_added),
    Rule("security-removed", "auth-removed", INFO,
         "An operation no longer requires an API key.", auth_removed),
)  # fmt: skip
