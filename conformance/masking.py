"""Mask personal identifiers (phones, national IDs, account numbers) in progress messages.

The curl commands in the report keep the exact identifiers (the team needs them to
reproduce a failure on their own staging data); free-text messages and console output,
which end up in CI logs, show only the ends of an identifier.
"""


def mask_identifier(value: str) -> str:
    """`1000004821` → `10******21`, `+584121234567` → `+58*******67`; short values fully."""
    keep = 3 if value.startswith("+") else 2
    if len(value) <= keep + 2:
        return "*" * len(value)
    return value[:keep] + "*" * (len(value) - keep - 2) + value[-2:]
