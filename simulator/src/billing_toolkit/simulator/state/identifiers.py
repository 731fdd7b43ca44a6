"""Identifier formats of the shared domain: cédula, RIF, phone, invoice and payment numbers.

Pure functions; the dataset generator supplies the numbers, these give them their printed
form. Invoice numbers carry the issue year and a tenant-wide sequence that never restarts,
so a number is unique across tenants (fibranet < 500000 ≤ llanolink).
"""

from __future__ import annotations

RIF_TYPE_VALUES = {"V": 1, "E": 2, "J": 3, "P": 4, "G": 5}
RIF_WEIGHTS = (4, 3, 2, 7, 6, 5, 4, 3, 2)


def cedula(nationality: str, number: int) -> str:
    """`V-12345678`: nationality letter and 6–9 digits, no dots."""
    return f"{nationality}-{number}"


def rif_check_digit(kind: str, digits: str) -> int:
    """SENIAT's modulo-11 check digit over the type letter's value and the eight digits."""
    values = (RIF_TYPE_VALUES[kind], *(int(d) for d in digits))
    remainder = 11 - sum(w * v for w, v in zip(RIF_WEIGHTS, values, strict=True)) % 11
    return 0 if remainder >= 10 else remainder


def rif(kind: str, number: int) -> str:
    """`J-12345678-9`: type letter, eight digits, check digit."""
    digits = f"{number:08d}"
    return f"{kind}-{digits}-{rif_check_digit(kind, digits)}"


def mobile_phone(prefix: str, subscriber: int) -> str:
    """E.164 Venezuelan mobile, `+58` + operator prefix (412, 414...) + seven digits."""
    return f"+58{prefix}{subscriber:07d}"


def invoice_number(year: int, sequence: int) -> str:
    return f"INV-{year:04d}-{sequence:06d}"


def payment_id(sequence: int) -> str:
    return f"PAY-{sequence:010d}"


def report_id(sequence: int) -> str:
    return f"PRP-{sequence:010d}"


def transposed(sequence: int) -> int | None:
    """The sequence with its last two digits swapped, when that is a different, larger number.

    Used to plant deliberate near-duplicate invoice numbers (…4218 then …4281).
    """
    tens, units = (sequence // 10) % 10, sequence % 10
    if units <= tens:
        return None
    return sequence - tens * 10 - units + units * 10 + tens


def one_digit_apart(sequence: int) -> int:
    """A larger sequence that differs from `sequence` in exactly one digit (hundreds or up)."""
    place = 100
    while (sequence // place) % 10 == 9:
        place *= 10
    return sequence + place
