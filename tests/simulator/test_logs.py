"""One JSON line per request, with its request id, and identifiers masked."""

from __future__ import annotations

import io
import json
import logging
import re

from billing_toolkit.contract.masking import mask
from billing_toolkit.simulator.endpoint import new_request_id
from billing_toolkit.simulator.logs import JsonFormatter
from tests.simulator.conftest import Sim


def test_mask_keeps_two_digits_at_each_end() -> None:
    assert mask("/v1/customers/1000004821/balance") == "/v1/customers/10******21/balance"
    assert mask("phone=+584121234567") == "phone=+58********67"
    assert mask("V-12345678 J-12345678-9 0412-1234567") == "V-12****78 J-12*****8-9 04**-*****67"
    assert mask("INV-2026-004281 PAY-0000012345") == "INV-2026-004281 PAY-0000012345"


def test_generated_request_ids_are_distinct_and_never_look_like_an_identifier() -> None:
    ids = {new_request_id() for _ in range(2000)}
    assert len(ids) == 2000
    assert all(re.fullmatch(r"req-[a-p]{16}", i) and mask(i) == i for i in ids)


def test_each_request_logs_one_masked_line(sim: Sim) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("billing_sim")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        sample = sim.sample("individual")
        response = sim.get("/v1/customer-lookup", params={"national_id": sample["national_id"]})
        sim.get(f"/v1/customers/{sample['account_number']}/balance")
    finally:
        logger.removeHandler(handler)
    text = stream.getvalue()
    lines = [json.loads(line) for line in text.splitlines()]
    assert [line["operation_id"] for line in lines] == ["lookupCustomer", "getBalance"]
    assert lines[0]["request_id"] == response.headers["x-request-id"] and lines[0]["status"] == 200
    assert lines[1]["tenant"] == "fibranet"
    for secret in (sample["national_id"], sample["account_number"], sample["phone"]):
        assert secret not in text
