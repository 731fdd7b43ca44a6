"""Every check the kit can run, with what it means and how to fix a failure, in report order.

The CLI's `list-checks` prints it and the README's table is written from it, so the
explanation a team reads is the one the code carries.
"""

from __future__ import annotations

from billing_toolkit.conformance.checks import COVERAGE, SCENARIOS, VERIFY_RESPONSE_RULES
from billing_toolkit.conformance.rules import rule_entries
from billing_toolkit.conformance.schemathesis_phase import MEANING, NAME, REMEDY


def catalogue() -> list[tuple[str, str, str]]:
    """(name, meaning, remedy) of each check."""
    entries = [(rule.name, rule.meaning, rule.remedy) for rule in VERIFY_RESPONSE_RULES]
    entries += [(scenario.name, scenario.meaning, scenario.remedy) for scenario in SCENARIOS]
    entries.append((COVERAGE.name, COVERAGE.meaning, COVERAGE.remedy))
    entries.append((NAME, MEANING, REMEDY))
    entries += rule_entries()
    return entries
