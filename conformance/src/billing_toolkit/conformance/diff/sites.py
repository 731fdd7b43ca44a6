"""Where an operation carries schemas, and which place of the old version is which of the new.

A parameter is the same parameter when its location and name are (header names compared
case-insensitively, as HTTP does); a path parameter is the same when it sits in the same
segment, so renaming `{id}` to `{accountNumber}` in a template is no change on the wire.
Responses pair by status and media type. Each site is judged in its direction: parameters
and the body as requests, response bodies and headers as responses.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

from billing_toolkit.contract.operations import Operation, Parameter

Direction = Literal["request", "response"]
ParameterKey = tuple[str, str]


def parameter_key(operation: Operation, parameter: Parameter) -> ParameterKey:
    if parameter.location == "path" and parameter.name in operation.path.names:
        return "path", f"#{operation.path.names.index(parameter.name)}"
    if parameter.location == "header":
        return "header", parameter.name.lower()
    return parameter.location, parameter.name


def parameters_by_key(operation: Operation) -> dict[ParameterKey, Parameter]:
    return {parameter_key(operation, parameter): parameter for parameter in operation.parameters}


def parameter_site(parameter: Parameter) -> str:
    return f"{parameter.location}.{parameter.name}"


def schema_sites(
    old: Operation, new: Operation
) -> Iterator[tuple[str, Direction, dict[str, Any], dict[str, Any]]]:
    """(site, direction, old schema, new schema) for every schema both versions carry."""
    before = parameters_by_key(old)
    for key, parameter in parameters_by_key(new).items():
        if key in before:
            yield parameter_site(parameter), "request", before[key].schema, parameter.schema
    same_body = old.body_media == new.body_media
    if old.body_schema is not None and new.body_schema is not None and same_body:
        yield "body", "request", old.body_schema, new.body_schema
    for status, response in new.responses.items():
        previous = old.responses.get(status)
        if previous is None:
            continue
        for media, schema in response.content.items():
            if media in previous.content:
                yield f"response {status} {media}", "response", previous.content[media], schema
        old_headers = {name.lower(): spec for name, spec in previous.headers.items()}
        for name, (_, schema) in response.headers.items():
            if name.lower() in old_headers:
                yield (
                    f"response {status} header {name}",
                    "response",
                    old_headers[name.lower()][1],
                    schema,
                )
