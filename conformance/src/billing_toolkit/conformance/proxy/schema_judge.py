"""The contract's schemas on one exchange: the request as the client sent it, the response as
the upstream answered it, with validators compiled once per contract (jsonschema-rs, the
engine the simulator validates with).

Rule ids of this module (the schema half of what the proxy judges):

- `operation.documented`: the request is one of the contract's operations;
- `schema.request`: its parameters and body are valid (the client's side of the contract);
- `status.documented`: the status is one the operation documents;
- `media.documented`: the response's media type is one documented for that status;
- `schema.response`: the body is valid against the documented schema (an undocumented
  property is a violation wherever the schema says `additionalProperties: false`).

Bias: report every problem found, never stop at the first, but at most `MAX_ERRORS` per
exchange so a huge wrong body cannot flood the log.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import jsonschema_rs

from billing_toolkit.conformance.contract_facts import ContractFacts
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.conformance.proxy.verdict import Judgement
from billing_toolkit.contract.operations import Operation, Parameter

MAX_ERRORS = 10
SCHEMA_RULES = (
    "operation.documented",
    "schema.request",
    "status.documented",
    "media.documented",
    "schema.response",
)
_INTEGER = re.compile(r"^-?\d+$")


def _compile(schema: dict[str, Any]) -> jsonschema_rs.Validator:
    return jsonschema_rs.validator_for(schema, validate_formats=True)


def _errors(validator: jsonschema_rs.Validator, value: Any, where: str) -> Iterator[str]:
    """`where/path: message` per schema error (an undocumented property named by name)."""
    if validator.is_valid(value):
        return
    for count, error in enumerate(validator.iter_errors(value)):
        if count == MAX_ERRORS:
            return
        at = "/".join([where, *(str(part) for part in error.instance_path)])
        kind = error.kind
        if isinstance(kind, jsonschema_rs.ValidationErrorKind.AdditionalProperties):
            yield f"{at}: undocumented propert{'y' if len(kind.unexpected) == 1 else 'ies'} " + (
                ", ".join(repr(name) for name in kind.unexpected)
            )
        else:
            yield f"{at}: {error.message}"


def _cast(parameter: Parameter, raw: str) -> tuple[Any, str | None]:
    """A query, path or header string as the schema's type (integers must be plain)."""
    if parameter.schema.get("type") == "integer":
        if not _INTEGER.match(raw):
            return raw, f"{raw!r} is not an integer"
        return int(raw), None
    return raw, None


@dataclass(frozen=True)
class _Compiled:
    operation: Operation
    parameters: tuple[tuple[Parameter, jsonschema_rs.Validator], ...]
    body: jsonschema_rs.Validator | None
    responses: dict[int, dict[str, jsonschema_rs.Validator]]


class SchemaJudge:
    """Every operation of `facts` compiled once; `judge` is then pure per exchange."""

    def __init__(self, facts: ContractFacts) -> None:
        self.facts = facts
        self._compiled = {
            operation.operation_id: _Compiled(
                operation=operation,
                parameters=tuple((p, _compile(p.schema)) for p in operation.parameters),
                body=_compile(operation.body_schema) if operation.body_schema else None,
                responses={
                    status: {media: _compile(schema) for media, schema in spec.content.items()}
                    for status, spec in operation.responses.items()
                },
            )
            for operation in facts.contract.operations.values()
        }

    def judge(self, index: int, exchange: Exchange, into: Judgement) -> None:
        into.exercised.add("operation.documented")
        found = self.facts.matcher.match(exchange.method, exchange.path)
        if found is None:
            into.add(
                index,
                "operation.documented",
                f"{exchange.describe()}: the contract documents no such operation",
            )
            return
        operation, path_params = found
        compiled = self._compiled[operation.operation_id]
        self._request(index, exchange, compiled, path_params, into)
        if exchange.status:
            self._response(index, exchange, compiled, into)

    def _request(
        self,
        index: int,
        exchange: Exchange,
        compiled: _Compiled,
        path_params: dict[str, str],
        into: Judgement,
    ) -> None:
        into.exercised.add("schema.request")
        query = parse_qsl(urlsplit(exchange.url).query, keep_blank_values=True)
        problems: list[str] = []
        for parameter, validator in compiled.parameters:
            where = f"{parameter.location}.{parameter.name}"
            raw = _raw_parameter(parameter, exchange, path_params, query)
            if raw is None:
                if parameter.required:
                    problems.append(f"{where}: is required")
                continue
            value, problem = _cast(parameter, raw)
            problems.extend(
                [f"{where}: {problem}"] if problem else _errors(validator, value, where)
            )
        if compiled.body is not None and exchange.request_body:
            try:
                body = json.loads(exchange.request_body)
            except (ValueError, UnicodeDecodeError):
                problems.append("body: is not valid JSON")
            else:
                problems.extend(_errors(compiled.body, body, "body"))
        elif compiled.body is not None and compiled.operation.body_required:
            problems.append("body: is required")
        for problem in problems[:MAX_ERRORS]:
            into.add(index, "schema.request", f"{exchange.method} {exchange.path}: {problem}")

    def _response(
        self, index: int, exchange: Exchange, compiled: _Compiled, into: Judgement
    ) -> None:
        into.exercised.add("status.documented")
        media_validators = compiled.responses.get(exchange.status)
        if media_validators is None:
            documented = ", ".join(str(s) for s in sorted(compiled.responses))
            into.add(
                index,
                "status.documented",
                f"{exchange.describe()}: {compiled.operation.operation_id} documents {documented}",
            )
            return
        if not media_validators:
            return
        into.exercised.add("media.documented")
        validator = media_validators.get(exchange.media_type)
        if validator is None:
            into.add(
                index,
                "media.documented",
                f"{exchange.answered()}; the contract answers "
                f"{' or '.join(sorted(media_validators))}",
            )
            return
        into.exercised.add("schema.response")
        if not exchange.is_json():
            into.add(index, "schema.response", f"{exchange.describe()}: the body is not JSON")
            return
        for problem in _errors(validator, exchange.json(), "body"):
            into.add(index, "schema.response", f"{exchange.describe()}: {problem}")


def _raw_parameter(
    parameter: Parameter,
    exchange: Exchange,
    path_params: dict[str, str],
    query: list[tuple[str, str]],
) -> str | None:
    if parameter.location == "path":
        return path_params.get(parameter.name)
    if parameter.location == "query":
        return next((value for name, value in query if name == parameter.name), None)
    if parameter.location == "header":
        return exchange.request_header(parameter.name)
    return None
