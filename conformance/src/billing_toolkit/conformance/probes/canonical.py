"""Non-canonical forms of real identifiers: none may resolve to a record.

The contract defines one canonical form per identifier and says the caller normalises, the
API never guesses. From the test data's real identifiers the probe builds the forms people
and sloppy integrations type (zero padding changed, lower case, separators, local phone
forms, look-alike characters) and sends each lookup. Any 200 is a normalisation the format
does not define; the `identifier.exact` judge also catches a 200 naming another record.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from billing_toolkit.conformance.calls import Call
from billing_toolkit.conformance.probes.base import Probe, ProbeContext, ProbeFindings, finding

# Look-alikes of ASCII characters: Cyrillic І and О, the digit-like letter O, fullwidth digits.
CONFUSABLES = {"I": "\u0406", "O": "\u041e", "0": "O", "1": "l"}
FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


def invoice_forms(number: str) -> Iterator[str]:
    prefix, year, sequence = number.split("-")
    yield f"{prefix}-{year}-{sequence.lstrip('0') or '0'}"  # zero padding dropped
    yield f"{prefix}-{year}-0{sequence}"  # one zero too many
    yield number.lower()
    yield number.replace("-", "")
    yield number.replace("-", " ")
    yield f" {number}"
    yield number.replace("I", CONFUSABLES["I"], 1)
    yield number.translate(FULLWIDTH)


def account_forms(number: str) -> Iterator[str]:
    yield f"0{number}"
    yield f"{number[:4]} {number[4:]}"
    yield f"{number[:4]}-{number[4:]}"
    yield number.translate(FULLWIDTH)
    yield number.replace("0", CONFUSABLES["0"], 1)


def phone_forms(phone: str) -> Iterator[str]:
    digits = phone.removeprefix("+")
    country, local = digits[:2], digits[2:]
    yield f"0{local}"  # national form
    yield digits  # no plus
    yield f"00{digits}"
    yield f"+{country} {local[:3]} {local[3:]}"
    yield f"+{country}-{local[:3]}-{local[3:]}"
    yield f"+{country} ({local[:3]}) {local[3:]}"


def national_id_forms(national_id: str) -> Iterator[str]:
    kind, number = national_id[0], national_id[2:]
    digits = re.sub(r"\D", "", number)
    yield national_id.lower()
    yield f"{kind}{number}"
    yield (
        f"{kind}-{int(digits[:-6] or 0)}.{digits[-6:-3]}.{digits[-3:]}"
        if len(digits) > 6
        else f"{kind}- {number}"
    )
    yield f"{kind}-0{number}"


def _lookups(ctx: ProbeContext) -> list[tuple[str, Call]]:
    scenario = ctx.scenario
    data = scenario.data
    lookup = scenario.facts.contract.operations["lookupCustomer"].path.expand()
    found: list[tuple[str, Call]] = []
    invoice_op = scenario.facts.contract.operations["getInvoice"]
    customer_op = scenario.facts.contract.operations["getCustomer"]
    if data.invoice_number is not None:
        found += [
            (form, Call(invoice_op.path.expand(invoiceNumber=form)))
            for form in invoice_forms(data.invoice_number)
        ]
    found += [
        (form, Call(customer_op.path.expand(accountNumber=form)))
        for form in account_forms(data.account_number)
    ]
    found += [
        (form, Call(lookup, {"account_number": form}))
        for form in account_forms(data.account_number)
    ]
    for field, forms in (("phone", phone_forms), ("national_id", national_id_forms)):
        value = data.customer.get(field)
        if isinstance(value, str) and value:
            found += [(form, Call(lookup, {field: form})) for form in forms(value)]
    canonical = _canonical(ctx)
    unique = {
        (request.path, tuple(request.params.items())): (form, request) for form, request in found
    }
    return [(form, request) for form, request in unique.values() if form not in canonical]


def _canonical(ctx: ProbeContext) -> set[str]:
    data = ctx.scenario.data
    return {
        str(v)
        for v in (
            data.invoice_number,
            data.account_number,
            data.customer.get("phone"),
            data.customer.get("national_id"),
        )
    }


def run(ctx: ProbeContext) -> ProbeFindings:
    found: ProbeFindings = {}
    exact = finding(found, "identifier.exact")
    for form, request in _lookups(ctx):
        reply = ctx.scenario.session.send(request)
        exact.inspected += 1
        if 200 <= reply.status < 300:
            exact.add(
                f"the non-canonical form {form!r} resolved to a record: {reply.describe()}", reply
            )
        elif not 400 <= reply.status < 500:
            exact.add(
                f"the non-canonical form {form!r}: expected a 4xx, got {reply.describe()}", reply
            )
    return found


PROBE = Probe(name="canonical_forms", rules=("identifier.exact",), run=run)
