"""The kit's view of one run's contract: the kernel's operations, matcher and formats together.

Nothing here reads the document or re-derives a fact: operations (documented statuses, error
codes, auth, writes) are the kernel's `Operation`s, "which operation is this request" is the
kernel's `OperationMatcher` (the simulator routes with the same one, so the kit and the
reference implementation never disagree on a route), and money fields, the amount pattern
and problem codes are the kernel's `Formats`. The three travel as one object because a run
may check a contract other than the bundled one (`run_kit(contract=...)`), and every check
of that run must judge against that same document.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from billing_toolkit.contract import OPENAPI_PATH
from billing_toolkit.contract.formats import Formats, formats_from_document
from billing_toolkit.contract.matching import OperationMatcher
from billing_toolkit.contract.operations import Contract, contract_from_document, load_contract


@dataclass(frozen=True)
class ContractFacts:
    """One contract as the checks consult it: its operations, a request matcher, its formats."""

    contract: Contract
    matcher: OperationMatcher
    formats: Formats


def _facts(contract: Contract) -> ContractFacts:
    return ContractFacts(
        contract=contract,
        matcher=OperationMatcher(contract.operations.values()),
        formats=formats_from_document(contract.document),
    )


def facts_from_spec(spec: dict[str, Any], path: Path = OPENAPI_PATH) -> ContractFacts:
    """The facts of a parsed document (pure: tests judge against altered documents)."""
    return _facts(contract_from_document(spec, path))


@cache
def load_facts(path: Path = OPENAPI_PATH) -> ContractFacts:
    """The facts of the contract at `path` (the bundled contract by default), built once."""
    return _facts(load_contract(path))
