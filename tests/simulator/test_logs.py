"""One JSON line per request, with its request id, and identifiers masked."""

from __future__ import annotations

import io
import json
import logging
import re
from typing import Any

from billing_toolkit.contract.masking import mask, mask_all
from billing_toolkit.simulator.endpoint import new_request_id
from billing_toolkit.simulator.logs import JsonFormatter, configure_logging
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


def _logged(sim: Sim, *calls: tuple[str, dict[str, Any]]) -> str:
    """The request log lines `calls` produce, through the handler `serve` installs."""
    stream = io.StringIO()
    configure_logging("info", stream)  # put back after the test (`tests/simulator/conftest.py`)
    for path, options in calls:
        sim.client.get(path, **options)
    return stream.getvalue()


def test_keys_and_percent_encoded_identifiers_never_reach_the_log(sim: Sim) -> None:
    key = sim.fibranet["api_key"]
    sample = sim.sample("individual")
    phone_digits = sample["phone"].lstrip("+")
    national_id = sample["national_id"]
    text = _logged(
        sim,
        (
            f"/v1/customers/{sample['account_number']}/balance?api_key={key}",
            {"headers": sim.auth()},
        ),
        (f"/v1/customer-lookup?phone=%2b{phone_digits}", {"headers": sim.auth()}),
        (
            f"/v1/customer-lookup?national_id={national_id.replace('-', '%2D')}",
            {"headers": sim.auth()},
        ),
        (
            f"/v1/customer-lookup?national_id={national_id.replace('-', '%252D')}",
            {"headers": sim.auth()},
        ),
        ("/v1/plans", {"headers": {**sim.auth(), "X-Request-Id": key}}),
        ("/v1/plans", {"headers": {**sim.auth(), "X-Request-Id": "Bearer%20" + key[:20]}}),
        ("/v1/plans?token=sim-admin-dev-token&access_token=abc", {"headers": sim.auth()}),
    )
    lines = [json.loads(line) for line in text.splitlines()]
    assert len(lines) == 7
    for secret in (key, key[:20], phone_digits, national_id, national_id.replace("-", "%2D"),
                   "sim-admin-dev-token", "access_token=abc"):  # fmt: skip
        assert secret not in text, secret
    assert lines[0]["query"] == "api_key=[redacted]"
    assert lines[1]["query"].startswith("phone=+") and "*" in lines[1]["query"]
    assert lines[4]["request_id"] == "[redacted]"


def test_masking_decodes_first_and_redacts_token_shaped_values() -> None:
    assert mask_all("phone=%2b584121234567") == "phone=+58********67"
    assert mask_all("national_id=V%2D12345678") == "national_id=V-12****78"
    assert mask_all("id=%25%32%62584121234567").endswith("+58********67")  # encoded twice
    assert mask_all("api_key=sk_sim_fibranet_0123456789abcdef01234567&limit=5") == (
        "api_key=[redacted]&limit=5"
    )
    assert mask_all("Authorization: Bearer abc.def") == "Authorization: [redacted]"
    assert mask_all("req-abcdefabcdefabcd") == "req-abcdefabcdefabcd"
    assert mask_all("limit=10&status=open") == "limit=10&status=open"
