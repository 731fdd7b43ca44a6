"""What a subscriber's message asks for, as the turn routes it (`turn/intents.py`).

The routes, not the classifier's labels (`understanding/labels.py`): several labels route to
one intent (a due date is a balance question), and a narrator or a scenario only ever needs
to know the route.
"""

from __future__ import annotations

from enum import StrEnum


class Intent(StrEnum):
    BALANCE = "balance"
    INVOICES = "invoices"
    INVOICE = "invoice"
    LAST_PAYMENT = "last_payment"
    PLAN = "plan"
    BILL_CHANGE = "bill_change"
    SERVICE = "service"
    EXCHANGE_RATE = "exchange_rate"
    """Today's official rate (not which rate is used: that is a policy question)."""
    DUE_IN_BOLIVARES = "due_in_bolivares"
    """The amount due at today's rate."""
    PAYMENT_REPORT = "payment_report"
    """A payment made outside the API, read into a report and filed (over several turns)."""
    REPORT_STATUS = "report_status"
    """Whether the latest payment report was verified."""
    POLICY = "policy"
    GREETING = "greeting"
    THANKS = "thanks"
    OFF_TOPIC = "off_topic"
    UNSUPPORTED = "unsupported"
