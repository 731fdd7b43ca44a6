"""Exact identifiers in free text: invoice, account, payment numbers, cédula/RIF and phones.

An identifier is a lookup key, never a topic: "INV-2026-004281" and "INV-2026-004218" are as
different as two names. So detection keeps the literal as written and normalises only forms
the issuing system treats as the same key:

- case (`inv-2026-004281`, `v12345678`), Unicode dashes (`INV–2026–004281`) and character
  width (full-width `ＩＮＶ－２０２６－００４２８１`, read through NFKC) everywhere;
- surrounding spaces (the literal is trimmed);
- for a cédula, the thousands dots Venezuelans write (`V-12.345.678`) and a missing or
  spaced dash after the letter (`v12345678`, `V 12345678`) — the contract's lookup takes
  `V-12345678`;
- for a phone, separators and the local `0412…` form of a Venezuelan number (`+58412…`).

Nothing else: zeros are never dropped, inner spaces are never removed, digits are never
re-grouped. A normalised key validates against the contract's own format of its kind
(`billing_toolkit.contract.formats`), so a format changed in the contract changes here too;
the looser spellings searched for in text are the assistant's. Something that looks like an
invoice or account number but does not validate is still returned (with `normalized=None`)
so the assistant can say it was not found instead of answering about another one. Bias: when
in doubt, it is a (possibly invalid) identifier.

Plan codes (`PLN-FIBRA-100`) share the vocabulary but are catalogue entries, the same for
every subscriber, not keys of anyone's records: they are found only when asked for (the
retrieval analyzer indexes them), never by default, because every identifier the pipeline
finds is looked up and held as a hard constraint on the reply.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

from billing_toolkit.assistant.text.remembered import remembered
from billing_toolkit.contract.formats import IdentifierFormat, contract_formats

_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_DASH = f"[-{_DASHES}]"
_NOT_AFTER_WORD = r"(?<![0-9A-Za-z])"


class IdentifierKind(StrEnum):
    INVOICE = "invoice_number"
    ACCOUNT = "account_number"
    NATIONAL_ID = "national_id"
    PAYMENT = "payment_id"
    PHONE = "phone"
    PLAN = "plan_id"

    @property
    def contract_format(self) -> IdentifierFormat:
        """The contract schema a key of this kind must match to be valid."""
        return _FORMAT[self]


SUBSCRIBER_KINDS = frozenset(IdentifierKind) - {IdentifierKind.PLAN}
"""Keys of a subscriber's own records: what `find_identifiers` looks for unless told."""


@dataclass(frozen=True, slots=True)
class Identifier:
    """An identifier found in a text: its kind, the literal as written, and the canonical key.

    `normalized` is None when the literal has the shape of an identifier but does not
    validate (for instance `INV-2026-04281`, one digit short): a key that cannot exist.
    """

    kind: IdentifierKind
    literal: str
    normalized: str | None
    start: int
    end: int
    variant_of: str | None = None
    """For an invoice number written in a form that is *not* silently mapped (spaces,
    underscores or slashes between its groups, a missing `INV`, a look-alike letter, an
    extra character): the canonical number it reads as. Never looked up; only used to
    offer the subscriber's own invoices as labelled suggestions."""

    @property
    def valid(self) -> bool:
        return self.normalized is not None

    @property
    def key(self) -> tuple[IdentifierKind, str]:
        """What two mentions must share to be the same identifier."""
        return (self.kind, self.normalized or self.literal)


_FORMAT = {
    IdentifierKind.INVOICE: IdentifierFormat.INVOICE_NUMBER,
    IdentifierKind.ACCOUNT: IdentifierFormat.ACCOUNT_NUMBER,
    IdentifierKind.NATIONAL_ID: IdentifierFormat.NATIONAL_ID,
    IdentifierKind.PAYMENT: IdentifierFormat.PAYMENT_ID,
    IdentifierKind.PHONE: IdentifierFormat.PHONE,
    IdentifierKind.PLAN: IdentifierFormat.PLAN_ID,
}
"""Each kind's canonical form is the contract's schema of that name: a key is valid exactly
when the billing API would accept it."""
_VALID = {kind: contract_formats().identifier(kind.contract_format) for kind in IdentifierKind}


