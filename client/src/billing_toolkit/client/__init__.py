"""Typed SDK of the billing API (`contract/openapi.yaml`), and the assistant's capabilities.

```python
from billing_toolkit.client import BillingClient, Capabilities

with BillingClient("http://127.0.0.1:8080", api_key) as billing:
    result = Capabilities(billing).balance("1000004821")
    if result.should_escalate: ...   # outage: hand over to a human
    elif not result.ok: ...          # an answer: it does not exist / is not valid
    else: ...                        # result.evidence_text is citable
```

The models in `billing_toolkit.client.models`, the operation bindings and the clients' typed
methods are generated from the contract (`python tools/generate_client.py`); everything else is hand-written. See `client/README.md`.
"""

from billing_toolkit.client.asgi import BlockingASGITransport
from billing_toolkit.client.async_client import AsyncBillingClient
from billing_toolkit.client.base import ClientOptions
from billing_toolkit.client.breaker import BreakerConfig, CircuitBreaker, CircuitState
from billing_toolkit.client.breaker_window import FailureRateTrip
from billing_toolkit.client.capabilities import AsyncCapabilities, Capabilities
from billing_toolkit.client.errors import (
    APIConnectionError,
    APITimeoutError,
    AuthenticationError,
    BillingError,
    BusinessError,
    CircuitOpenError,
    ContractViolationError,
    CustomerNotFoundError,
    FieldProblem,
    IdempotencyConflictError,
    InfrastructureError,
    InvoiceNotFoundError,
    MalformedResponseError,
    NotFoundError,
    RateLimitError,
    ServerError,
    ValidationError,
)
from billing_toolkit.client.models.billing import (
    Balance,
    Customer,
    Health,
    Invoice,
    InvoicePage,
    LineItem,
    Payment,
    PaymentPage,
    Plan,
    PlanList,
    Subscription,
)
from billing_toolkit.client.retry import RetryPolicy
from billing_toolkit.client.sync_client import BillingClient
from billing_toolkit.client.timeouts import Timeouts
from billing_toolkit.client.tool_result import ToolResult

__all__ = [
    "APIConnectionError",
    "APITimeoutError",
    "AsyncBillingClient",
    "AsyncCapabilities",
    "AuthenticationError",
    "Balance",
    "BillingClient",
    "BillingError",
    "BlockingASGITransport",
    "BreakerConfig",
    "BusinessError",
    "Capabilities",
    "CircuitBreaker",
    "CircuitOpenError",
    "CircuitState",
    "ClientOptions",
    "ContractViolationError",
    "Customer",
    "CustomerNotFoundError",
    "FailureRateTrip",
    "FieldProblem",
    "Health",
    "IdempotencyConflictError",
    "InfrastructureError",
    "Invoice",
    "InvoiceNotFoundError",
    "InvoicePage",
    "LineItem",
    "MalformedResponseError",
    "NotFoundError",
    "Payment",
    "PaymentPage",
    "Plan",
    "PlanList",
    "RateLimitError",
    "RetryPolicy",
    "ServerError",
    "Subscription",
    "Timeouts",
    "ToolResult",
    "ValidationError",
]
