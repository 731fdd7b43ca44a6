"""What the assistant needs from the outside world, as Protocols it can be tested against.

The pipeline builds on no client or retriever of its own: it takes anything that has these
methods (it reads only the client's `ToolResult` and the retrieval package's relevance rule).
`billing_toolkit.client.capabilities.Capabilities` and the retrieval package's
`HybridRetriever` satisfy them; the tests pass small fakes.

Capability contract (what `ToolResult` means to the assistant;
`billing_toolkit.client.capability_flows` is the reference implementation and the template
narrator reads its `data` shapes):
- `ok=True` with `evidence_text` stating every figure exactly as the API gave it (a derived
  figure, such as a difference, computed with Decimal and stated with its direction), and
  `data` holding the API resource under the contract's field names: a `Customer`, a
  `Balance`, an `Invoice`; `invoices` → `{"invoices": [Invoice…]}`; `last_payment` →
  `{"payment": Payment | None}`; `payments` → `{"payments": [Payment…]}` (newest first); `plan` → `{"subscription": Subscription, "pending_plan":
  Plan | None}`; `arrears` → `{"overdue_amount", "late_fees", "days_overdue",
  "oldest_due_date", "overdue_invoices", …}` (computed figures; `balance` adds
  `days_until_due`); `bill_change` → `{"latest": Invoice, "previous": Invoice | None,
  "total_difference", "appeared", "disappeared", "changed"}`; `exchange_rate(on, usd_amount)`
  (no account: the rate is public) → an `ExchangeRate`, plus `usd_amount`/`ves_amount` when
  an amount was converted; `report_payment(account, paid, idempotency_key=…)` and
  `payment_report_status` → a `PaymentReport`; `latest_payment_report` → `{"report":
  PaymentReport | None}` (`billing_toolkit.client.payment_report_capabilities`; a client
  without them hands those turns over CAPABILITY_MISSING);
- `ok=False, should_escalate=False`: a business "no" (not found, another customer's or
  tenant's resource — indistinguishable on purpose), answered as such;
- `ok=False, should_escalate=True`: an outage (timeout, 5xx, 429, open circuit), escalated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from billing_toolkit.client.tool_result import ToolResult


class BillingCapabilities(Protocol):
    """The client's capability layer, scoped to one tenant by its API key."""

    def customer_by_phone(self, phone: str) -> ToolResult: ...

    def customer_by_account(self, account_number: str) -> ToolResult: ...

    def customer_by_national_id(self, national_id: str) -> ToolResult: ...

    def balance(self, account_number: str) -> ToolResult: ...

    def invoices(
        self, account_number: str, *, status: str | None = None, limit: int = 6
    ) -> ToolResult: ...

    def invoice_by_number(self, account_number: str, invoice_number: str) -> ToolResult: ...

    def arrears(self, account_number: str) -> ToolResult: ...

    def last_payment(self, account_number: str) -> ToolResult: ...

    def payments(self, account_number: str, *, limit: int = 12) -> ToolResult: ...

    def plan(self, account_number: str) -> ToolResult: ...

    def bill_change(self, account_number: str, invoice_number: str | None = None) -> ToolResult: ...


class RetrievedChunk(Protocol):
    """A knowledge-base chunk as the retriever returns it (the fields the assistant reads)."""

    @property
    def chunk_id(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def language(self) -> str: ...

    @property
    def vector_score(self) -> float | None: ...

    @property
    def matched_by_text(self) -> bool: ...

    @property
    def text_rank(self) -> int | None:
        """Rank in the full-text leg: set when the chunk shares at least one term with the
        question, None when only the vector leg found it."""

    @property
    def fused_rank(self) -> int: ...

    @property
    def kind(self) -> str:
        """`policy`, `worked_example` or `format_sample`, set from the document's structure."""
        ...

    @property
    def heading_path(self) -> tuple[str, ...]:
        """The article's title, then the section's heading (the intro has the title alone)."""
        ...


class Retriever(Protocol):
    """Hybrid retrieval over the operator's knowledge base, best chunk first."""

    def search(self, query: str, top_k: int = 6) -> Sequence[RetrievedChunk]: ...
