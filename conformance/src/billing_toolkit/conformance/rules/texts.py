"""What the kit says about each business rule: how it is checked and how to fix a failure.

The statement of a rule is the contract's (`x-business-rules`); this table adds the kit's
side, which the README's rule table, `list-checks` and the report print.
"""

from __future__ import annotations

RULE_TEXTS: dict[str, tuple[str, str]] = {
    "balance.net": (
        "every balance response of the run (before and after the writes)",
        (
            "compute net_balance from amount_due and credit_balance in the same decimal "
            "expression that serialises them; never store it separately"
        ),
    ),
    "balance.amount_due": (
        (
            "every balance response next to a complete invoice walk of the same account with no "
            "payment booked in between (discovery, the re-reads after the writes, fuzzing)"
        ),
        (
            "derive amount_due and overdue_amount from the invoice rows the invoice endpoints "
            "read, in one transaction, instead of a counter updated on the side"
        ),
    ),
    "balance.next_due_date": (
        "as balance.amount_due, against the due dates of the open invoices",
        (
            "take the minimum due_date over invoices whose status is open (not overdue, not "
            "paid) in the same query as amount_due"
        ),
    ),
    "invoice.arithmetic": (
        (
            "every invoice of every response (getInvoice and each page), on accounts discovery "
            "chose for their 3+ line, discounted, late-fee and partially paid invoices"
        ),
        (
            "recompute subtotal, tax, total and amount_due from the stored lines with decimal "
            "arithmetic whenever a line is added (late fee, discount, proration)"
        ),
    ),
    "invoice.status": (
        (
            "every invoice of every response: paid ⇔ amount_due 0, open/overdue owe something, "
            "open is not past due and overdue is, against the as_of of the nearest balance"
        ),
        (
            "set the status in the same write that changes amount_paid or crosses the due date; "
            "a partial payment leaves the invoice open (or overdue)"
        ),
    ),
    "invoice.billing_period": (
        (
            "every invoice: period starts on the issue date, on the subscription's billing day, "
            "and ends the day before the next one; due date not before issue date"
        ),
        (
            "derive the period from the billing day with calendar arithmetic (the next billing "
            "day minus one day), not from a fixed 30 days"
        ),
    ),
    "payment.allocation": (
        (
            "every payment of every response (created, replayed, listed): the sum identity, "
            "positive allocations to distinct invoices, oldest due date first, unapplied ≥ 0"
        ),
        (
            "allocate in one transaction over the open invoices ordered by due_date then "
            "invoice_number, and store the remainder as unapplied credit"
        ),
    ),
    "currency.account": (
        (
            "every balance, invoice and payment of an account whose customer record the run "
            "read (discovery reads USD and VES accounts when the tenant has both)"
        ),
        "take the currency from the account, never from a tenant default or the request",
    ),
    "currency.payment": (
        (
            "the idempotency probe posts a payment in the other currency (with --allow-writes); "
            "the listing then shows it booked nothing"
        ),
        "compare the payment's currency with the account's before booking and answer 422",
    ),
    "idempotency.key_required": (
        "the idempotency probe and scenario post a payment without the header",
        "reject a payment without Idempotency-Key with 400 before touching the ledger",
    ),
    "idempotency.replay": (
        (
            "the idempotency scenario and probe, on the run's one payment: replays return the "
            "stored body with Idempotent-Replayed: true; after all the kit's requests the "
            "payment is listed once, no other payment carries its reference and net_balance "
            "moved once"
        ),
        (
            "store the response with the key in the transaction that books the payment and "
            "return it verbatim (with the header) on a repeat"
        ),
    ),
    "idempotency.fingerprint": (
        (
            "the probe re-sends its key with the amount, the method and the reference changed; "
            "each must be 409 idempotency_conflict"
        ),
        (
            "fingerprint the whole request (account and every body field, canonical JSON), not "
            "a chosen subset of fields"
        ),
    ),
    "idempotency.tenant_scope": (
        (
            "the probe sends its key and body with the other tenant's key (needs "
            "--other-tenant-key); it must be 404, never the stored payment"
        ),
        (
            "key the idempotency store by (tenant, key) and check the account's tenant before "
            "looking the key up"
        ),
    ),
    "idempotency.concurrency": (
        (
            "the run's one payment is sent with the same key from 4 threads at once; one "
            "payment may be booked and every answer is that payment or a retryable error"
        ),
        (
            "insert the key with a unique constraint (or a lock) before booking, so a second "
            "request in flight waits or conflicts instead of booking again"
        ),
    ),
    "idempotency.retention": (
        (
            "the probe replays its key after --retry-delay seconds (default 3); the report says "
            "only that delay was covered of the promised 24 h"
        ),
        "keep idempotency records in durable storage for at least 24 h, not in a short-lived cache",
    ),
    "identifier.exact": (
        (
            "every 200 lookup must carry the identifier asked for; the probe sends non-canonical "
            "forms (padding, case, separators, local phones, look-alikes) that must be 4xx"
        ),
        (
            "look up by equality on the canonical column and reject (400/404) anything that is "
            "not already canonical; never strip, pad, fold case or translate characters"
        ),
    ),
    "tenancy.isolation": (
        (
            "every response to the other tenant's key (scenario, probes): never data of this "
            "tenant; lookups by phone, national ID and account, and every list filter, are "
            "404 like missing data (needs --other-tenant-key)"
        ),
        (
            "put the tenant in every query's WHERE clause, filtered and paginated paths "
            "included, and answer not-found the same way for missing and foreign data"
        ),
    ),
    "pagination.walk": (
        (
            "every page (≤ limit) and walk (newest first, nothing twice) of the run; the probe "
            "walks each list and filter in pages of 2 and compares with pages of 100"
        ),
        "use a keyset cursor on the documented sort key with a strict comparison, never an offset",
    ),
    "pagination.filter": (
        "every listed item of the run: the path's account, the requested status and period",
        (
            "apply the filters and the account in the same query as the page, including pages "
            "after the first"
        ),
    ),
    "pagination.cursor_bound": (
        (
            "the probe re-sends cursors with another filter, on the other list, for another "
            "account and with the other tenant's key; each must be 400 or 404"
        ),
        (
            "sign the cursor together with the list it belongs to (tenant, account, filters) "
            "and refuse it elsewhere"
        ),
    ),
    "subscription.billing_dates": (
        (
            "every subscription read, against the as_of of the nearest balance and the "
            "customer record's created_at: next_billing_date, null when cancelled, start_date"
        ),
        (
            "derive next_billing_date from billing_day and today's date with calendar "
            "arithmetic (clamped to the month's end), never store it beside the day"
        ),
    ),
    "subscription.pending_change": (
        (
            "every subscription with a scheduled plan change (discovery looks for one): its "
            "plan is in the catalogue the run read, is not the current one, and starts on "
            "next_billing_date"
        ),
        (
            "schedule a plan change for the next billing day computed by the same function "
            "as next_billing_date, and only to a plan of the tenant's catalogue"
        ),
    ),
    "plan.catalogue": (
        (
            "every catalogue read (one entry per plan, by plan_id, positive prices) and every "
            "subscription's plan (equal to the catalogue's, in the account's currency)"
        ),
        (
            "serve the subscription's plan from the same catalogue rows as listPlans, and "
            "only subscribe an account to a plan in its own currency"
        ),
    ),
    "customer.status": (
        (
            "every customer record next to a complete invoice walk of the same account and "
            "epoch, on the day of the nearest balance; every subscription's status against "
            "the customer's (discovery looks for an account with several overdue invoices)"
        ),
        (
            "suspend in the same job that marks invoices overdue, 10 days after the due date, "
            "and reactivate in the write that pays the last overdue invoice"
        ),
    ),
    "payment.listed": (
        (
            "the run's own payment (with --allow-writes) wherever a list shows it, against "
            "its 201; every complete payment walk against the invoice walk of the same state"
        ),
        (
            "serialise listed payments with the same code as the 201 body, from the same "
            "allocation rows that update the invoices' amount_paid"
        ),
    ),
    "request_id.echo": (
        (
            "every response of the run; the probe sends X-Request-Id on 400, 401, 404 and 405 "
            "requests, which must echo it"
        ),
        (
            "set X-Request-Id in the outermost middleware, echoing the incoming one, so error "
            "responses of the framework get it too"
        ),
    ),
    "exchange_rate.conversion": (
        (
            "every rate the run read (scale against the digits of rate) and every verified "
            "report it saw (credited_amount recomputed from amount and exchange_rate, half-up)"
        ),
        (
            "convert in Decimal with one rounding, half-up to the cent, at the rate of the "
            "payment date: VES = USD × rate, USD = VES ÷ rate; never round the rate first"
        ),
    ),
    "exchange_rate.carried_over": (
        (
            "every rate the run read, the probe's weekend and business day included: "
            "effective_date, carried_over, weekends, published_at, one rate per effective date"
        ),
        (
            "answer a day without publication with the last published row and its own "
            "effective_date, never a rate interpolated or fetched for the day itself"
        ),
    ),
    "payment_report.pending": (
        (
            "every report created, fetched or listed (a new one is pending and names no "
            "resolution); the probe's balance before and after reporting"
        ),
        "record a report apart from the ledger; only verification may post a payment",
    ),
    "payment_report.verified": (
        (
            "every verified or rejected report the run saw, against the other reports and "
            "against the account's payments the run listed"
        ),
        (
            "create the payment through the same code path as createPayment and store its id "
            "on the report in the same transaction"
        ),
    ),
    "payment_report.duplicate_reference": (
        (
            "every verified report the run saw, by bank and reference; the probe reports one "
            "reference twice under different keys (with --allow-writes)"
        ),
        "enforce one verified report per tenant, bank and reference with a unique index",
    ),
    "payment_report.method_currency": (
        (
            "every report the run saw: a verified one is in an allowed pair, a currency "
            "rejection is only for a forbidden one"
        ),
        "check the method and currency pair before matching the statement",
    ),
    "payment_report.idempotency": (
        (
            "every createPaymentReport answer by Idempotency-Key; the probe replays its key "
            "and sends it again with a changed body (with --allow-writes)"
        ),
        (
            "store the first 201 under the tenant and key with a fingerprint of the account "
            "and the whole body, as for createPayment"
        ),
    ),
    "payment_report.listed": (
        (
            "every page of reports the run read (limit, newest first, no repeats in a walk) "
            "against the same report fetched or created in the same status"
        ),
        "serve the list and the single report from the same rows, ordered by created_at, report_id",
    ),
}
"""Rule id → (how the kit checks it, how to fix a failure)."""
