"""The kit's `retry_after` check against the simulator's real rate limiter.

Before the limiter, the check could only be fed by injected faults and was skipped against
a plain simulator. Here the kit's own `--rate-limit-probe` burst meets a token bucket: the
check must pass (inspected, not skipped), and fail when the limiter's 429 loses its
Retry-After on the way out.
"""

from __future__ import annotations

from typing import Any

from billing_toolkit.conformance.outcome import Status
from billing_toolkit.conformance.runner import CHECK_NAMES, run_kit
from billing_toolkit.conformance.settings import build_settings
from tests.conformance import broken
from tests.conformance.conftest import running_simulator

PROBE = 30
LIMIT = "5/min"
"""A minute's window: on the real clock no token comes back during the kit's burst."""


def _retry_after_outcome(wrap: Any) -> Any:
    with running_simulator(wrap) as target:
        target.control.rate_limits.set(LIMIT)
        settings = build_settings(
            target.kit_values(checks="retry_after", rate_limit_probe=PROBE),
            known_checks=CHECK_NAMES,
        )
        report = run_kit(settings)
    return next(o for o in report.outcomes if o.name == "retry_after")


def test_the_rate_limiters_429_passes_retry_after() -> None:
    outcome = _retry_after_outcome(lambda app, _key: app)
    assert outcome.status is Status.PASSED, outcome.summary
    assert outcome.inspected >= 1


def test_a_limiter_without_retry_after_fails_it() -> None:
    outcome = _retry_after_outcome(broken.OmitsRetryAfter)
    assert outcome.status is Status.FAILED
    assert outcome.inspected >= 1


def test_without_a_limiter_the_check_is_skipped_not_passed() -> None:
    with running_simulator(lambda app, _key: app) as target:
        settings = build_settings(
            target.kit_values(checks="retry_after", rate_limit_probe=PROBE),
            known_checks=CHECK_NAMES,
        )
        report = run_kit(settings)
    outcome = next(o for o in report.outcomes if o.name == "retry_after")
    assert outcome.status is Status.SKIPPED
