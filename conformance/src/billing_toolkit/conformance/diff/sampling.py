"""Whether a rewritten pattern or format accepts less, decided on sample values.

Two regular expressions cannot be compared in general, so a rewritten `pattern` used to be a
`warning` for a person. Sampling decides it instead: the values the old schema accepts (its
examples and enum, plus values generated from its pattern with hypothesis' `from_regex`,
bounded and derandomized, so the same documents always give the same report) are checked
under the new schema. One refused value proves the new schema accepts less, and is quoted;
none refused is taken as a loosening (bias: a sample, not a proof, so the message says what
was tried). Formats are sampled the same way, from a small table of valid values.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import jsonschema_rs
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

Node = dict[str, Any]
SAMPLES_PER_PATTERN = 60
SCALAR_KEYWORDS = (
    "type", "pattern", "format", "enum", "minLength", "maxLength",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
)  # fmt: skip
QUIET = (HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.large_base_example)
"""Sampling is not a test: a slow or filtered pattern still yields what it can."""
FORMAT_SAMPLES: dict[str, tuple[str, ...]] = {
    "date": ("2026-01-31", "2024-02-29", "1999-12-01"),
    "date-time": ("2026-01-31T12:00:00Z", "2026-01-31T12:00:00.5-04:00"),
    "email": ("ana@example.com", "j.perez+billing@correo.com.ve"),
    "uri": ("https://billing.example.com/problems/x", "urn:isbn:0451450523"),
    "uri-reference": ("/v1/customers/1000004821", "https://billing.example.com/x"),
    "uuid": ("1b4e28ba-2fa1-11d2-883f-0016d3cca427",),
}


@cache
def _from_pattern(pattern: str) -> tuple[str, ...]:
    """Up to `SAMPLES_PER_PATTERN` strings generated from `pattern`, the same every run."""
    found: list[str] = []

    @settings(
        max_examples=SAMPLES_PER_PATTERN,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=QUIET,
    )
    @given(st.from_regex(pattern, fullmatch=True))
    def collect(value: str) -> None:
        found.append(value)

    try:
        collect()
    except Exception:  # noqa: BLE001 - a pattern Python's re cannot read yields no samples
        return ()
    return tuple(dict.fromkeys(found))


def _scalar(node: Node) -> Node:
    return {key: node[key] for key in SCALAR_KEYWORDS if key in node}


def _candidates(node: Node) -> list[Any]:
    values: list[Any] = list(node.get("examples") or [])
    if "example" in node:
        values.append(node["example"])
    values += list(node.get("enum") or [])
    if isinstance(node.get("pattern"), str):
        values += _from_pattern(node["pattern"])
    values += FORMAT_SAMPLES.get(str(node.get("format")), ())
    for keyword in ("minimum", "maximum"):
        if isinstance(node.get(keyword), int | float):
            values.append(node[keyword])
    for keyword in ("minLength", "maxLength"):
        if isinstance(node.get(keyword), int) and "pattern" not in node:
            values.append("7" * node[keyword])
    return values


def _validator(node: Node) -> jsonschema_rs.Validator:
    return jsonschema_rs.validator_for(_scalar(node), validate_formats=True)


def accepted(node: Node) -> list[Any]:
    """Sample values `node` accepts (deduplicated, in a fixed order)."""
    check = _validator(node)
    unique = {repr(value): value for value in _candidates(node)}
    return [value for value in unique.values() if check.is_valid(value)]


def refused(wider: Node, narrower: Node) -> list[Any]:
    """The sample values `wider` accepts that `narrower` refuses."""
    check = _validator(narrower)
    return [value for value in accepted(wider) if not check.is_valid(value)]
