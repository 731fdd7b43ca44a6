"""The reference engine: openapi-core, built once at start-up, spec validation skipped.

The spec itself is validated by the test suite (openapi-spec-validator), so the per-call
spec check is turned off; the `OpenAPI` object and its validators are built once and
reused (openapi-core#714). It is still slow (milliseconds per call, see
`benchmarks/simulator_throughput.py`), which is why `CompiledValidator` serves by default;
this engine is the one the tests hold the simulator and the fast engine to.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from datetime import date
from typing import Any

from openapi_core import Config, OpenAPI
from openapi_core.datatypes import RequestParameters
from openapi_core.validation.request import exceptions as request_errors
from werkzeug.datastructures import Headers, ImmutableMultiDict

from billing_toolkit.contract.operations import Contract
from billing_toolkit.simulator.validation.json_body import parse_json_body
from billing_toolkit.simulator.validation.messages import (
    ContractViolation,
    FieldError,
    IncomingRequest,
    OutgoingResponse,
    RequestRejected,
    ValidatedRequest,
    integer_problems,
    repeated_parameters,
)

_REQUIRED = re.compile(r"^'(?P<name>.+)' is a required property$")
_UNEXPECTED = re.compile(r"'([^']+)'")
_END_ANCHOR = re.compile(r"(?<!\\)\$")
"""An unescaped `$`: in JSON Schema (ECMA-262) it matches only at the very end, in
Python's `re` also before a final newline (an amount `1.00` plus a newline would pass)."""


def _ecma_anchors(document: Any) -> Any:
    """A copy of the contract whose `pattern`s end where JSON Schema means (Python's
    end-of-string anchor)."""
    if isinstance(document, dict):
        return {
            key: _END_ANCHOR.sub(r"\\Z", value)
            if key == "pattern" and isinstance(value, str)
            else _ecma_anchors(value)
            for key, value in document.items()
        }
    if isinstance(document, list):
        return [_ecma_anchors(item) for item in document]
    return copy.copy(document)


class _Request:
    """openapi-core's request protocol over an `IncomingRequest`."""

    host_url = "http://127.0.0.1:8080"

    def __init__(self, request: IncomingRequest, path_pattern: str) -> None:
        self.method = request.method.lower()
        self.path = request.path
        self.path_pattern = path_pattern
        self.content_type = request.content_type
        self.body = request.body or None
        self.parameters = RequestParameters(
            path=dict(request.path_params),
            query=ImmutableMultiDict(request.query),
            header=Headers(list(request.headers.items())),
            cookie=ImmutableMultiDict(),
        )


class _Response:
    def __init__(
        self, status: int, headers: Mapping[str, str], content_type: str, body: bytes
    ) -> None:
        self.status_code = status
        self.headers = Headers(list(headers.items()))
        self.content_type = content_type
        self.data = body


def _schema_errors(cause: BaseException | None, prefix: str) -> list[FieldError]:
    errors = []
    for error in getattr(cause, "schema_errors", None) or []:
        path = [str(part) for part in error.path]
        message = error.message.replace("\\\\Z", "$")  # the pattern as the contract writes it
        if error.validator == "required" and (match := _REQUIRED.match(message)):
            path.append(match["name"])
            message = "is required"
        elif error.validator == "additionalProperties":
            path.extend(_UNEXPECTED.findall(message.split("(", 1)[-1]))
            message = "is not allowed"
        errors.append(FieldError(".".join([prefix, *path]), message))
    return errors


def _field_errors(error: Exception) -> list[FieldError]:
    """openapi-core's exceptions → the contract's `FieldError`s."""
    if isinstance(error, request_errors.ParameterValidationError):
        field = f"{error.location}.{error.name}"
        if isinstance(error, request_errors.MissingParameterError):
            return [FieldError(field, "is required")]
        found = _schema_errors(error.__cause__, field)
        return [FieldError(field, e.message) for e in found] or [
            FieldError(field, str(error.__cause__ or error))
        ]
    if isinstance(error, request_errors.MissingRequestBodyError):
        return [FieldError("body", "is required")]
    if isinstance(error, request_errors.RequestBodyValidationError):
        found = _schema_errors(error.__cause__, "body")
        return found or [FieldError("body", "is not valid JSON")]
    if isinstance(error, request_errors.SecurityValidationError):
        return [FieldError("header.Authorization", "a bearer API key is required")]
    return [FieldError("request", str(error))]


def _text(raw: bytes | str) -> str:
    """Text bodies (YAML scenarios) reach the schema as the string they are."""
    return raw.decode() if isinstance(raw, bytes) else raw


def _plain(values: Mapping[str, Any]) -> dict[str, Any]:
    """Dates unmarshalled by openapi-core back to the ISO strings the fast engine gives."""
    return {
        key: value.isoformat() if isinstance(value, date) else value
        for key, value in values.items()
    }


class OpenApiCoreValidator:
    name = "openapi-core"

    def __init__(self, contract: Contract) -> None:
        self._contract = contract
        config = Config(
            # None skips the spec check (`OpenAPI.check_spec`); the stubs leave None out
            spec_validator_cls=None,  # pyright: ignore[reportArgumentType]
            extra_media_type_deserializers={
                "application/problem+json": json.loads,
                "application/yaml": _text,
            },
        )
        self._api = OpenAPI.from_dict(_ecma_anchors(contract.document), config=config)

    def validate_request(self, operation_id: str, request: IncomingRequest) -> ValidatedRequest:
        operation = self._contract.operations[operation_id]
        media = operation.body_media if operation.body_schema is not None else None
        body, problem = self._body_problem(media, request)
        errors = repeated_parameters(request)
        repeated = {e.field for e in errors}
        errors += [
            e for e in integer_problems(operation.parameters, request) if e.field not in repeated
        ]
        if problem is not None:
            errors.append(problem)
        # a body the gates refused never reaches openapi-core (its parser would recurse)
        seen = request if problem is None else request._replace(body=b"")
        result = self._api.unmarshal_request(_Request(seen, operation.path.template))
        decided = {e.field for e in errors}
        errors.extend(
            found
            for error in result.errors
            for found in _field_errors(error)
            # what the gates above decided is not said again in openapi-core's words
            if found.field not in decided
            and not (problem is not None and found.field.split(".")[0] in ("body", "request"))
        )
        if errors:
            raise RequestRejected(errors)
        parameters = result.parameters
        return ValidatedRequest(
            path=_plain(parameters.path),
            query=_plain(parameters.query),
            header=_plain(parameters.header),
            body=body,
        )

    @staticmethod
    def _body_problem(media: str | None, request: IncomingRequest) -> tuple[Any, FieldError | None]:
        """The body through the same gates as the fast engine: the declared media type
        (openapi-core would guess one when it is missing), then the strict JSON gate."""
        if media is None or not request.body:
            return None, None
        if request.content_type.split(";")[0].strip().lower() != media:
            return None, FieldError("header.Content-Type", f"must be {media}")
        if media == "application/json":
            return parse_json_body(request.body)
        try:
            return _text(request.body), None
        except UnicodeDecodeError:
            return None, FieldError("body", "is not valid UTF-8")

    def validate_response(
        self, operation_id: str, request: IncomingRequest, response: OutgoingResponse
    ) -> None:
        operation = self._contract.operations[operation_id]
        status, headers, content_type, body, _ = response
        result = self._api.unmarshal_response(
            _Request(request, operation.path.template),
            _Response(status, headers, content_type, body),
        )
        if result.errors:
            raise ContractViolation(
                operation_id,
                status,
                [f"{type(e).__name__}: {e.__cause__ or e}" for e in result.errors],
            )
