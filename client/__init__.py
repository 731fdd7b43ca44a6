"""Typed SDK of the billing API (`contract/openapi.yaml`), and the assistant's capabilities.

```python
from client import BillingClient, Capabilities

with BillingClient("http://127.0.0.1:8080", api_key) as billing:
    result = Capabilities(billing).balance("1000004821")
    if result.should_escalate: ...   # outage: hand over to a human
    elif not result.ok: ...          # an answer: it does not exist / is not valid
    else: ...                        # result.evidence_text is citable
```

Models in `client.models` are generated from the contract (`python -m client.codegen`);
everything else is hand-written. See `client/README.md`.
"""

from client.asgi import BlockingASGITransport
from client.async_client import AsyncBillingClient
from client.breaker import BreakerConfig, CircuitBreaker, CircuitState
from client.breaker_window import FailureRateTrip
from client.capabilities import AsyncCapabilities, Capabilities
from client.errors import (
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
from client.models.billing import (
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
from client.retry import RetryPolicy
from client.sync_client import BillingClient
from client.timeouts import Timeouts
from client.tool_result import ToolResult

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
