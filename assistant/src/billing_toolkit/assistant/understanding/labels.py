"""The intents a subscriber's message can carry: one per route the assistant has.

A label is what the classifier predicts; `turn/intents.py` turns it into a route (which
capability, which knowledge, or which hand-over). Kept apart from the routes so a model —
trained, keyword or LLM — only ever has to name one of these.
"""

from __future__ import annotations

from enum import StrEnum


class IntentLabel(StrEnum):
    PERSON = "person"
    SERVICE_DOWN = "service_down"
    CANCELLATION = "cancellation"
    PLAN_CHANGE = "plan_change"
    PAYMENT_REPORT = "payment_report"
    PAYMENT_METHODS = "payment_methods"
    BALANCE = "balance"
    INVOICE_LIST = "invoice_list"
    INVOICE = "invoice"
    BILL_INCREASE = "bill_increase"
    DUE_DATE = "due_date"
    LATE_FEES = "late_fees"
    EXCHANGE_RATE = "exchange_rate"
    GREETING = "greeting"
    THANKS = "thanks"
    OFF_TOPIC = "off_topic"
    LAST_PAYMENT = "last_payment"
    PLAN = "plan"
    POLICY = "policy"
