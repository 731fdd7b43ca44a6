"""Which operation is this request? Contract paths in contract order, the first match winning.

The same rule Starlette's router applies, so the layers in front of it (faults, logs,
dispatch), the conformance kit and the proxy all agree with the route that will answer.
Per method, a path without parameters is one dict look-up; templated paths are tried in
order after it, unless a literal path listed earlier in the contract would win anyway.
"""

from __future__ import annotations

from collections.abc import Iterable

from billing_toolkit.contract.operations import Operation

Match = tuple[Operation, dict[str, str]]

REMEMBERED = 4096
"""Requests (method and path) whose answer a matcher keeps; past that it starts afresh."""


class OperationMatcher:
    """Matches (method, path) to the operation that serves it; HEAD is served by GET."""

    def __init__(self, operations: Iterable[Operation]) -> None:
        self._all: list[Operation] = []
        self._seen: dict[tuple[str, str], Match | None] = {}
        self._literal: dict[tuple[str, str], tuple[int, Operation]] = {}
        self._templated: dict[str, list[tuple[int, Operation]]] = {}
        for index, operation in enumerate(operations):
            self._all.append(operation)
            if operation.path.is_literal:
                key = (operation.method, operation.path.template)
                self._literal.setdefault(key, (index, operation))
            else:
                self._templated.setdefault(operation.method, []).append((index, operation))

    def methods(self, path: str) -> list[str]:
        """Every method the contract serves on `path` (HEAD comes with GET), for `Allow`."""
        found = {op.method for op in self._all if op.path.regex.match(path)}
        if "GET" in found:
            found.add("HEAD")
        return sorted(found)

    def match(self, method: str, path: str) -> Match | None:
        """The operation and its path parameters (a dict of the caller's own), or None for
        an undocumented request.

        The method is compared as sent, like Starlette's router: `get` is not `GET`. The
        answer is remembered per method and path (`REMEMBERED` of them, then forgotten all
        at once: a bound a client sending new paths cannot grow): clients ask the same few
        paths again and again, and each template tried costs a regex match — the balance,
        third of the templates, cost 1.5 µs of every request."""
        key = (method, path)
        try:
            found = self._seen[key]
        except KeyError:  # once per path: a hit is one look-up
            if len(self._seen) >= REMEMBERED:
                self._seen.clear()
            found = self._seen[key] = self._match(method, path)
        return (found[0], dict(found[1])) if found is not None else None

    def _match(self, method: str, path: str) -> Match | None:
        method = "GET" if method == "HEAD" else method
        literal = self._literal.get((method, path))
        for index, operation in self._templated.get(method, ()):
            if literal is not None and literal[0] < index:
                break
            if found := operation.path.regex.match(path):
                return operation, found.groupdict()
        return (literal[1], {}) if literal is not None else None

    def operation_for(self, method: str, path: str) -> Operation | None:
        """The operation a recorded request hits, without its parameters (the method in any
        case: recorders and fuzzers spell it differently)."""
        found = self.match(method.upper(), path)
        return found[0] if found else None
