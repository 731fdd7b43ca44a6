"""The reference engine: openapi-core, built once at start-up, spec validation skipped.

The spec itself is validated by the test suite (openapi-spec-validator), so the per-call
spec check is turned off; the `OpenAPI` object and its validators are built once and
reused (openapi-core#714). It is still slow (milliseconds per call, see
`benchmarks/simulator_throughput.py`), which is why `CompiledValidator` serves by default;
this engine is the one the tests hold the simulator and the fast engine to.
"""

from __future__ import annotations

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
from billing_toolkit.simulator.validation.messages import (
    ContractViolation,
    FieldError,
    IncomingRequest,
    RequestRejected,
    ValidatedRequest,
)

_REQUIRED = re.compile(r"^'(?P<name>.+)' is a required property$")
_UNEXPECTED = re.compile(r"'([^']+)'")


class _Request:
    """openapi-core's request protocol over an `IncomingRequest`."""

    host_url = "http://127.0.0.1:8080"

    def __init__(self, request: IncomingRequest, path_pattern: str) -> None:
        self.method = request.method.lower()
        self.path = request.path
        self.path_pattern = path_pattern
        self.content_type = request.content_type or "application/json"
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
        message = error.message
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
            spec_validator_cls=None,
            extra_media_type_deserializers={
                "application/problem+json": json.loads,
                "application/yaml": _text,
            },
        )
        self._api = OpenAPI.from_dict(contract.document, config=config)

    def validate_request(self, operation_id: str, request: IncomingRequest) -> ValidatedRequest:
        operation = self._contract.operations[operation_id]
        result = self._api.unmarshal_request(_Request(request, operation.path.template))
        if result.errors:
            raise RequestRejected([e for error in result.errors for e in _field_errors(error)])
        parameters = result.parameters
        body = None
        if operation.body_schema is not None and request.body:
            body = (
                json.loads(request.body)
                if operation.body_media == "application/json"
                else _text(request.body)
            )
        return ValidatedRequest(
            path=_plain(parameters.path),
            query=_plain(parameters.query),
            header=_plain(parameters.header),
            body=body,
        )

    def validate_response(
        self,
        operation_id: str,
        request: IncomingRequest,
        status: int,
        headers: Mapping[str, str],
        content_type: str,
        body: bytes,
        parsed: Any = None,
    ) -> None:
        operation = self._contract.operations[operation_id]
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
