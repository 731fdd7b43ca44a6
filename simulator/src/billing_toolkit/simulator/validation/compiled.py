"""The fast engine: the contract's schemas compiled once into jsonschema-rs validators.

openapi-core resolves schema paths and builds validators on every call (about 3 ms per
request and 3–9 ms per response here), which caps the simulator far below the benchmark
target. This engine does the same checks — parameter casting and schemas, required
parameters, JSON body schema, documented status, media type, required headers, body
schema — with validators built at start-up. The tests run every handler under both
engines and a differential test holds them to the same verdicts; openapi-core stays the
reference (`validation_engine="openapi-core"`).
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema_rs

from billing_toolkit.contract.operations import Contract, Operation, Parameter
from billing_toolkit.simulator.validation.json_body import parse_json_body
from billing_toolkit.simulator.validation.messages import (
    ContractViolation,
    FieldError,
    IncomingRequest,
    OutgoingResponse,
    RequestRejected,
    ValidatedRequest,
    cast_parameter,
    repeated_parameters,
)


def _compile(schema: dict[str, Any]) -> jsonschema_rs.Validator:
    return jsonschema_rs.validator_for(schema, validate_formats=True)


def _schema_messages(
    validator: jsonschema_rs.Validator, value: Any, prefix: str
) -> list[FieldError]:
    """One FieldError per schema error, the field named down to the offending property.

    Most values are valid: `is_valid` answers that without building error objects."""
    if validator.is_valid(value):
        return []
    errors = []
    for error in validator.iter_errors(value):
        path = [str(part) for part in error.instance_path]
        kind = error.kind
        if isinstance(kind, jsonschema_rs.ValidationErrorKind.Required):
            path.append(str(kind.property))
            message = "is required"
        elif isinstance(kind, jsonschema_rs.ValidationErrorKind.AdditionalProperties):
            path.extend(str(name) for name in kind.unexpected)
            message = "is not allowed"
        else:
            message = error.message
        errors.append(FieldError(".".join([prefix, *path]), message))
    return errors


class _CompiledOperation:
    """Everything the checks need, worked out once: validators, field names, header keys."""

    def __init__(self, operation: Operation) -> None:
        self.operation = operation
        self.parameters = [
            (p, _compile(p.schema), f"{p.location}.{p.name}") for p in operation.parameters
        ]
        self.body = _compile(operation.body_schema) if operation.body_schema is not None else None
        self.responses = {
            status: (
                {media: _compile(schema) for media, schema in spec.content.items()},
                [
                    (name.lower(), Parameter(name, "header", required, schema), _compile(schema))
                    for name, (required, schema) in spec.headers.items()
                ],
            )
            for status, spec in operation.responses.items()
        }


class CompiledValidator:
    name = "compiled"

    def __init__(self, contract: Contract) -> None:
        self._operations = {key: _CompiledOperation(op) for key, op in contract.operations.items()}

    def validate_request(self, operation_id: str, request: IncomingRequest) -> ValidatedRequest:
        compiled = self._operations[operation_id]
        accepted: dict[str, dict[str, Any]] = {"path": {}, "query": {}, "header": {}}
        errors = repeated_parameters(request)
        repeated = {e.field for e in errors}
        sources = {"path": request.path_params, "header": request.headers}
        for parameter, validator, field in compiled.parameters:
            if field in repeated:
                continue
            if parameter.location == "query":
                raw = next((value for name, value in request.query if name == parameter.name), None)
            else:
                raw = sources[parameter.location].get(parameter.name)
            target = accepted[parameter.location]
            if raw is None:
                if parameter.required:
                    errors.append(FieldError(field, "is required"))
                elif "default" in parameter.schema:
                    target[parameter.name] = parameter.schema["default"]
                continue
            value, problem = cast_parameter(parameter, raw)
            if problem is not None:
                errors.append(FieldError(field, problem))
                continue
            if validator.is_valid(value):
                target[parameter.name] = value
            else:
                errors.extend(
                    FieldError(field, e.message) for e in _schema_messages(validator, value, field)
                )
        body = self._body(compiled, request, errors)
        if errors:
            raise RequestRejected(errors)
        return ValidatedRequest(accepted["path"], accepted["query"], accepted["header"], body)

    def _body(
        self, compiled: _CompiledOperation, request: IncomingRequest, errors: list[FieldError]
    ) -> Any:
        if compiled.body is None:
            return None
        if not request.body:
            if compiled.operation.body_required:
                errors.append(FieldError("body", "is required"))
            return None
        media = compiled.operation.body_media
        if request.content_type.split(";")[0].strip().lower() != media:
            errors.append(FieldError("header.Content-Type", f"must be {media}"))
            return None
        if media == "application/json":
            body, problem = parse_json_body(request.body)
        else:
            try:
                body, problem = request.body.decode(), None
            except UnicodeDecodeError:
                body, problem = None, FieldError("body", "is not valid UTF-8")
        if problem is not None:
            errors.append(problem)
            return None
        errors.extend(_schema_messages(compiled.body, body, "body"))
        return body

    def validate_response(
        self, operation_id: str, request: IncomingRequest, response: OutgoingResponse
    ) -> None:
        status, headers, content_type, body, parsed = response
        compiled = self._operations[operation_id]
        if status not in compiled.responses:
            raise ContractViolation(operation_id, status, [f"status {status} is not documented"])
        media_validators, header_specs = compiled.responses[status]
        problems = []
        lowered = {name.lower(): value for name, value in headers.items()}
        for key, spec, validator in header_specs:
            if key not in lowered:
                if spec.required:
                    problems.append(f"header {spec.name} is missing")
                continue
            value, problem = cast_parameter(spec, lowered[key])
            if problem is not None:
                problems.append(f"header {spec.name}: {problem}")
                continue
            if not validator.is_valid(value):
                problems.extend(
                    f"header {spec.name}: {e.message}" for e in validator.iter_errors(value)
                )
        media = content_type.split(";")[0].strip()
        if media_validators:
            validator = media_validators.get(media)
            if validator is None:
                problems.append(f"media type {media!r} is not documented")
            else:
                if parsed is None:
                    try:
                        parsed = json.loads(body)
                    except ValueError:
                        problems.append("body is not valid JSON")
                if parsed is not None and not validator.is_valid(parsed):
                    problems.extend(
                        e.field + ": " + e.message
                        for e in _schema_messages(validator, parsed, "body")
                    )
        if problems:
            raise ContractViolation(operation_id, status, problems)
