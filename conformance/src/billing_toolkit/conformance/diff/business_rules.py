"""The rules that compare the contract's business rules (`x-business-rules`, read by the
kernel's `contract/rules.py`) between two versions, by rule id.

A business rule is a promise a schema cannot state (`net_balance = amount_due -
credit_balance`, a replay moves money once). Clients rely on it and implementations are
judged by it, so a rule removed or reworded is an `error`: what was promised is no longer
what is promised. A new rule, or a rule applied to other operations or schemas, is a
`warning`: implementations that passed may now fail, clients lose nothing. Statements are
compared with whitespace collapsed, so re-wrapping YAML is no change. A new rule that
speaks only of what the old version did not have (its operations and schemas all new, as a
new operation's own rules are) is `info`: nothing that passed before is judged by it.
Bias: a rule naming an old schema, every operation (`*`) or nothing counts as touching the old.
"""

from __future__ import annotations

from collections.abc import Iterator

from billing_toolkit.conformance.diff.changes import Hit, Rule, Severity
from billing_toolkit.contract.operations import Contract
from billing_toolkit.contract.rules import EVERY_OPERATION, BusinessRule, rules_from_document


def _rules(contract: Contract) -> dict[str, BusinessRule]:
    return rules_from_document(contract.document)


def _words(text: str) -> str:
    return " ".join(text.split())


def _where(rule_id: str) -> str:
    return f"x-business-rules {rule_id}"


def rule_removed(old: Contract, new: Contract) -> Iterator[Hit]:
    after = _rules(new)
    for rule_id in _rules(old):
        if rule_id not in after:
            yield Hit(_where(rule_id), f"business rule `{rule_id}` removed")


def _kept(old: Contract, new: Contract) -> Iterator[tuple[str, BusinessRule, BusinessRule]]:
    """(id, old rule, new rule) for every rule both versions state."""
    after = _rules(new)
    for rule_id, rule in _rules(old).items():
        if rule_id in after:
            yield rule_id, rule, after[rule_id]


def rule_reworded(old: Contract, new: Contract) -> Iterator[Hit]:
    for rule_id, before, after in _kept(old, new):
        if _words(before.statement) != _words(after.statement):
            yield Hit(
                _where(rule_id),
                f"business rule `{rule_id}` changed: {_words(before.statement)!r}"
                f" → {_words(after.statement)!r}",
            )


def rule_scope_changed(old: Contract, new: Contract) -> Iterator[Hit]:
    for rule_id, before, after in _kept(old, new):
        for what, then, now in (
            ("operations", before.operations, after.operations),
            ("schemas", before.schemas, after.schemas),
        ):
            if set(then) != set(now):
                yield Hit(
                    _where(rule_id),
                    f"business rule `{rule_id}` applies to other {what}:"
                    f" {', '.join(sorted(then)) or 'none'} → {', '.join(sorted(now)) or 'none'}",
                )


def _about_new_only(rule: BusinessRule, old: Contract) -> bool:
    """Whether the rule speaks only of what `old` lacks: its schemas (what it is about) all
    new, or, naming no schema, its operations all new. A rule about a new kind of record
    (`payment_report.pending` on `getBalance`) cannot fail an implementation that has none."""
    if rule.schemas:
        old_schemas = old.document.get("components", {}).get("schemas", {})
        return not any(schema in old_schemas for schema in rule.schemas)
    if EVERY_OPERATION in rule.operations or not rule.operations:
        return False
    return not any(operation in old.operations for operation in rule.operations)


def _added(old: Contract, new: Contract, *, new_only: bool) -> Iterator[Hit]:
    before = _rules(old)
    for rule_id, rule in _rules(new).items():
        if rule_id not in before and _about_new_only(rule, old) == new_only:
            yield Hit(_where(rule_id), f"business rule `{rule_id}` added")


def rule_added(old: Contract, new: Contract) -> Iterator[Hit]:
    return _added(old, new, new_only=False)


def rule_added_for_new(old: Contract, new: Contract) -> Iterator[Hit]:
    return _added(old, new, new_only=True)


BUSINESS_RULES: tuple[Rule[Contract], ...] = (
    Rule("business-rule-removed", "business-rule-changed", Severity.ERROR,
         "A business rule (x-business-rules) was removed.", rule_removed),
    Rule("business-rule-changed", "business-rule-changed", Severity.ERROR,
         "A business rule's statement changed.", rule_reworded),
    Rule("business-rule-scope-changed", "business-rule-changed", Severity.WARNING,
         "A business rule applies to other operations or schemas.", rule_scope_changed),
    Rule("business-rule-added", "business-rule-added", Severity.WARNING,
         "A new business rule implementations must now keep.", rule_added),
    Rule("business-rule-added-for-new", "business-rule-added", Severity.INFO,
         "A new business rule about new schemas (or new operations) only.", rule_added_for_new),
)  # fmt: skip
