"""The request line written by `configure_logging`'s handler without a `LogRecord`: the
same JSON as the record path, masked, one line per request, and never a failed request."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import pytest

from billing_toolkit.simulator.logs import JsonFormatter, configure_logging, log_fields
from tests.simulator.conftest import Sim


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

    fields = {name: line[name] for name in list(line)[4:]} | {
        "request_id": "V-12345678",
        "path": f"/v1/customers/{sample['account_number']}/balance",
    }
    via_record = io.StringIO()
    record_handler = logging.StreamHandler(via_record)
    record_handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("billing_sim")
    logger.addHandler(record_handler)  # two handlers: the record path
    log_fields(logger, "request", fields)
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
