"""What a test can ask of its simulator, from a marker or an indirect parameter.

`@pytest.mark.billing_sim(seed=7, tenant="llanolink", customers=50, shared=True)` on a
test, class or module, and/or `@pytest.mark.parametrize("billing_sim", [{"seed": 7}],
indirect=True)`; the parameter wins over the marker, the closest marker over farther ones.
A misspelt option is an error naming the valid ones (when in doubt reject: a silently
ignored `sede=7` would run the test against the wrong data).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

TENANTS = ("fibranet", "llanolink")
DEFAULT_CUSTOMERS = 20
"""Customers per tenant: every sample role of `info` exists, and the dataset builds in
tens of milliseconds (the simulator's serving default of 300 takes over a second)."""


class OptionError(ValueError):
    """An option of the `billing_sim` marker or parameter is unknown or has a bad value."""


@dataclass(frozen=True, slots=True)
class SimOptions:
    seed: int = 42
    """Dataset seed: the same seed gives the same customers, invoices and keys."""
    tenant: str = "fibranet"
    """The tenant `sim.client`, `sim.async_client` and `sim.http` are bound to."""
    customers: int = DEFAULT_CUSTOMERS
    """Customers per tenant."""
    shared: bool = False
    """Reuse one simulator per (seed, customers) for the whole session instead of building
    one per test. Read-only: a test that moves the clock, pays, resets or restores fails
    at teardown (faults it adds are cleared)."""
    emulate_socket_faults: bool = False
    """In-process only: accept the socket fault kinds and let the simulator raise at once
    the httpx error a socket would give, instead of refusing them (see `faults`)."""

    @classmethod
    def merged(cls, *layers: Mapping[str, Any]) -> SimOptions:
        """Options from layers applied in order (later wins), each checked."""
        values: dict[str, Any] = {}
        for layer in layers:
            values.update(layer)
        known = {field.name for field in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise OptionError(
                f"billing_sim: unknown option {', '.join(map(repr, unknown))}; "
                f"valid options are {', '.join(sorted(known))}"
            )
        options = cls(**values)
        options._check()
        return options

    def _check(self) -> None:
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise OptionError(f"billing_sim: seed must be an integer, got {self.seed!r}")
        if self.tenant not in TENANTS:
            raise OptionError(
                f"billing_sim: tenant must be one of {', '.join(TENANTS)}, got {self.tenant!r}"
            )
        if (
            isinstance(self.customers, bool)
            or not isinstance(self.customers, int)
            or self.customers < 1
        ):
            raise OptionError(
                f"billing_sim: customers must be a positive integer, got {self.customers!r}"
            )
        for flag in ("shared", "emulate_socket_faults"):
            if not isinstance(getattr(self, flag), bool):
                raise OptionError(
                    f"billing_sim: {flag} must be True or False, got {getattr(self, flag)!r}"
                )
