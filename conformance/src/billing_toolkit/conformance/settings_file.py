"""The YAML settings file: every option of `verify` but the API keys, each of its YAML type.

The file is committed next to a team's CI configuration, so it never holds a key, and what
YAML parsed is taken as it is: `allow_writes: "false"` is a string where a boolean belongs,
an error, never a truthy value that enables writes. Bias: any doubt about the file (too
big, not UTF-8, not YAML, a key twice, an unknown key) is a one-line error naming the file
and the line or key, before a request is sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import StrictBool, StrictFloat, StrictInt, StrictStr, TypeAdapter, ValidationError

from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.exchange import API_KEY_VARIABLE
from billing_toolkit.conformance.settings import FILE_KEYS, FILE_OPTIONS, SECRET_KEYS, Kind, quoted

MAX_SETTINGS_BYTES = 64 * 1024

_YAML_TYPES: dict[Kind, TypeAdapter[object]] = {
    Kind.TEXT: TypeAdapter[object](StrictStr),
    Kind.FLAG: TypeAdapter[object](StrictBool),
    Kind.WHOLE: TypeAdapter[object](StrictInt),
    Kind.SECONDS: TypeAdapter[object](StrictInt | StrictFloat),
    Kind.NAMES: TypeAdapter[object](StrictStr | list[StrictStr]),
}


class _StrictLoader(yaml.SafeLoader):
    """PyYAML's safe loader, except that a key given twice is an error, not "last wins"."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[object] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, str) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} is given twice", key_node.start_mark
                )
            seen.add(key if isinstance(key, str) else id(key))
        return super().construct_mapping(node, deep=deep)


def read_settings_file(path: Path) -> dict[str, Any]:
    """The YAML settings file as a dict of known keys with values of their kind; anything
    else (unreadable, too big, not YAML, a key twice, unknown, mistyped) is a one-line error."""
    data = parse_settings_file(path)
    check_file_values(path, data)
    return data


def parse_settings_file(path: Path) -> dict[str, Any]:
    """The YAML mapping of the file, keys unchecked but API keys refused (one-line errors);
    the CLI reads it in two steps so the output paths of a mistyped file still get files."""
    try:
        if path.exists() and not path.is_file():  # a directory, a FIFO, /dev/zero
            raise KitError(f"cannot read settings file {path}: not a regular file")
        if path.stat().st_size > MAX_SETTINGS_BYTES:
            raise KitError(f"settings file {path} is larger than {MAX_SETTINGS_BYTES} bytes")
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise KitError(f"cannot read settings file {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise KitError(f"settings file {path} is not UTF-8 text (byte {exc.start})") from exc
    try:
        data = yaml.load(text, Loader=_StrictLoader)  # a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = exc.problem or exc.context or "syntax error"
        raise KitError(f"settings file {path} is not valid YAML{where}: {problem}") from exc
    except yaml.YAMLError as exc:
        raise KitError(f"settings file {path} is not valid YAML: {exc}") from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise KitError(f"settings file {path} must hold a mapping of settings (key: value)")
    if SECRET_KEYS & data.keys():
        raise KitError(
            f"settings file {path} holds an API key: keep keys out of files, "
            f"use --api-key or ${API_KEY_VARIABLE}"
        )
    return data


def check_file_values(path: Path, data: Mapping[Any, Any]) -> None:
    """A one-line error for the first unknown key or value of the wrong YAML kind (its
    bounds and formats are the settings model's, the same as a flag's)."""
    unknown = sorted(str(key) for key in data if key not in FILE_KEYS)
    if unknown:
        raise KitError(
            f"settings file {path}: unknown key(s) {', '.join(map(quoted, unknown))} "
            f"(known: {', '.join(sorted(FILE_KEYS))})"
        )
    for key, value in data.items():
        kind = FILE_OPTIONS[key]
        try:
            _YAML_TYPES[kind].validate_python(value)
        except ValidationError:
            got = (
                f"got {_yaml_type(value)} {quoted(value)}" if value is not None else "got no value"
            )
            raise KitError(f"settings file {path}: {key} must be {kind}, {got}") from None


def _yaml_type(value: object) -> str:
    if isinstance(value, bool):
        return "the boolean"
    if isinstance(value, int | float):
        return "the number"
    if isinstance(value, str):
        return "the string"
    if isinstance(value, list):
        return "the list"
    if isinstance(value, dict):
        return "the mapping"
    return f"a {type(value).__name__}"
