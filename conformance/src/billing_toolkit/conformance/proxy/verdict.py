"""What the proxy says about one exchange: zero or more verdicts, each tied to a rule id.

A verdict's message is masked when it is made (identifiers kept to their first and last two
digits, secrets redacted), because it goes straight to a live log and into the report; the
same exchange replayed from a masked recording yields the same masked message, so live and
replayed verdicts compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from billing_toolkit.contract.masking import mask_all


@dataclass(frozen=True)
class Verdict:
    """One broken rule on one exchange (`index`: the exchange's position in the session)."""

    index: int
    rule_id: str
    message: str

    def log_line(self) -> str:
        """The one line the live log prints for it."""
        return f"VIOLATION {self.rule_id} #{self.index} {self.message}"


@dataclass
class Judgement:
    """Everything the proxy concluded on one exchange: what broke and which rules applied."""

    verdicts: list[Verdict] = field(default_factory=list)
    exercised: set[str] = field(default_factory=set)

    def add(self, index: int, rule_id: str, message: str) -> None:
        self.exercised.add(rule_id)
        self.verdicts.append(Verdict(index, rule_id, mask_all(message)))