def _dashes_to_ascii(text: str) -> str:
    return re.sub(f"[{_DASHES}]", "-", text)


def _validated(kind: IdentifierKind, candidate: str) -> str | None:
    return candidate if _VALID[kind].fullmatch(candidate) else None


def _plain(kind: IdentifierKind, literal: str) -> str | None:
    """Case and dashes are the only equivalences for invoice, account, payment and plan ids."""
    return _validated(kind, _dashes_to_ascii(literal.strip()).upper())


def _national_id(literal: str) -> str | None:
    """`V-12.345.678` → `V-12345678`; `j123456789` → `J-12345678-9` (a J/G/P is always a RIF;
    a V/E is a RIF only when a dash sets off its check digit)."""
    text = _dashes_to_ascii(literal.strip()).upper()
    letter, rest = text[0], text[1:].lstrip(" -")
    digits = re.sub(r"[^0-9]", "", rest)
    is_rif = letter in "JGP" or "-" in rest
    candidate = f"{letter}-{digits[:8]}-{digits[8:]}" if is_rif else f"{letter}-{digits}"
    return _validated(IdentifierKind.NATIONAL_ID, candidate)


def normalize_phone(literal: str) -> str | None:
    """E.164 form of a phone written `+58 412-1234567`, `584121234567` or `0412-1234567`.

    Separators are cosmetic; a Venezuelan local number (leading `0`, eleven digits) is the
    same line as `+58` followed by the digits after the `0`. None when it is not a phone.
    """
    text = literal.strip()
    digits = re.sub(r"[\s().-]", "", text).lstrip("+")
    if not digits.isdigit():
        return None
    if not text.startswith("+") and digits.startswith("0") and len(digits) == 11:
        digits = "58" + digits[1:]
    return _validated(IdentifierKind.PHONE, "+" + digits)


_RIF_CHECK = rf"{_DASH}[0-9](?![0-9])"
_CONFUSABLE_I = "I\u0406\u0399l1|\u0131"
_INV = rf"[{_CONFUSABLE_I}][N\u039d\u041d][V\u0474]"
"""`INV`, and the look-alikes a hand or a keyboard substitutes: Cyrillic І, Greek Ι, a
lowercase l or a 1 for the I; Greek Ν / Cyrillic Н for the N; Cyrillic Ѵ for the V."""
_PATTERNS: tuple[tuple[IdentifierKind, re.Pattern[str]], ...] = (
    # Invoice-shaped: INV, an optional dash, then digit groups joined by dashes.
    # Extra letters or digits glued on the end belong to the literal (INV-2026-008263A is
    # not INV-2026-008263); spaces, underscores and slashes between groups are read too.
    (
        IdentifierKind.INVOICE,
        re.compile(
            rf"{_NOT_AFTER_WORD}{_INV}[\s_/]?{_DASH}?[\s_/]?[0-9]+(?:[\s_/]?{_DASH}?[\s_/]?[0-9]+)?"
            rf"(?:\s?{_DASH}\s?[0-9]+)*[0-9A-Za-z]*",
            re.IGNORECASE,
        ),
    ),
    # A bare `2026-008263`: the number without its prefix.
    (
        IdentifierKind.INVOICE,
        re.compile(rf"(?<![0-9A-Za-z/.,-])20[0-9]{{2}}{_DASH}[0-9]{{6}}(?![0-9A-Za-z])"),
    ),
    (
        IdentifierKind.PAYMENT,
        re.compile(rf"{_NOT_AFTER_WORD}PAY{_DASH}[0-9]{{10}}(?![0-9])", re.IGNORECASE),
    ),
    (
        IdentifierKind.PLAN,
        re.compile(rf"{_NOT_AFTER_WORD}PLN(?:{_DASH}[0-9A-Z]+)+(?![0-9A-Za-z])", re.IGNORECASE),
    ),
    # RIF: J/G/P with optional dashes; V/E only with the dash before the check digit, so a
    # nine-digit cédula `V-123456789` is not misread as a RIF.
    (
        IdentifierKind.NATIONAL_ID,
        re.compile(
            rf"{_NOT_AFTER_WORD}(?:[JGP]{_DASH}?[0-9]{{8}}{_DASH}?[0-9](?![0-9])"
            rf"|[VE]{_DASH}?[0-9]{{8}}{_RIF_CHECK})",
            re.IGNORECASE,
        ),
    ),
    (
        IdentifierKind.NATIONAL_ID,
        re.compile(
            rf"{_NOT_AFTER_WORD}[VE](?:{_DASH}|\s)?(?:[0-9]{{1,3}}(?:\.[0-9]{{3}}){{1,2}}|[0-9]{{6,9}})"
            r"(?![0-9]|[.,][0-9])",
            re.IGNORECASE,
        ),
    ),
    (
        IdentifierKind.PHONE,
        re.compile(
            r"(?<![0-9A-Za-z+])(?:\+[1-9](?:[\s-]?[0-9]){7,14}|0[24][0-9]{2}(?:[\s-]?[0-9]){7})"
            r"(?![0-9])"
        ),
    ),
    (
        IdentifierKind.ACCOUNT,
        re.compile(
            r"(?<![0-9A-Za-z+.,/-])"
            + contract_formats().searchable(IdentifierFormat.ACCOUNT_NUMBER)
            + r"(?![0-9]|[.,][0-9])"
        ),
    ),
    # A number introduced as an account number but not shaped like one: "cuenta 10000048".
    (
        IdentifierKind.ACCOUNT,
        re.compile(
            r"\b(?:cuenta|account|contrato)(?:\s+(?:n(?:o|ro|um|°|º)\.?|number|numero|número|#))?"
            r"(?:\s+(?:es|is))?:?\s*([0-9][0-9 .-]{4,}[0-9])(?![0-9]|[.,][0-9])",
            re.IGNORECASE,
        ),
    ),
)


