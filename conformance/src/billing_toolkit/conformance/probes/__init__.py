"""The probes, in the order they run: read-only ones first, the writing one last."""

from __future__ import annotations

from billing_toolkit.conformance.probes import (
    canonical,
    errors,
    idempotency,
    pages,
    reports,
    tenancy,
)
from billing_toolkit.conformance.probes.base import Probe, ProbeContext, ProbeFindings

PROBES: tuple[Probe, ...] = (
    errors.PROBE,
    canonical.PROBE,
    pages.PROBE,
    tenancy.PROBE,
    reports.RATES_PROBE,
    idempotency.PROBE,
    reports.REPORT_PROBE,
)

__all__ = ["PROBES", "Probe", "ProbeContext", "ProbeFindings"]
