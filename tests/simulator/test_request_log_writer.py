"""The request line written by `configure_logging`'s handler without a `LogRecord`: the
same JSON as the record path, masked, one line per request, and never a failed request."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import pytest

from billing_toolkit.simulator.logs import (
    REQUEST_QUEUES,
    JsonFormatter,
    JsonLinesHandler,
    configure_logging,
    log_request,
)
from billing_toolkit.simulator.request_record import unjournaled
from tests.simulator.conftest import ADMIN, Sim, small_config


def _lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_direct_line_matches_the_record_line_and_is_masked(sim: Sim) -> None:
    stream = io.StringIO()
    configure_logging("info", stream)
    sample = sim.sample("individual")
    response = sim.get(
        f"/v1/customers/{sample['account_number']}/balance",
        headers={"X-Request-Id": "V-12345678"},
    )
    [line] = _lines(stream)
    assert response.status_code == 200 and response.headers["x-request-id"] == "V-12345678"
    assert line["request_id"] == "V-12****78" and line["tenant"] == "fibranet"
    assert sample["account_number"] not in stream.getvalue()

    record = unjournaled(
        0.0, "V-12345678", line["method"], f"/v1/customers/{sample['account_number']}/balance",
        line["query"].encode(), line["operation_id"], line["tenant"], line["status"],
        tuple(line["faults"]), line["duration_ms"] / 1000,
    )  # fmt: skip
    via_record = io.StringIO()
    record_handler = logging.StreamHandler(via_record)
    record_handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("billing_sim")
    logger.addHandler(record_handler)  # two handlers: the record path
    log_request(logger, record)
    [recorded] = _lines(via_record)
    assert {**recorded, "ts": None} == {**line, "ts": None}


def test_warning_level_writes_no_request_line(sim: Sim) -> None:
    stream = io.StringIO()
    configure_logging("warning", stream)
    sample = sim.sample("individual")
    assert sim.get(f"/v1/customers/{sample['account_number']}/balance").status_code == 200
    assert stream.getvalue() == ""


def test_a_closed_log_stream_never_fails_the_request(
    sim: Sim, capsys: pytest.CaptureFixture[str]
) -> None:
    stream = io.StringIO()
    configure_logging("info", stream)
    stream.close()
    sample = sim.sample("individual")
    assert sim.get(f"/v1/customers/{sample['account_number']}/balance").status_code == 200
    assert "Logging error" in capsys.readouterr().err


def test_in_the_background_request_lines_wait_for_the_writer_and_keep_their_order(sim: Sim) -> None:
    """`serve`'s writer: a request only queues its line; the writer (here: never by itself)
    writes the queue in order, before any other line, and at `flush`."""
    from billing_toolkit.simulator.logs import JsonLinesHandler

    stream = io.StringIO()
    configure_logging("info", stream)
    logger = logging.getLogger("billing_sim")
    handler = logger.handlers[0]
    assert isinstance(handler, JsonLinesHandler)
    handler.write_in_background(every_s=3600)
    sample = sim.sample("individual")
    for _ in range(3):
        assert sim.get(f"/v1/customers/{sample['account_number']}/balance").status_code == 200
    assert stream.getvalue() == ""  # queued, not written during the requests
    logger.warning("after the requests")
    lines = _lines(stream)
    assert [line["message"] for line in lines] == ["request"] * 3 + ["after the requests"]
    assert sample["account_number"] not in stream.getvalue()
    sim.get(f"/v1/customers/{sample['account_number']}/balance")
    handler.close()
    assert len(_lines(stream)) == 5


@pytest.mark.parametrize(
    ("request_path", "operation_id", "tenant", "status"),
    [
        ("/v1/customers/{account}/balance", "getBalance", "fibranet", 200),
        ("/v1/customers/{account}/invoices?status=open&limit=2", "listInvoices", "fibranet", 200),
        ("/v1/customers/{account}/nowhere", None, "fibranet", 404),  # the router's 404
        ("/_sim/info", "getSimulatorInfo", None, 200),  # never journaled: the log's own record
    ],
)
def test_a_request_line_reads_the_same_with_the_journal_on_and_off(
    request_path: str, operation_id: str | None, tenant: str | None, status: int
) -> None:
    """With the journal on, the line is written from the journal's record of the request;
    off, from the log's own: a field read from the wrong place shows here."""
    seen = []
    for journal_size in (0, 100):
        simulator = Sim(small_config(journal_size=journal_size))
        stream = io.StringIO()
        configure_logging("info", stream)
        with simulator.client:
            path = request_path.format(account=simulator.sample("individual")["account_number"])
            headers = {"X-Request-Id": "V-12345678", **ADMIN, **simulator.auth()}
            if request_path.startswith("/_sim"):
                headers["Authorization"] = ADMIN["Authorization"]
            simulator.client.get(path, headers=headers)
        [line] = _lines(stream)
        seen.append({**line, "ts": None, "duration_ms": None})
    assert seen[0] == seen[1]
    line = seen[0]
    assert (line["operation_id"], line["tenant"], line["status"]) == (operation_id, tenant, status)
    assert line["method"] == "GET" and line["request_id"] == "V-12****78"
    assert line["query"] == ("status=open&limit=2" if "?" in request_path else "")


