"""YAML as the simulator reads it from clients: safe, small and without aliases.

Every YAML the simulator takes from the network (a scenario on `POST /_sim/scenarios`, the QA
console's scenario box and "other fields" box, a `--scenario` file) is read with
`BoundedLoader`. PyYAML's safe loader still expands aliases: a 500-byte graph of anchors
(`a: &a [x, x]`, `b: &b [*a, *a]`, …) becomes billions of nodes as soon as an error message
or a JSON rendering walks it. So an alias is refused outright (a scenario never needs one),
and so are documents over `MAX_BYTES` or nested deeper than `MAX_DEPTH`. Every refusal is a
`yaml.YAMLError` with a mark, which the callers already turn into a one-line problem.
Bias: refuse — a scenario written by hand is a few kilobytes of plain mappings and lists.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.nodes import Node

MAX_BYTES = 64 * 1024
"""A scenario file is a few kilobytes; the largest shipped one is under 4."""
MAX_DEPTH = 24
"""Mappings and lists inside each other (a state machine's transition is 6 deep)."""
MAX_QUOTED = 80
"""Characters of a client's value an error message quotes."""


def quoted(value: object) -> str:
    """`repr(value)` cut to `MAX_QUOTED` characters: an error line never carries a whole
    client value, however large it is."""
    text = repr(value)
    return text if len(text) <= MAX_QUOTED else text[: MAX_QUOTED - 1] + "…"


class TooLarge(yaml.YAMLError):
    """A document over `MAX_BYTES`: refused before it is parsed."""

    def __init__(self, size: int) -> None:
        super().__init__(f"the document is {size} bytes; at most {MAX_BYTES} are read")
        self.problem = str(self)


class BoundedLoader(yaml.SafeLoader):
    """The safe loader, refusing aliases and nesting deeper than `MAX_DEPTH`."""

    def __init__(self, stream: str) -> None:
        size = len(stream.encode("utf-8", errors="replace"))
        if size > MAX_BYTES:
            raise TooLarge(size)
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:  # type: ignore[override]
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise ComposerError(
                None, None, "aliases (*name) are not accepted here", event.start_mark
            )
        if self._depth >= MAX_DEPTH:
            raise ComposerError(
                None, None, f"nested deeper than {MAX_DEPTH} levels", event.start_mark
            )
        self._depth += 1
        try:
            return super().compose_node(parent, index)  # type: ignore[misc]
        finally:
            self._depth -= 1


def load(text: str) -> Any:
    """One YAML document read with `BoundedLoader` (`yaml.YAMLError` when refused)."""
    loader = BoundedLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()
