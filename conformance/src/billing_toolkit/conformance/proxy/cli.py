"""`billing-contract proxy --upstream URL` and `billing-contract proxy-replay FILE`.

`proxy` listens (loopback by default), forwards every request to the upstream, judges each
exchange live (one masked line per violation on stderr, with its rule id) and, when stopped
with SIGINT or SIGTERM, writes the report (`--report` .json/.md, `--junit-xml`).
`proxy-replay` judges a recording made with `--record` and writes the same report.
Exit codes: 0 no violation, 1 at least one, 2 bad arguments (bad --upstream URL, bad port,
unwritable record or report file, unreadable recording): one line on stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import socket
import sys
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

import uvicorn

from billing_toolkit.conformance.errors import KitError
from billing_toolkit.conformance.proxy.replay import replay_session
from billing_toolkit.conformance.proxy.server import LOOPBACK, open_proxy, uvicorn_config
from billing_toolkit.conformance.proxy.session import Session
from billing_toolkit.conformance.reporting.outputs import write_outputs
from billing_toolkit.conformance.settings import MAX_URL_CHARS, output_paths, quoted
from billing_toolkit.contract.cli import EXIT_FAILURE, EXIT_OK, port

DEFAULT_PORT = 8081
PREFIX = "billing-contract proxy: "


def upstream_url(value: str) -> str:
    """The upstream base URL: http(s), a host, no query or fragment (argparse type)."""
    try:
        parts = urlsplit(value)
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        parts, port_ok = None, False
    if (
        parts is None
        or len(value) > MAX_URL_CHARS
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or not port_ok
        or parts.query
        or parts.fragment
    ):
        raise argparse.ArgumentTypeError(
            f"must be an http(s) base URL such as http://127.0.0.1:8080, got {quoted(value)}"
        )
    return value.rstrip("/")


def register(subparsers: Any) -> None:
    """Add `proxy` and `proxy-replay` to the `billing-contract` sub-commands."""
    proxy = subparsers.add_parser(
        "proxy",
        help="validating reverse proxy: judge live traffic against the contract",
        description="Forward traffic to --upstream and judge every exchange against the "
        "contract's schemas and rules; violations are logged live (masked) and reported on exit.",
    )
    proxy.add_argument(
        "--upstream", required=True, type=upstream_url, help="the billing API's base URL"
    )
    proxy.add_argument(
        "--host", default=LOOPBACK, help=f"address to listen on (default {LOOPBACK})"
    )
    proxy.add_argument(
        "--port",
        type=port,
        default=DEFAULT_PORT,
        help=f"port (default {DEFAULT_PORT}; 0: any free)",
    )
    proxy.add_argument(
        "--record", type=Path, help="record every exchange here (JSON lines, masked)"
    )
    proxy.add_argument(
        "--no-mask",
        action="store_true",
        help="record identifiers unmasked (API keys are never recorded)",
    )
    _output_options(proxy)
    proxy.set_defaults(run=run_proxy)
    replayed = subparsers.add_parser(
        "proxy-replay",
        help="judge a recording made with `proxy --record`, as the live proxy did",
    )
    replayed.add_argument("recording", type=Path, metavar="FILE")
    _output_options(replayed)
    replayed.set_defaults(run=run_replay)


def _output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--report", type=Path, help="write the report here: .json or .md")
    parser.add_argument(
        "--junit-xml", type=Path, help="write JUnit XML here (one case per rule id)"
    )


def _log(line: str) -> None:
    print(PREFIX + line, file=sys.stderr, flush=True)


def _finish(session: Session, args: argparse.Namespace, shown_upstream: str) -> int:
    outputs = output_paths({"junit_xml": args.junit_xml, "report": args.report})
    write_outputs(outputs, session.report(shown_upstream), {})
    total = sum(session.violated.values())
    _log(f"{session.exchanges} exchanges, {total} violations")
    return EXIT_FAILURE if total else EXIT_OK


def _open_record(path: Path | None) -> IO[str] | None:
    if path is None:
        return None
    try:
        return path.open("w", encoding="utf-8")
    except OSError as exc:
        raise KitError(f"--record {path}: cannot write: {exc.strerror or exc}") from None


def _check_listen(host: str, port: int) -> None:
    """Refuse an address that cannot be bound before anything starts (uvicorn would log a
    multi-line error and exit)."""
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        raise KitError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


async def _serve(server: uvicorn.Server, upstream: str) -> None:
    task = asyncio.create_task(server.serve())
    while not server.started and not task.done():
        await asyncio.sleep(0.01)
    if server.started:
        host, port = server.servers[0].sockets[0].getsockname()[:2]
        _log(f"listening on http://{host}:{port} → {upstream} (Ctrl-C writes the report)")
    await task


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM as SIGINT: uvicorn re-raises the signal that stopped it, and the report must
    still be written after a `kill` from CI, not only after Ctrl-C."""
    raise KeyboardInterrupt


def run_proxy(args: argparse.Namespace, console: object = None) -> int:
    output_paths({"junit_xml": args.junit_xml, "report": args.report})
    _check_listen(args.host, args.port)
    record = _open_record(args.record)
    try:
        run = open_proxy(args.upstream, log=_log, record=record, masked=not args.no_mask)
        server = uvicorn.Server(uvicorn_config(run.app, args.host, args.port))
        previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            asyncio.run(_serve(server, _shown(args.upstream)))
        except KeyboardInterrupt:
            pass  # uvicorn shut down gracefully, then re-raised the signal it captured
        except SystemExit:
            raise KitError(f"cannot listen on {args.host}:{args.port}") from None
        finally:
            signal.signal(signal.SIGTERM, previous)
        return _finish(run.session, args, _shown(args.upstream))
    finally:
        if record is not None:
            record.close()


def run_replay(args: argparse.Namespace, console: object = None) -> int:
    output_paths({"junit_xml": args.junit_xml, "report": args.report})
    session = replay_session(args.recording, log=_log)
    return _finish(session, args, f"replay of {args.recording}")


def _shown(url: str) -> str:
    """The upstream without credentials, for the log and the report."""
    parts = urlsplit(url)
    netloc = parts.hostname or ""
    if parts.port:
        netloc += f":{parts.port}"
    return parts._replace(netloc=netloc).geturl()