@pytest.mark.parametrize(
    ("sent", "logged"),
    [
        ("req-abcdefghijklmnop", "req-abcdefghijklmnop"),  # shaped like ours: as it is
        ("req-abcdef1000004821", None),  # our shape's length, an account number inside
        ("req-abcdefghijklmnop1000004821", None),  # ours, with an account number after
        ("1000004821", None),
    ],
)
def test_a_client_request_id_is_masked_unless_it_is_shaped_like_ours(
    sim: Sim, sent: str, logged: str | None
) -> None:
    stream = io.StringIO()
    configure_logging("info", stream)
    sim.get("/v1/plans", headers={"X-Request-Id": sent})
    [line] = _lines(stream)
    if logged is not None:
        assert line["request_id"] == logged
    else:
        assert "1000004821" not in line["request_id"] and line["request_id"] != sent


def test_a_batch_written_by_the_writer_reads_line_for_line_as_written_one_by_one(
    sim: Sim,
) -> None:
    """The writer renders a whole batch in one loop: each of its lines — its own id, query
    and mask — must read as that request's line written alone, in the order they came."""
    from billing_toolkit.simulator.logs import JsonLinesHandler

    account = sim.sample("individual")["account_number"]
    requests = [
        (f"/v1/customers/{account}/balance", {"X-Request-Id": "V-12345678"}),
        (
            f"/v1/customers/{account}/invoices?status=open&limit=2",
            {"X-Request-Id": "req-abcdefghijklmnop"},
        ),
        (f"/v1/customers/{account}/nowhere", {"X-Request-Id": "ref-1000004821"}),
    ]
    written = []
    for background in (False, True):
        stream = io.StringIO()
        configure_logging("info", stream)
        handler = logging.getLogger("billing_sim").handlers[0]
        assert isinstance(handler, JsonLinesHandler)
        if background:
            handler.write_in_background(every_s=3600)
        for path, headers in requests:
            sim.get(path, headers=headers)
        handler.close()
        written.append([{**line, "ts": None, "duration_ms": None} for line in _lines(stream)])
    alone, batched = written
    assert batched == alone and len(batched) == 3
    assert [line["request_id"] for line in batched] == [
        "V-12****78",
        "req-abcdefghijklmnop",
        "ref-10******21",
    ]
    assert batched[1]["query"] == "status=open&limit=2" and account not in str(batched)


def _background(level: str = "info") -> tuple[io.StringIO, JsonLinesHandler]:
    """`serve`'s set-up: the writer thread (flushed by hand here, never waited for)."""
    stream = io.StringIO()
    configure_logging(level, stream, background=True)
    handler = logging.getLogger("billing_sim").handlers[0]
    assert isinstance(handler, JsonLinesHandler)
    return stream, handler


def test_in_serves_set_up_a_request_only_queues_its_line_and_the_writer_writes_it(
    sim: Sim,
) -> None:
    stream, handler = _background()
    try:
        assert REQUEST_QUEUES["billing_sim"] == handler.queue_request
        account = sim.sample("individual")["account_number"]
        sim.get(f"/v1/customers/{account}/balance", headers={"X-Request-Id": "V-12345678"})
        handler.flush()
        [line] = _lines(stream)
        assert (line["operation_id"], line["request_id"]) == ("getBalance", "V-12****78")
        assert account not in stream.getvalue()
    finally:
        handler.close()
    assert "billing_sim" not in REQUEST_QUEUES  # a closed writer takes no more lines


def test_a_handler_added_after_serves_set_up_still_gets_every_request_line(sim: Sim) -> None:
    """The request path no longer checks the logger's set-up; the writer does, and hands
    the lines to `logging` once it is not its own alone."""
    stream, handler = _background()
    extra = io.StringIO()
    added = logging.StreamHandler(extra)
    added.setFormatter(JsonFormatter())
    logger = logging.getLogger("billing_sim")
    logger.addHandler(added)
    try:
        sim.get("/v1/plans")
        handler.flush()
        assert [line["path"] for line in _lines(extra)] == ["/v1/plans"]
        assert [line["path"] for line in _lines(stream)] == ["/v1/plans"]
    finally:
        logger.removeHandler(added)
        handler.close()


def test_a_level_raised_after_serves_set_up_writes_no_request_line(sim: Sim) -> None:
    stream, handler = _background()
    logger = logging.getLogger("billing_sim")
    try:
        logger.setLevel("WARNING")
        sim.get("/v1/plans")
        handler.flush()
        assert stream.getvalue() == ""
    finally:
        handler.close()


def test_serve_at_warning_queues_nothing_and_a_new_set_up_takes_the_lines(sim: Sim) -> None:
    quiet, old = _background("warning")
    assert REQUEST_QUEUES == {}  # `--log-level warning`: the request path pays nothing
    old.close()
    first, handler = _background()
    second = io.StringIO()
    configure_logging("info", second)  # set up again: the first writer gets no more lines
    try:
        assert REQUEST_QUEUES == {}
        sim.get("/v1/plans")
        handler.flush()
        assert (quiet.getvalue(), first.getvalue()) == ("", "")
        assert [line["path"] for line in _lines(second)] == ["/v1/plans"]
    finally:
        handler.close()
