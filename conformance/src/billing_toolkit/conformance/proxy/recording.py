"""Traffic as a file: one JSON object per line per exchange, masked by default.

Masking is the kit's one policy (`billing_toolkit.contract.masking.mask`: first and last two
digits of every account number, phone and national ID kept), written with each hidden digit
as `0` instead of `*`: `1000004821` is recorded as `1000000021`, `+584121234567` as
`+580000000067`. The recording then still matches the contract's identifier formats, so a
replay judges it exactly as the live proxy judged the original and reaches the same
verdicts. API keys and other secrets are never recorded, `--no-mask` or not: headers,
query parameters and JSON fields named like a secret (the kernel's one policy,
`masking.secret_name`: `Authorization`, `X-Api-Key`, `client_secret`, `password`, `sig`, …)
and token-shaped values are always `[redacted]`.
Bias: mask anything that looks like an identifier (a lost digit of context costs nothing).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.exchange import Exchange
from billing_toolkit.contract.masking import REDACTED, mask, mask_secrets, redact_named, secret_name

FORMAT_VERSION = 1
MAX_LINE_CHARS = 8 * 1024 * 1024
"""A recorded line longer than this is refused (the proxy bounds bodies far below it)."""
_ESCAPED_PLUS = re.compile("%2b")


class RecordingError(KitError):
    """A recording that cannot be read: the file and line, in one sentence."""


def zero_masked(text: str) -> str:
    """`text` masked by the kit's policy, each hidden digit written as `0` (same length,
    same format); text the policy does not touch comes back unchanged."""
    hidden = mask(text)
    if hidden == text or len(hidden) != len(text):
        return hidden
    return "".join(
        "0" if shown == "*" and kept != "*" else kept
        for shown, kept in zip(hidden, text, strict=True)
    )


def _zero_masked_url(url: str) -> str:
    """A URL masked like text, an escaped `+` (`%2B584…`, as clients send an E.164 phone in a
    query) masked as the phone it is: the digits of the escape itself are not the phone's."""
    head, *escaped = url.split("%2B")
    return zero_masked(head) + "".join("%2B" + zero_masked("+" + part)[1:] for part in escaped)


def _headers(headers: Mapping[str, str], masked: bool) -> dict[str, str]:
    shown = {}
    for name, value in headers.items():
        if secret_name(name):
            shown[name] = REDACTED
        else:
            shown[name] = mask_secrets(zero_masked(value) if masked else value)
    return shown


def _named_secrets_redacted(text: str) -> str:
    """A JSON body with its secret-named fields redacted; the text as it was when it has
    none (or is no JSON), so a replay judges the bytes the upstream sent."""
    try:
        document = json.loads(text)
    except ValueError:
        return text
    redacted = redact_named(document)
    return text if redacted == document else json.dumps(redacted, ensure_ascii=False)


def _text(body: bytes | None, masked: bool) -> str | None:
    if body is None:
        return None
    text = _named_secrets_redacted(body.decode("utf-8", errors="replace"))
    return mask_secrets(zero_masked(text) if masked else text)


def exchange_line(exchange: Exchange, *, masked: bool = True) -> str:
    """The JSON line of one exchange (masked unless `masked=False`; secrets always hidden)."""
    url = _ESCAPED_PLUS.sub("%2B", exchange.url)
    record = {
        "v": FORMAT_VERSION,
        "method": exchange.method,
        "url": mask_secrets(_zero_masked_url(url) if masked else url),
        "request_headers": _headers(exchange.request_headers, masked),
        "request_body": _text(exchange.request_body, masked),
        "status": exchange.status,
        "response_headers": _headers(exchange.response_headers, masked),
        "response_body": _text(exchange.response_body, masked),
    }
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


class Recorder:
    """Appends exchanges to an open file, one flushed line each (a crash loses no line)."""

    def __init__(self, stream: IO[str], *, masked: bool = True) -> None:
        self._stream = stream
        self.masked = masked

    def record(self, exchange: Exchange) -> None:
        self._stream.write(exchange_line(exchange, masked=self.masked) + "\n")
        self._stream.flush()


def _exchange(record: Any, where: str) -> Exchange:
    if not isinstance(record, dict) or record.get("v") != FORMAT_VERSION:
        raise RecordingError(
            f"{where}: not a billing-contract proxy recording (format v{FORMAT_VERSION})"
        )
    try:
        request_body = record["request_body"]
        return Exchange(
            method=str(record["method"]),
            url=str(record["url"]),
            request_headers={str(k): str(v) for k, v in record["request_headers"].items()},
            request_body=None if request_body is None else str(request_body).encode(),
            status=int(record["status"]),
            response_headers={str(k): str(v) for k, v in record["response_headers"].items()},
            response_body=str(record["response_body"] or "").encode(),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RecordingError(f"{where}: a recorded exchange lacks or mistypes {exc}") from None


def read_recording(path: Path) -> Iterator[Exchange]:
    """The exchanges of a recording in order; `RecordingError` naming the first bad line."""
    try:
        stream = path.open(encoding="utf-8", errors="strict")
    except OSError as exc:
        raise RecordingError(f"cannot read recording {path}: {exc.strerror or exc}") from None
    with stream:
        try:
            for number, line in enumerate(iter(lambda: stream.readline(MAX_LINE_CHARS + 1), ""), 1):
                where = f"{path}:{number}"
                if len(line) > MAX_LINE_CHARS:
                    raise RecordingError(f"{where}: line longer than {MAX_LINE_CHARS} characters")
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except ValueError:
                    raise RecordingError(f"{where}: not a JSON line") from None
                yield _exchange(record, where)
        except UnicodeDecodeError:
            raise RecordingError(f"{path}: not UTF-8 text") from None
