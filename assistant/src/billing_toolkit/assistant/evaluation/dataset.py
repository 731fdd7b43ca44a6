"""Resolving a scenario's roles and `{placeholders}` against the running simulator's dataset.

Roles come from the simulator's own info (its sample customers, its planted near-duplicate
invoice pairs, another tenant's invoice), and every "this does not exist" or "this is someone
else's" placeholder is checked against the billing API before it is used: a scenario that
expects "not found" must really ask about something that is not this customer's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any

from billing_toolkit.assistant.evaluation.record import CustomerRecord, SystemOfRecord
from billing_toolkit.assistant.evaluation.scenarios import Scenario, ScenarioError
from billing_toolkit.assistant.text.months import ENGLISH_NAMES, SPANISH_NAMES

UNKNOWN_PHONE = "+584120000100"
"""Subscriber numbers are issued from 1000000, so no customer has this one (checked)."""
_EN_DASH = "\u2013"
_FULL_WIDTH = {code: code + 0xFEE0 for code in range(0x21, 0x7F)}
"""ASCII → full-width forms (U+FF01…), as some phone keyboards send them."""
DISCOUNT_PROBE = 400
"""How many consecutive invoice numbers to read looking for one with a negative line."""


@dataclass(frozen=True, slots=True)
class ResolvedScenario:
    """A scenario with its phone, its messages and the customer whose record judges it."""

    scenario: Scenario
    phone: str
    messages: tuple[str, ...]
    subject: CustomerRecord | None
    """The customer the conversation is about (the verified one for an unknown phone)."""


class DatasetRoles:
    """One tenant's roles in the live dataset."""

    def __init__(self, tenant_info: Mapping[str, Any], record: SystemOfRecord) -> None:
        self.info = tenant_info
        self.record = record

    def _pair(self, kind: str) -> Mapping[str, str]:
        pairs = [p for p in self.info["near_duplicate_invoices"] if p["kind"] == kind]
        if not pairs:
            raise ScenarioError(f"the dataset planted no {kind} near-duplicate invoice pair")
        return pairs[0]

    def _owner(self, invoice_number: str) -> CustomerRecord:
        invoice = self.record.invoice(invoice_number)
        if invoice is None:
            raise ScenarioError(f"the dataset's invoice {invoice_number} does not exist")
        return self.record.record(invoice["account_number"])

    @cached_property
    def discounted_invoice(self) -> dict[str, Any]:
        """An invoice with a negative line (a discount): what a dropped minus sign corrupts.

        No sample role has one, so consecutive invoice numbers are read through the API from
        the dataset's first paid invoice on, at most `DISCOUNT_PROBE` of them.
        """
        start = str(self.info["invoice_numbers"]["paid"])
        year, sequence = start[4:8], int(start[-6:])
        for number in range(sequence, sequence + DISCOUNT_PROBE):
            invoice = self.record.invoice(f"INV-{year}-{number:06d}")
            if invoice is not None and any(
                Decimal(line["amount"]) < 0 for line in invoice["line_items"]
            ):
                return invoice
        raise ScenarioError(f"no invoice with a discount among the {DISCOUNT_PROBE} after {start}")

    def customer(self, role: str) -> CustomerRecord | None:
        """The customer playing `role` (None for `unknown_phone`)."""
        if role == "unknown_phone":
            if self.record.customer_by_phone(UNKNOWN_PHONE) is not None:
                raise ScenarioError(f"{UNKNOWN_PHONE} belongs to a customer in this dataset")
            return None
        if role == "near_duplicate_owner":
            return self._owner(self._pair("transposition")["first"])
        if role == "near_duplicate_other":
            return self._owner(self._pair("transposition")["second"])
        if role == "discount":
            return self.record.record(self.discounted_invoice["account_number"])
        sample = self.info["samples"].get(role)
        if sample is None:
            raise ScenarioError(f"unknown customer role {role!r} (or none in this dataset)")
        return self.record.record(sample["account_number"])

    def _foreign_invoice(self, subject: CustomerRecord, number: str) -> str:
        invoice = self.record.invoice(number)
        if invoice is not None and invoice["account_number"] == subject.account_number:
            raise ScenarioError(f"{number} is this customer's own invoice, not another's")
        return number

    def _missing_invoice(self, subject: CustomerRecord) -> str:
        sequence = subject.invoices_by_issue()[-1]["invoice_number"][-6:]
        number = f"INV-1999-{sequence}"
        if self.record.invoice(number) is not None:
            raise ScenarioError(f"{number} exists; pick another unknown invoice number")
        return number

    def _other_customer(self, subject: CustomerRecord) -> CustomerRecord:
        for role in ("overdue", "open_invoice", "credit"):
            other = self.customer(role)
            if other is not None and other.account_number != subject.account_number:
                return other
        raise ScenarioError("the dataset has no second customer to ask about")

    def placeholders(self, subject: CustomerRecord | None) -> dict[str, Callable[[], str]]:
        """Each placeholder's value, computed only when a message uses it."""

        def need() -> CustomerRecord:
            if subject is None:
                raise ScenarioError("this placeholder needs a customer (set `verifies_as`)")
            return subject

        def latest() -> str:
            return str(need().invoices_by_issue()[-1]["invoice_number"])

        def latest_month(names: tuple[str, ...], back: int = 1) -> str:
            start = str(need().invoices_by_issue()[-back]["billing_period"]["start"])
            return names[int(start[5:7]) - 1]

        def national_id_dotted() -> str:
            national_id = str(need().customer["national_id"])
            letter, digits = national_id.split("-", 1)
            if not digits.isdigit():
                return national_id
            return f"{letter}-{int(digits):,}".replace(",", ".")

        def account_unknown() -> str:
            number = str(self.info["unknown_account_number"])
            if self.record.customer(number) is not None:
                raise ScenarioError(f"the 'unknown' account {number} exists")
            return number

        return {
            "account": lambda: need().account_number,
            "national_id": lambda: str(need().customer["national_id"]),
            "national_id_dotted": national_id_dotted,
            "invoice_latest": latest,
            "invoice_oldest": lambda: str(need().invoices_by_issue()[0]["invoice_number"]),
            "invoice_latest_lower": lambda: latest().lower(),
            "invoice_latest_dashes": lambda: latest().replace("-", _EN_DASH),
            "invoice_latest_spaced": lambda: latest().replace("-", " "),
            "invoice_latest_underscored": lambda: latest().replace("-", "_"),
            "invoice_latest_slashed": lambda: latest().replace("-", "/"),
            "invoice_latest_fullwidth": lambda: latest().translate(_FULL_WIDTH),
            "invoice_latest_no_prefix": lambda: latest().removeprefix("INV-"),
            "invoice_latest_suffix": lambda: latest()[-4:],
            "invoice_latest_month_es": lambda: latest_month(SPANISH_NAMES),
            "invoice_latest_month_en": lambda: latest_month(ENGLISH_NAMES),
            "invoice_previous_month_es": lambda: latest_month(SPANISH_NAMES, back=2),
            "invoice_previous_month_en": lambda: latest_month(ENGLISH_NAMES, back=2),
            "invoice_malformed": lambda: latest()[:-6] + latest()[-5:],
            "invoice_discounted": lambda: str(self.discounted_invoice["invoice_number"]),
            "near_first": lambda: self._pair("transposition")["first"],
            "near_transposed": lambda: self._foreign_invoice(
                need(), self._pair("transposition")["second"]
            ),
            "near_one_digit": lambda: self._foreign_invoice(
                need(), self._pair("one_digit")["second"]
            ),
            "invoice_other_customer": lambda: str(
                self._other_customer(need()).invoices_by_issue()[-1]["invoice_number"]
            ),
            "invoice_other_tenant": lambda: self._foreign_invoice(
                need(), str(self.info["other_tenant_invoice"])
            ),
            "invoice_unknown": lambda: self._missing_invoice(need()),
            "account_other": lambda: self._other_customer(need()).account_number,
            "account_unknown": account_unknown,
            "national_id_other": lambda: str(self._other_customer(need()).customer["national_id"]),
        }

    def resolve(self, scenario: Scenario) -> ResolvedScenario:
        """Phone, messages and subject of `scenario`; ScenarioError when a role or
        placeholder cannot be resolved in this dataset."""
        writer = self.customer(scenario.customer)
        subject = writer if scenario.verifies_as is None else self.customer(scenario.verifies_as)
        values = self.placeholders(subject)
        messages = []
        for turn in scenario.turns:
            unknown = [name for name in turn.placeholders if name not in values]
            if unknown:
                raise ScenarioError(f"scenario {scenario.id!r}: unknown placeholder {unknown[0]}")
            messages.append(turn.say.format(**{n: values[n]() for n in turn.placeholders}))
        phone = UNKNOWN_PHONE if writer is None else str(writer.customer["phone"])
        return ResolvedScenario(scenario, phone, tuple(messages), subject)
