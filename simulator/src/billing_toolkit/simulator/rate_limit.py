"""The simulator's rate limiter: token buckets per API key, optionally per operation.

A policy reads as it is typed: `20/s` (every key gets 20 requests a second across all
operations, bursts of 20), `getBalance=5/min` (each key's getBalance, on top of the
key-wide policy), `*=10/s` (each operation of each key its own bucket). A request needs a
token from every policy that applies; it takes them all or none, so a refused request
costs nothing. Buckets live on the fault clock (`ManualClock` in tests).

Only authenticated requests are limited (the key is the partition); health probes are not.
The answer to a refused request is the endpoint's; this module only decides.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from billing_toolkit.simulator.faults.clock import FaultClock
from billing_toolkit.simulator.problems import Reply, problem
from billing_toolkit.simulator.token_bucket import TokenBucket, Verdict

WINDOWS = {"s": 1.0, "sec": 1.0, "second": 1.0, "min": 60.0, "minute": 60.0, "h": 3600.0}
MAX_REQUESTS = 1_000_000
ANY_OPERATION = "*"
_SPEC = re.compile(
    r"(?:(?P<operation>[A-Za-z][A-Za-z0-9_]*|\*)=)?(?P<count>[0-9]+)/(?P<window>[a-z]+)"
)


class RateLimitError(ValueError):
    """A policy that cannot be used; the message names it and says what is expected."""


@dataclass(frozen=True, slots=True)
class RateLimitPolicy:
    requests: int
    window_s: float
    operation: str | None = None
    """None: one bucket per key for every operation; `*`: one per key and operation;
    an operationId: one per key for that operation only."""

    @property
    def name(self) -> str:
        """The policy's name in `RateLimit-Policy` (a structured-field string)."""
        if self.operation is None:
            return "per-key"
        return "per-operation" if self.operation == ANY_OPERATION else self.operation

    @property
    def text(self) -> str:
        unit = "s" if self.window_s == 1.0 else "min" if self.window_s == 60.0 else "h"
        prefix = "" if self.operation is None else f"{self.operation}="
        return f"{prefix}{self.requests}/{unit}"

    def applies_to(self, operation_id: str) -> bool:
        return self.operation in (None, ANY_OPERATION, operation_id)

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"limit": self.text, "requests": self.requests,
                                   "window_s": self.window_s}  # fmt: skip
        return {**data, "operation": self.operation} if self.operation else data


def parse_policy(
    text: object, operations: Iterable[str], where: str = "rate limit"
) -> RateLimitPolicy:
    """`20/s`, `20/min`, `getBalance=5/min`, `*=10/s`; `RateLimitError` naming `where`."""
    if not isinstance(text, str):
        raise RateLimitError(
            f"{where}: must be a string like 20/s or getBalance=5/min, got {text!r}"
        )
    found = _SPEC.fullmatch(text.strip())
    if found is None:
        raise RateLimitError(
            f"{where}: {text[:40]!r} is not a rate (expected N/s, N/min or N/h, optionally "
            "prefixed by OPERATION= or *=)"
        )
    count, window, operation = int(found["count"]), found["window"], found["operation"]
    if window not in WINDOWS:
        raise RateLimitError(f"{where}: unknown unit {window!r} (use s, min or h)")
    if not 1 <= count <= MAX_REQUESTS:
        raise RateLimitError(f"{where}: the count must be in [1, {MAX_REQUESTS}], got {count}")
    if operation not in (None, ANY_OPERATION) and operation not in set(operations):
        raise RateLimitError(f"{where}: unknown operationId {operation!r}")
    return RateLimitPolicy(count, WINDOWS[window], operation)


@dataclass(frozen=True, slots=True)
class Decision:
    verdict: Verdict
    policy: RateLimitPolicy
    """The policy that refused, or the one with the fewest requests left."""


class RateLimiter:
    """The active policies and their buckets; thread-safe (the admin API and a test thread
    change policies while the server takes tokens)."""

    def __init__(self, clock: FaultClock, policies: Iterable[RateLimitPolicy] = ()) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._policies: tuple[RateLimitPolicy, ...] = ()
        self._buckets: dict[tuple[int, str, str], TokenBucket] = {}
        self.replace(policies)

    @property
    def active(self) -> bool:
        """Any policy at all (the hot path takes no lock when there is none)."""
        return bool(self._policies)

    @property
    def policies(self) -> tuple[RateLimitPolicy, ...]:
        return self._policies

    def replace(self, policies: Iterable[RateLimitPolicy], where: str = "rate limits") -> None:
        """New policies, every bucket full again (a changed limit starts afresh); two for
        the same scope are refused (which would the client be told about?)."""
        wanted = tuple(policies)
        if len({p.operation for p in wanted}) != len(wanted):
            raise RateLimitError(f"{where}: two policies for the same scope; give each one rate")
        with self._lock:
            self._policies, self._buckets = wanted, {}

    def take(self, key: str, operation_id: str) -> Decision | None:
        """A token of every policy that applies to this key and operation, or none; None
        when no policy applies."""
        with self._lock:
            now = self._clock.monotonic()
            buckets = [
                (policy, self._bucket(index, policy, key, operation_id, now))
                for index, policy in enumerate(self._policies)
                if policy.applies_to(operation_id)
            ]
            if not buckets:
                return None
            if all(bucket.peek(now) for _, bucket in buckets):
                verdicts = [(policy, bucket.take(now)) for policy, bucket in buckets]
                policy, verdict = min(verdicts, key=lambda pair: pair[1].remaining)
                return Decision(verdict, policy)
            refused = [(p, b.take(now)) for p, b in buckets if not b.peek(now)]
            policy, verdict = max(refused, key=lambda pair: pair[1].retry_after_s)
            return Decision(verdict, policy)

    def _bucket(self, index: int, policy: RateLimitPolicy, key: str, operation_id: str,
                now: float) -> TokenBucket:  # fmt: skip
        scope = operation_id if policy.operation is not None else ""
        found = self._buckets.get((index, key, scope))
        if found is None:
            found = TokenBucket.full(policy.requests, policy.requests / policy.window_s, now)
            self._buckets[(index, key, scope)] = found
        return found


def rate_limit_headers(decision: Decision) -> Mapping[str, str]:
    """`RateLimit-Policy` and `RateLimit` as draft-ietf-httpapi-ratelimit-headers-09 writes
    them (structured fields: the policy's name, `q` quota, `w` window; `r` remaining,
    `t` seconds until the quota is whole again), and `Retry-After` when refused."""
    policy, verdict = decision.policy, decision.verdict
    headers = {
        "RateLimit-Policy": f'"{policy.name}";q={policy.requests};w={int(policy.window_s)}',
        "RateLimit": f'"{policy.name}";r={verdict.remaining};t={verdict.reset_s}',
    }
    if not verdict.allowed:
        headers["Retry-After"] = str(verdict.retry_after_s)
    return headers


def refusal(decision: Decision) -> Reply:
    """The 429 problem a refused request gets, with `Retry-After` and the RateLimit headers."""
    wait = decision.verdict.retry_after_s
    return problem(
        429,
        "rate_limited",
        f"Rate limit {decision.policy.text} exceeded; retry in {wait} s.",
        headers=dict(rate_limit_headers(decision)),
    )
