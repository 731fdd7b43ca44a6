"""The rules that compare one schema node of the old contract with the same node of the new.

Direction decides what breaks. A request schema is what clients *send*: narrowing what it
accepts (a type gone, a bound tightened, an enum value removed, a field now required) breaks
clients that sent what used to be valid. A response schema is what clients *read*: widening
what it may hold (a new type or enum value, a bound loosened, a field no longer guaranteed)
breaks clients that relied on the old promise. The opposite moves are `info`. Each check is
pure and sees normalized nodes (`schema_view.normalize`), so `type: [string, 'null']` and
`anyOf: [string, null]` are the same node. Bias: a change whose direction cannot be proven
(a pattern or format rewritten) is decided on sample values (`sampling`): a value the old
schema accepted and the new refuses proves a narrowing, and is quoted.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from billing_toolkit.conformance.diff.changes import Hit, Rule, Severity
from billing_toolkit.conformance.diff.sampling import refused
from billing_toolkit.conformance.diff.schema_view import (
    COMPOSITIONS,
    enum_values,
    is_closed,
    properties_of,
    required_of,
    same_shape,
    types_of,
)

Node = dict[str, Any]
UPPER_BOUNDS = ("maxLength", "maximum", "exclusiveMaximum", "maxItems", "maxProperties")
LOWER_BOUNDS = ("minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties")
NONE = "none"


def _number(value: Any) -> int | float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _shown(value: Any) -> str:
    return NONE if value is None else repr(value) if isinstance(value, str) else str(value)


def _tightened(wider: Node, narrower: Node) -> Iterator[tuple[str, Any, Any]]:
    """(keyword, value in `wider`, value in `narrower`) for each way `narrower` admits less."""
    for keyword in UPPER_BOUNDS:
        before, after = _number(wider.get(keyword)), _number(narrower.get(keyword))
        if after is not None and (before is None or after < before):
            yield keyword, before, after
    for keyword in LOWER_BOUNDS:
        before, after = _number(wider.get(keyword)), _number(narrower.get(keyword))
        if after is not None and (before is None or after > before):
            yield keyword, before, after
    if "pattern" in narrower and "pattern" not in wider:
        yield "pattern", None, narrower["pattern"]
    if narrower.get("uniqueItems") is True and wider.get("uniqueItems") is not True:
        yield "uniqueItems", None, True
    narrower_enum = enum_values(narrower)
    if narrower_enum is not None and enum_values(wider) is None:
        yield "enum", None, sorted(narrower_enum)


def _bound_messages(changes: Iterator[tuple[str, Any, Any]], *, swap: bool) -> Iterator[Hit]:
    for keyword, first, second in changes:
        old, new = (second, first) if swap else (first, second)
        yield Hit("", f"{keyword}: {_shown(old)} → {_shown(new)}")


def _covered(kind: str, admitted: frozenset[str] | None) -> bool:
    return admitted is None or kind in admitted or (kind == "integer" and "number" in admitted)


def _lost_types(wider: Node, narrower: Node) -> list[str]:
    """The types `wider` admits and `narrower` no longer does (`any` when `wider` said none)."""
    before, after = types_of(wider), types_of(narrower)
    if after is None:
        return []
    if before is None:
        return ["any"]
    return sorted(kind for kind in before if not _covered(kind, after))


def _types(node: Node) -> str:
    admitted = types_of(node)
    return "any" if admitted is None else "|".join(sorted(admitted))


def _type_hit(old: Node, new: Node, lost: list[str], verb: str) -> Iterator[Hit]:
    if lost:
        yield Hit("", f"type {_types(old)} → {_types(new)} ({', '.join(lost)} {verb})")


def request_type_narrowed(old: Node, new: Node) -> Iterator[Hit]:
    yield from _type_hit(old, new, _lost_types(old, new), "no longer accepted")


def response_type_widened(old: Node, new: Node) -> Iterator[Hit]:
    yield from _type_hit(old, new, _lost_types(new, old), "may now be returned")


def _sampled(wider: Node, narrower: Node, keyword: str) -> tuple[str, list[Any]] | None:
    """For a `keyword` both nodes set differently: its change, and the sample values
    `wider` accepts that `narrower` refuses (see `sampling`)."""
    if keyword not in wider or keyword not in narrower or wider[keyword] == narrower[keyword]:
        return None
    return f"{keyword} {wider[keyword]!r} → {narrower[keyword]!r}", refused(wider, narrower)


def _refusing(change: str, values: list[Any], verb: str) -> Hit:
    shown = ", ".join(repr(value) for value in values[:3])
    return Hit("", f"{change}: {shown}{' …' if len(values) > 3 else ''} {verb}")


def _narrowed(old: Node, new: Node, keyword: str) -> Iterator[Hit]:
    found = _sampled(old, new, keyword)
    if found is not None and found[1]:
        yield _refusing(found[0], found[1], "valid before, now refused")


def _kept(old: Node, new: Node, keyword: str) -> Iterator[Hit]:
    found = _sampled(old, new, keyword)
    if found is not None and not found[1]:
        yield Hit("", f"{found[0]}: every value sampled from the old one is still accepted")


def _widened(old: Node, new: Node, keyword: str) -> Iterator[Hit]:
    found = _sampled(new, old, keyword)
    if found is not None and found[1]:
        change = f"{keyword} {old[keyword]!r} → {new[keyword]!r}"
        yield _refusing(change, found[1], "may now be returned, old clients refuse them")


def _within(old: Node, new: Node, keyword: str) -> Iterator[Hit]:
    found = _sampled(new, old, keyword)
    if found is not None and not found[1]:
        change = f"{keyword} {old[keyword]!r} → {new[keyword]!r}"
        yield Hit("", f"{change}: every value sampled from the new one was valid before")


def request_format_changed(old: Node, new: Node) -> Iterator[Hit]:
    """A format added to a free field refuses what it accepted; a rewritten one is sampled."""
    if "format" in new and "format" not in old:
        yield Hit("", f"format {NONE} → {_shown(new['format'])}")
    yield from _narrowed(old, new, "format")


def request_format_loosened(old: Node, new: Node) -> Iterator[Hit]:
    if "format" in old and "format" not in new:
        yield Hit("", f"format {_shown(old['format'])} → {NONE}")
    yield from _kept(old, new, "format")


def response_format_changed(old: Node, new: Node) -> Iterator[Hit]:
    """A format dropped promises nothing; a rewritten one is sampled from the new side."""
    if "format" in old and "format" not in new:
        yield Hit("", f"format {_shown(old['format'])} → {NONE}")
    yield from _widened(old, new, "format")


def response_format_tightened(old: Node, new: Node) -> Iterator[Hit]:
    yield from _within(old, new, "format")


def request_tightened(old: Node, new: Node) -> Iterator[Hit]:
    yield from _bound_messages(_tightened(old, new), swap=False)
    if is_closed(new) and not is_closed(old):
        yield Hit("", "additionalProperties: allowed → false (unlisted fields now refused)")


def request_loosened(old: Node, new: Node) -> Iterator[Hit]:
    yield from _bound_messages(_tightened(new, old), swap=True)


def response_loosened(old: Node, new: Node) -> Iterator[Hit]:
    """Opening a closed response object is left out on purpose: it is what adding an optional
    response field does, which readers that ignore unknown fields survive."""
    yield from _bound_messages(_tightened(new, old), swap=True)


def response_tightened(old: Node, new: Node) -> Iterator[Hit]:
    yield from _bound_messages(_tightened(old, new), swap=False)


def request_pattern_tightened(old: Node, new: Node) -> Iterator[Hit]:
    yield from _narrowed(old, new, "pattern")


def request_pattern_loosened(old: Node, new: Node) -> Iterator[Hit]:
    yield from _kept(old, new, "pattern")


def response_pattern_loosened(old: Node, new: Node) -> Iterator[Hit]:
    yield from _widened(old, new, "pattern")


def response_pattern_tightened(old: Node, new: Node) -> Iterator[Hit]:
    yield from _within(old, new, "pattern")


def _enum_difference(first: Node, second: Node) -> list[str]:
    """Enum members of `first` that `second` lacks (when both have an enum)."""
    before, after = enum_values(first), enum_values(second)
    if before is None or after is None:
        return []
    return sorted(set(before) - set(after))


def enum_removed(old: Node, new: Node) -> Iterator[Hit]:
    gone = _enum_difference(old, new)
    if gone:
        yield Hit("", f"enum value(s) removed: {', '.join(gone)}")


def enum_added(old: Node, new: Node) -> Iterator[Hit]:
    added = _enum_difference(new, old)
    if added:
        yield Hit("", f"enum value(s) added: {', '.join(added)}")


def _rename_hint(name: str, old: Node, new: Node) -> str:
    gone = properties_of(old)[name]
    candidates = [
        other
        for other, schema in properties_of(new).items()
        if other not in properties_of(old) and same_shape(gone, schema)
    ]
    return f" (renamed to `{candidates[0]}`?)" if len(candidates) == 1 else ""


def _removed(old: Node, new: Node, *, required: bool | None) -> Iterator[str]:
    for name in properties_of(old):
        if name in properties_of(new):
            continue
        if required is None or (name in required_of(old)) == required:
            yield name


def request_property_removed(old: Node, new: Node) -> Iterator[Hit]:
    """Only on a closed object: there a client still sending the field is refused (400); an
    open object ignores it."""
    if is_closed(new):
        for name in _removed(old, new, required=None):
            yield Hit(name, f"property `{name}` removed{_rename_hint(name, old, new)}")


def _added(old: Node, new: Node, *, required: bool) -> Iterator[str]:
    for name in properties_of(new):
        if name not in properties_of(old) and (name in required_of(new)) == required:
            yield name


def request_required_property_added(old: Node, new: Node) -> Iterator[Hit]:
    for name in _added(old, new, required=True):
        yield Hit(name, f"required property `{name}` added")


def request_optional_property_added(old: Node, new: Node) -> Iterator[Hit]:
    for name in _added(old, new, required=False):
        yield Hit(name, f"optional property `{name}` added")


def _requirement_flips(old: Node, new: Node, *, now_required: bool) -> Iterator[str]:
    for name in properties_of(old):
        if name in properties_of(new):
            was, now = name in required_of(old), name in required_of(new)
            if was != now and now == now_required:
                yield name


def property_became_required(old: Node, new: Node) -> Iterator[Hit]:
    for name in _requirement_flips(old, new, now_required=True):
        yield Hit(name, f"property `{name}` became required")


def property_became_optional(old: Node, new: Node) -> Iterator[Hit]:
    for name in _requirement_flips(old, new, now_required=False):
        yield Hit(name, f"property `{name}` is no longer required (may be absent)")


def response_required_property_removed(old: Node, new: Node) -> Iterator[Hit]:
    for name in _removed(old, new, required=True):
        yield Hit(name, f"required property `{name}` removed{_rename_hint(name, old, new)}")


def response_optional_property_removed(old: Node, new: Node) -> Iterator[Hit]:
    for name in _removed(old, new, required=False):
        yield Hit(name, f"optional property `{name}` removed{_rename_hint(name, old, new)}")


def response_property_added(old: Node, new: Node) -> Iterator[Hit]:
    for name in properties_of(new):
        if name not in properties_of(old):
            yield Hit(name, f"property `{name}` added")


def composition_changed(old: Node, new: Node) -> Iterator[Hit]:
    for keyword in (*COMPOSITIONS, "allOf"):
        before, after = old.get(keyword), new.get(keyword)
        count_before = len(before) if isinstance(before, list) else 0
        count_after = len(after) if isinstance(after, list) else 0
        if count_before != count_after:
            yield Hit("", f"{keyword}: {count_before} → {count_after} branch(es); review by hand")


ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

REQUEST_RULES: tuple[Rule[Node], ...] = (
    Rule("request-type-changed", "type-changed", ERROR,
         "A request field or parameter no longer accepts a type it accepted (null included).",
         request_type_narrowed),
    Rule("request-format-changed", "format-changed", ERROR,
         "A request field or parameter gained a `format`, or one that refuses values the old"
         " accepted (sampled).", request_format_changed),
    Rule("request-format-loosened", "format-changed", INFO,
         "A request `format` was dropped, or rewritten to one that still accepts every value"
         " sampled from the old.", request_format_loosened),
    Rule("request-constraint-tightened", "constraint-tightened", ERROR,
         "A request bound is stricter (minLength/maxLength/minimum/maximum/maxItems..., a new"
         " pattern, enum, uniqueItems or additionalProperties: false).", request_tightened),
    Rule("request-constraint-loosened", "constraint-loosened", INFO,
         "A request bound is looser: more requests are valid.", request_loosened),
    Rule("request-pattern-tightened", "pattern-changed", ERROR,
         "A request pattern was rewritten and refuses values the old accepted (its examples"
         " or values generated from it), quoted.", request_pattern_tightened),
    Rule("request-pattern-loosened", "pattern-changed", INFO,
         "A request pattern was rewritten and accepts every value sampled from the old.",
         request_pattern_loosened),
    Rule("request-enum-value-removed", "enum-changed", ERROR,
         "A request enum lost a value clients may send.", enum_removed),
    Rule("request-enum-value-added", "enum-changed", INFO,
         "A request enum gained a value.", enum_added),
    Rule("request-property-removed", "removed", ERROR,
         "A request property was removed (or renamed) from a closed object: clients still"
         " sending it are refused.", request_property_removed),
    Rule("request-required-property-added", "became-required", ERROR,
         "A new request property is required: existing clients do not send it.",
         request_required_property_added),
    Rule("request-property-became-required", "became-required", ERROR,
         "An optional request property became required.", property_became_required),
    Rule("request-optional-property-added", "added", INFO,
         "A new optional request property.", request_optional_property_added),
    Rule("request-composition-changed", "composition-changed", WARNING,
         "A request anyOf/oneOf/allOf gained or lost branches (beyond null).",
         composition_changed),
)  # fmt: skip

RESPONSE_RULES: tuple[Rule[Node], ...] = (
    Rule("response-type-changed", "type-changed", ERROR,
         "A response field may now hold a type it never held (null included).",
         response_type_widened),
    Rule("response-format-changed", "format-changed", ERROR,
         "A response field lost its `format`, or has one allowing values the old refused"
         " (sampled).", response_format_changed),
    Rule("response-format-tightened", "format-changed", INFO,
         "A response `format` was rewritten; every value sampled from the new was valid"
         " before.", response_format_tightened),
    Rule("response-constraint-loosened", "constraint-loosened", ERROR,
         "A response bound is looser (longer, larger, more items, no pattern or enum):"
         " clients may receive values they never did.", response_loosened),
    Rule("response-constraint-tightened", "constraint-tightened", INFO,
         "A response bound is stricter: every new response was a valid old one.",
         response_tightened),
    Rule("response-pattern-loosened", "pattern-changed", WARNING,
         "A response pattern was rewritten and allows values old clients refuse (sampled from"
         " the new pattern), quoted.", response_pattern_loosened),
    Rule("response-pattern-tightened", "pattern-changed", INFO,
         "A response pattern was rewritten; every value sampled from the new was valid"
         " before.", response_pattern_tightened),
    Rule("response-enum-value-added", "enum-changed", ERROR,
         "A response enum gained a value clients do not know.", enum_added),
    Rule("response-enum-value-removed", "enum-changed", INFO,
         "A response enum lost a value.", enum_removed),
    Rule("response-required-property-removed", "removed", ERROR,
         "A required response property was removed (or renamed).",
         response_required_property_removed),
    Rule("response-optional-property-removed", "removed", WARNING,
         "An optional response property was removed (or renamed); readers must already"
         " cope with its absence.", response_optional_property_removed),
    Rule("response-property-became-optional", "became-optional", ERROR,
         "A response property clients could rely on may now be absent.",
         property_became_optional),
    Rule("response-property-added", "added", INFO,
         "A new response property.", response_property_added),
    Rule("response-composition-changed", "composition-changed", WARNING,
         "A response anyOf/oneOf/allOf gained or lost branches (beyond null).",
         composition_changed),
)  # fmt: skip