def _invoice_reading(literal: str) -> str | None:
    """What a non-canonical invoice spelling reads as: look-alike letters as `INV`, groups
    joined by dashes, a missing prefix added, one glued-on trailing character dropped."""
    digits = re.findall(r"[0-9]+", literal)
    joined = "".join(digits)
    if len(joined) != 10:
        return None
    return f"INV-{joined[:4]}-{joined[4:]}"


_NORMALIZERS = {
    IdentifierKind.INVOICE: lambda literal: _plain(IdentifierKind.INVOICE, literal),
    IdentifierKind.ACCOUNT: lambda literal: _plain(IdentifierKind.ACCOUNT, literal),
    IdentifierKind.PAYMENT: lambda literal: _plain(IdentifierKind.PAYMENT, literal),
    IdentifierKind.NATIONAL_ID: _national_id,
    IdentifierKind.PHONE: normalize_phone,
    IdentifierKind.PLAN: lambda literal: _plain(IdentifierKind.PLAN, literal),
}


def _span(match: re.Match[str]) -> tuple[int, int]:
    return match.span(match.lastindex or 0)


def find_identifiers(
    text: str, kinds: Collection[IdentifierKind] = SUBSCRIBER_KINDS
) -> list[Identifier]:
    text = unicodedata.normalize("NFKC", text) if not text.isascii() else text
    return _find(text, kinds if isinstance(kinds, frozenset) else frozenset(kinds))


@remembered
def _find(text: str, kinds: frozenset[IdentifierKind]) -> list[Identifier]:
    """Every identifier of `kinds` in `text`, in order of appearance, without overlaps.

    Patterns are tried in a fixed priority (invoice, payment, plan, RIF, cédula, phone,
    account, introduced account); at a given position the first pattern to claim the text
    keeps it. Kinds not asked for are not tried at all, so they never claim text either.
    """
    taken: list[tuple[int, int]] = []
    found: list[Identifier] = []
    for kind, pattern in _PATTERNS:
        if kind not in kinds:
            continue
        for match in pattern.finditer(text):
            start, end = _span(match)
            if any(start < other_end and other_start < end for other_start, other_end in taken):
                continue
            literal = text[start:end]
            taken.append((start, end))
            normalized = _NORMALIZERS[kind](literal)
            variant = (
                _invoice_reading(literal)
                if kind is IdentifierKind.INVOICE and normalized is None
                else None
            )
            found.append(Identifier(kind, literal, normalized, start, end, variant))
    return sorted(found, key=lambda identifier: identifier.start)
