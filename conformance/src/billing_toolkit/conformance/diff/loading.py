"""Reading the two documents a diff compares, through the contract kernel.

Each file is parsed with the kernel's loader (`contract.document.load`) and turned into the
kernel's operation model (`contract.operations.contract_from_document`), its business rules
read by `contract.rules`: the diff sees operations exactly as the simulator, the client and
the conformance kit do. Everything that can go wrong with a file (missing, too large, not
YAML, not an OpenAPI 3 document, a reference that goes nowhere) is one `DiffInputError` whose
message names the argument and the file. Bias: refuse a document we would only half read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from billing_toolkit.conformance.errors import KitError
from billing_toolkit.contract.document import ContractError, load
from billing_toolkit.contract.operations import Contract, contract_from_document
from billing_toolkit.contract.rules import rules_from_document

MAX_BYTES = 10 * 1024 * 1024
"""A contract is tens of kilobytes; a file ten megabytes long is not one (checked before
reading)."""


class DiffInputError(KitError):
    """A file given to `diff` cannot be compared; the message says which and why."""


def _yaml_problem(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return f"{problem} (line {mark.line + 1})" if mark is not None else problem


def _read(label: str, path: Path) -> dict[str, Any]:
    if not path.exists():
        raise DiffInputError(f"{label} {path}: no such file")
    if not path.is_file():
        raise DiffInputError(f"{label} {path}: not a file")
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise DiffInputError(f"{label} {path}: {size} bytes, more than a contract ({MAX_BYTES})")
    try:
        document = load(path)
    except yaml.YAMLError as exc:
        raise DiffInputError(f"{label} {path} is not YAML: {_yaml_problem(exc)}") from None
    except UnicodeDecodeError:
        raise DiffInputError(f"{label} {path} is not UTF-8 text") from None
    except OSError as exc:
        raise DiffInputError(f"{label} {path}: {exc.strerror or exc}") from None
    if not isinstance(document, dict) or not str(document.get("openapi", "")).startswith("3."):
        raise DiffInputError(f"{label} {path} is not an OpenAPI 3 document (no `openapi: 3.x`)")
    if not isinstance(document.get("paths", {}), dict):
        raise DiffInputError(f"{label} {path} is not an OpenAPI 3 document (`paths` is not a map)")
    return document


def load_for_diff(label: str, path: Path) -> Contract:
    """The contract at `path` as the kernel models it; `label` (OLD/NEW) names it in errors."""
    document = _read(label, path)
    try:
        contract = contract_from_document(document, path)
        rules_from_document(document)
    except RecursionError:
        raise DiffInputError(f"{label} {path}: a $ref refers back to itself") from None
    except KeyError as exc:
        raise DiffInputError(f"{label} {path}: missing {exc} (or a $ref to nowhere)") from None
    except (ContractError, TypeError, AttributeError, IndexError, ValueError) as exc:
        raise DiffInputError(f"{label} {path} is not a usable OpenAPI document: {exc}") from None
    return contract
