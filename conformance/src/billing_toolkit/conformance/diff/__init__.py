"""Breaking-change detection between two versions of the billing contract
(`billing-contract diff OLD NEW`).

The diff reads both documents through the contract kernel (the same operation model the
simulator, the client and the conformance kit use) and runs a table of rules, each a pure
function of an old and a new subject with one id, kind and severity. See the package's
section "Breaking-change detection" in conformance/README.md for the rules and a CI recipe.
"""

from billing_toolkit.conformance.diff.changes import Change, Severity
from billing_toolkit.conformance.diff.engine import CATALOGUE, DiffReport, diff_contracts
from billing_toolkit.conformance.diff.loading import DiffInputError, load_for_diff

__all__ = [
    "CATALOGUE",
    "Change",
    "DiffInputError",
    "DiffReport",
    "Severity",
    "diff_contracts",
    "load_for_diff",
]
