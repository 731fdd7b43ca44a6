"""Path templates: `/v1/invoices/{invoiceNumber}` compiled once into a matcher.

A template parameter is exactly one path segment (RFC 6570 simple expansion, as OpenAPI
means it): `[^/]+`. Bias: a path that does not match segment for segment is not the
operation — never guess across a `/`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import quote

_PARAMETER = re.compile(r"\{([^}/]+)\}")


@dataclass(frozen=True, slots=True)
class PathTemplate:
    """One operation's path template and its compiled matcher."""

    template: str
    names: tuple[str, ...] = field(init=False)
    regex: re.Pattern[str] = field(init=False)

    def __post_init__(self) -> None:
        parts = _PARAMETER.split(self.template)  # literal, name, literal, name...
        pattern = "".join(
            re.escape(part) if i % 2 == 0 else f"(?P<{part}>[^/]+)" for i, part in enumerate(parts)
        )
        object.__setattr__(self, "names", tuple(parts[1::2]))
        object.__setattr__(self, "regex", re.compile(f"^{pattern}\\Z"))

    @property
    def is_literal(self) -> bool:
        """True when the template has no parameter (a plain path)."""
        return not self.names

    def match(self, path: str) -> dict[str, str] | None:
        """The path parameters when `path` is this template, else None."""
        found = self.regex.match(path)
        return found.groupdict() if found else None

    def expand(self, **values: str) -> str:
        """The path with each parameter filled in, percent-encoded as one segment."""
        return _PARAMETER.sub(lambda m: quote(str(values[m.group(1)]), safe=""), self.template)
