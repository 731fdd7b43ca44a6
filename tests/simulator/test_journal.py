"""The request journal: what a client sent and got, through the admin API and in-process.

Each test plays a QA engineer's question ("did my client retry exactly twice?", "what did
it send?") or a guard the journal must keep (Authorization never kept, identifiers masked,
bounded memory, bad filters refused with a 400 naming the parameter).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from starlette.types import Message

from billing_toolkit.simulator.cli import main as cli_main
from billing_toolkit.simulator.journal import BODY_KEPT, JournalQuery, RequestJournal
from billing_toolkit.simulator.middleware import RequestContextMiddleware
from tests.simulator.conftest import ADMIN, Sim, small_config


@pytest.fixture
def tiny() -> Iterator[Sim]:
    simulator = Sim(small_config(journal_size=3))
    with simulator.client:
        yield simulator


def _journal(sim: Sim, **params: Any) -> list[dict[str, Any]]:
    answer = sim.client.get("/_sim/requests", headers=ADMIN, params=params)
    assert answer.status_code == 200, answer.text
    return list(answer.json()["data"])


def _count(sim: Sim, **params: Any) -> int:
    answer = sim.client.get("/_sim/requests/count", headers=ADMIN, params=params)
    assert answer.status_code == 200, answer.text
    return int(answer.json()["count"])


def test_a_served_request_is_recorded_with_what_qa_asks_about(sim: Sim) -> None:
    account = sim.sample("open_invoice")["account_number"]
    answer = sim.get(f"/v1/customers/{account}/balance", headers={"X-Request-Id": "qa-run-7"})
    assert answer.status_code == 200
    [entry] = _journal(sim)
    assert entry["request_id"] == "qa-run-7"
    assert (entry["method"], entry["operation_id"], entry["tenant"], entry["status"]) == (
        "GET", "getBalance", "fibranet", 200,
    )  # fmt: skip
    assert entry["faults"] == [] and entry["duration_ms"] >= 0
    assert account not in entry["path"] and entry["path"].startswith("/v1/customers/")


def test_a_retry_test_counts_the_failed_attempts_too(sim: Sim) -> None:
    """The fault layer answers before the endpoint runs: the entry must still name the
    operation and tenant, or `count(operation=...)` misses exactly the retries."""
    account = sim.sample("open_invoice")["account_number"]
    sim.control.faults.add("http_503", operation="getBalance", times=2)
    statuses = [sim.get(f"/v1/customers/{account}/balance").status_code for _ in range(3)]
    assert statuses == [503, 503, 200]
    assert _count(sim, operation="getBalance") == 3
    assert _count(sim, operation="getBalance", status=503, tenant="fibranet") == 2
    failed = _journal(sim, status=503)
    assert [entry["faults"] for entry in failed] == [["http_503"], ["http_503"]]
    assert _count(sim, operation="createPayment") == 0


def test_authorization_is_never_kept_and_identifiers_are_masked(sim: Sim) -> None:
    account = sim.sample("overdue")["account_number"]
    key = sim.fibranet["api_key"]
    sim.client.post(
        f"/v1/customers/{account}/payments",
        headers={**sim.auth(), "Idempotency-Key": "pay-1", "X-Echo": key, "Cookie": "s=1"},
        json={"amount": "1.00", "currency": "USD", "method": "pago_movil",
              "reference": "004512873301", "note": f"for {account}"},
    )  # fmt: skip
    sim.get("/v1/customers/lookup", params={"account_number": account, "api_key": key})
    for stored in sim.control.requests.journal.entries():  # dropped before the append
        assert {name for name, _ in stored.headers} & {b"authorization", b"cookie"} == set()
    served = str(_journal(sim))
    assert key not in served and account not in served
    assert "authorization" not in served and "cookie" not in served
    payment = _journal(sim, operation="createPayment")[0]
    assert payment["body"]["reference"] == "004512873301"
    assert payment["body"]["note"].startswith("for 10") and account not in payment["body"]["note"]
    assert payment["headers"]["x-echo"] == "[redacted]"


def test_a_body_field_finds_the_request_that_sent_it(sim: Sim) -> None:
    account = sim.sample("overdue")["account_number"]
    sim.pay(account, "pay-a", "1.00")
    sim.pay(account, "pay-b", "2.00")
    assert _count(sim, body="amount=2.00") == 1
    assert _count(sim, body="reference=004512873301") == 2
    assert _count(sim, body="amount=9.99") == 0
    assert _count(sim, body="missing.field=1") == 0
    # filtering by an account number in the body matches the raw value; the answer is masked
    assert sim.control.requests.count(body={"currency": "USD"}, operation="createPayment") == 2


def test_body_dot_field_parameters_filter_as_wiremock_users_write_them(sim: Sim) -> None:
    account = sim.sample("overdue")["account_number"]
    sim.pay(account, "pay-a", "1.00")
    sim.pay(account, "pay-b", "2.00")
    assert _count(sim, **{"body.amount": "2.00"}) == 1
    assert _count(sim, **{"body.reference": "004512873301", "body.amount": "1.00"}) == 1
    assert _count(sim, **{"body.amount": "2.00", "body.currency": "EUR"}) == 0  # all must hold
    # the first form and the new one together, on different fields
    assert _count(sim, body="currency=USD", **{"body.amount": "1.00"}) == 1
    [entry] = _journal(sim, **{"body.amount": "2.00"})
    assert entry["operation_id"] == "createPayment" and entry["body"]["amount"] == "2.00"


def test_a_nested_body_field_is_a_dotted_path(sim: Sim) -> None:
    nested = b'{"amount": {"value": 5, "currency": "USD"}, "tags": ["a"], "paid": true}'
    sim.control.requests.journal.record(
        0.0, 0.0, "nested", "POST", "/v1/x", b"", None, None, 201, None, 0.001, [], nested
    )
    assert _count(sim, **{"body.amount.value": "5"}) == 1
    assert _count(sim, **{"body.amount.value": "5", "body.amount.currency": "USD"}) == 1
    assert _count(sim, **{"body.amount.value": "6"}) == 0
    assert _count(sim, **{"body.paid": "true", "body.amount": "5"}) == 0  # an object is not 5
    assert sim.control.requests.count(body={"amount.value": 5, "paid": True}) == 1


def test_no_read_ever_shows_an_authorization_header(sim: Sim) -> None:
    """Headers are kept as they came and dropped when read: whatever the case of the name
    (a server lowercases it, a direct ASGI caller may not), no read path lets one out."""
    key = sim.fibranet["api_key"]
    account = sim.sample("open_invoice")["account_number"]
    sim.get(f"/v1/customers/{account}/balance", headers={"Cookie": f"k={key}"})
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": f"/v1/customers/{account}/balance",
        "raw_path": f"/v1/customers/{account}/balance".encode(), "query_string": b"",
        "root_path": "", "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80),
        "headers": [(b"Authorization", f"Bearer {key}".encode()), (b"COOKIE", key.encode())],
    }  # fmt: skip
    sent: list[Message] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(sim.app(scope, receive, send))
    assert sent and _count(sim) == 2
    for entry in sim.control.requests.journal.entries():
        assert {name.lower() for name, _ in entry.headers} & {b"authorization", b"cookie"} == set()
    reads = [
        sim.client.get("/_sim/requests", headers=ADMIN).text,
        sim.client.get("/_sim/requests", headers=ADMIN, params={"operation": "getBalance"}).text,
        str(sim.control.requests.list()),
        str(sim.control.requests.journal.entries()),
    ]
    for read in reads:
        assert key not in read and "authorization" not in read.lower()
        assert "cookie" not in read.lower()


def test_the_journal_keeps_only_the_newest_entries(tiny: Sim) -> None:
    for _ in range(5):
        tiny.get("/health/live")
    entries = _journal(tiny)
    assert [entry["seq"] for entry in entries] == [3, 4, 5]
    assert tiny.client.get("/_sim/requests/count", headers=ADMIN).json() == {
        "count": 3,
        "capacity": 3,
    }


def test_journal_off_adds_no_layer_and_reads_empty() -> None:
    off = Sim(small_config(journal_size=0))
    with off.client:
        off.get("/health/live")
        assert _journal(off) == [] and _count(off) == 0
        assert off.client.get("/_sim/requests", headers=ADMIN).json()["capacity"] == 0
    assert _recorder(off) is None
    assert _recorder(Sim(small_config())) is not None


def _recorder(sim: Sim) -> object:
    """The journal recorder the request-context layer calls (None: the journal costs nothing)."""
    (context,) = [m for m in sim.app.user_middleware if m.cls is RequestContextMiddleware]
    return context.kwargs["recorder"]


def test_since_and_until_are_read_on_the_fault_clock(sim: Sim) -> None:
    sim.get("/health/live")
    sim.clock.advance(30)
    sim.get("/health/live", headers={"X-Request-Id": "later"})
    started = sim.control.requests.list()[0]["elapsed_s"]
    later = [entry["request_id"] for entry in _journal(sim, since=f"{started + 10:.3f}")]
    assert later == ["later"]
    assert _count(sim, until=f"{started + 10:.3f}") == 1
    assert _count(sim, since=f"{started:.6f}", until=f"{started + 30:.6f}") == 1


def test_admin_calls_and_the_docs_are_not_journaled_but_unknown_paths_are(sim: Sim) -> None:
    sim.client.get("/_sim/info", headers=ADMIN)
    sim.client.get("/openapi.yaml")
    sim.client.get("/docs/assets/docs-init.js")
    sim.get("/v1/no-such-thing")
    [entry] = _journal(sim)
    assert (entry["path"], entry["status"], entry["operation_id"]) == (
        "/v1/no-such-thing",
        404,
        None,
    )


def test_request_id_filter_limit_and_clear(sim: Sim) -> None:
    for number in range(4):
        sim.get("/health/live", headers={"X-Request-Id": f"r{number}"})
    assert [e["request_id"] for e in _journal(sim, request_id="r2")] == ["r2"]
    assert [e["request_id"] for e in _journal(sim, limit=2)] == ["r2", "r3"]
    assert sim.client.delete("/_sim/requests", headers=ADMIN).status_code == 204
    assert _count(sim) == 0


def test_a_long_body_is_cut_not_kept_whole() -> None:
    journal = RequestJournal(2)
    journal.record(0.0, 0.0, "r", "POST", "/x", b"", None, None, 400, [], 1.0, [],
                   b"{" + b"a" * (BODY_KEPT * 2))  # fmt: skip
    [entry] = journal.list()
    assert entry["body_truncated"] is True and len(entry["body"]) == BODY_KEPT
    assert journal.count(JournalQuery(body={"a": "b"})) == 0


BAD_FILTERS = [
    ({"status": "abc"}, "query.status"),
    ({"status": "99"}, "query.status"),
    ({"status": "600"}, "query.status"),
    ({"body": "x"}, "query.body"),
    ({"body": "no-equals-sign"}, "query.body"),
    ({"body": "a..b=1"}, "query.body"),
    ({"body": "=value"}, "query.body"),
    ({"since": "-1"}, "query.since"),
    ({"since": "soon"}, "query.since"),
    ({"until": "1e9"}, "query.until"),
    ({"since": "20", "until": "10"}, "query.until"),
    ({"operation": "x" * 200}, "query.operation"),
    ({"request_id": ""}, "query.request_id"),
    ({"body.": "x"}, "query.body."),
    ({"body..a": "x"}, "query.body..a"),
    ({"body.a.": "x"}, "query.body.a."),
    ({"body.a..b": "x"}, "query.body.a..b"),
    ({"body.note": "x" * 513}, "query.body.note"),
    ({"body": "reference=A", "body.reference": "B"}, "query.body.reference"),
    ((("body.amount", "1.00"), ("body.amount", "2.00")), "query.body.amount"),
    ({f"body.f{number}": "1" for number in range(17)}, "query.body"),
]


@pytest.mark.parametrize(("params", "field"), BAD_FILTERS)
@pytest.mark.parametrize("path", ["/_sim/requests", "/_sim/requests/count"])
def test_a_filter_that_cannot_apply_is_a_400_naming_it(
    sim: Sim, path: str, params: dict[str, str] | tuple[tuple[str, str], ...], field: str
) -> None:
    answer = sim.client.get(path, headers=ADMIN, params=params)
    assert answer.status_code == 400, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert field in [error["field"] for error in answer.json()["errors"]]


def test_an_overlong_body_field_path_is_a_400_naming_its_start(sim: Sim) -> None:
    answer = sim.client.get("/_sim/requests", headers=ADMIN, params={"body." + "f" * 300: "x"})
    assert answer.status_code == 400
    [error] = answer.json()["errors"]
    assert error["field"].startswith("query.body.fff") and "dotted field path" in error["message"]


@pytest.mark.parametrize("limit", ["0", "abc", "100001"])
def test_a_bad_limit_is_a_400(sim: Sim, limit: str) -> None:
    answer = sim.client.get("/_sim/requests", headers=ADMIN, params={"limit": limit})
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "query.limit"


def test_the_journal_needs_the_admin_token(sim: Sim) -> None:
    for method, path in (("GET", "/_sim/requests"), ("GET", "/_sim/requests/count"),
                         ("DELETE", "/_sim/requests")):  # fmt: skip
        answer = sim.client.request(method, path, headers=sim.auth())
        assert answer.status_code == 401


@pytest.mark.parametrize("size", ["-1", "abc", "100001"])
def test_a_bad_journal_size_is_one_line_and_exit_2(
    size: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli_main(["serve", "--journal-size", size])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--journal-size" in err


def test_a_request_cut_before_any_answer_is_recorded_without_a_status(sim: Sim) -> None:
    account = sim.sample("open_invoice")["account_number"]
    sim.control.faults.add("connection_reset", operation="getBalance", times=1)
    with pytest.raises(httpx.TransportError):
        sim.get(f"/v1/customers/{account}/balance")
    [entry] = _journal(sim)
    assert (entry["status"], entry["faults"], entry["operation_id"]) == (
        None, ["connection_reset"], "getBalance",
    )  # fmt: skip


def test_huge_headers_are_cut_with_a_marker_and_the_journal_stays_within_its_bytes() -> None:
    from billing_toolkit.simulator.journal import HEADERS_KEPT, TEXT_KEPT

    journal = RequestJournal(1000, max_bytes=1024 * 1024)
    megabyte = b"x" * (1024 * 1024)
    for index in range(300):  # 300 unauthenticated requests with a 1 MB header each
        journal.record(0.0, 0.0, f"r{index}", "GET", "/v1/plans" + "a" * 2 * TEXT_KEPT, megabyte,
                       None, None, 401, (), 0.001, [(b"x-big", megabyte), (b"x-after", b"1")],
                       b"")  # fmt: skip
    assert journal.kept_bytes <= 1024 * 1024
    entries = journal.list()
    assert len(entries) < 300 and entries[-1]["request_id"] == "r299"  # the oldest went first
    newest = entries[-1]
    assert newest["headers"]["x-big"].endswith("...[truncated]")
    assert len(newest["headers"]["x-big"]) <= HEADERS_KEPT and "x-after" not in newest["headers"]
    assert newest["query"].endswith("...[truncated]") and len(newest["path"]) <= TEXT_KEPT
    journal.clear()
    assert journal.kept_bytes == 0
