"""`billing-assistant ask` and `chat` as a user runs them (in-process simulator, small dataset)."""

from __future__ import annotations

import io
import json

import pytest

from billing_toolkit.assistant.cli import main
from billing_toolkit.assistant.commands.turn_cli import converse
from billing_toolkit.assistant.runtime import AssistantConfig, open_assistant
from billing_toolkit.pytest_plugin import BillingSim
from tests.assistant.in_process_billing import billing_sim_runtime

SMALL = ["--customers", "40"]


pytestmark = pytest.mark.billing_sim(customers=40, shared=True)
"""The commands' dataset (seed 42, `SMALL`): same seed and size, same customers."""


@pytest.fixture
def phone(billing_sim: BillingSim) -> str:
    """The open-invoice customer's phone in the small dataset the commands start."""
    return str(billing_sim.sample("open_invoice")["phone"])


def test_ask_json_prints_the_outcome_and_its_trace(
    capsys: pytest.CaptureFixture[str], phone: str
) -> None:
    code = main(["ask", "¿Cuánto debo?", "--phone", phone, "--json", *SMALL])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["action"] == "reply" and "USD" in out["reply"]
    assert out["reason"] is None and out["agent_summary"] is None and out["citations"] == []
    stages = [record["stage"] for record in out["trace"]]
    assert stages[0] == "gate" and stages[-1] == "send"
    assert phone not in json.dumps(out["trace"])  # personal identifiers are masked


def test_ask_an_escalation_carries_both_summaries(
    capsys: pytest.CaptureFixture[str], phone: str
) -> None:
    code = main(["ask", "a human please", "--phone", phone, "--json", *SMALL])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["action"] == "escalate" and out["reason"] == "USER_REQUEST"
    assert out["agent_summary"]["es"] and out["agent_summary"]["en"]


def test_ask_counts_today_from_the_in_process_simulators_day(
    capsys: pytest.CaptureFixture[str], phone: str, billing_sim: BillingSim
) -> None:
    """The simulator's clock stands on its dataset's day, not on this machine's: "la tasa de
    hoy" is that day's rate (on the machine's clock it was a day with no rate at all)."""
    code = main(["ask", "¿cuál es la tasa bcv de hoy?", "--phone", phone, "--json", *SMALL])
    out = json.loads(capsys.readouterr().out)
    day = billing_sim.control.clock.now().date()
    assert code == 0 and out["action"] == "reply", out
    assert f"{day.day} de" in out["reply"] and str(day.year) in out["reply"]
    assert "No encontré" not in out["reply"]


def test_ask_prints_a_readable_outcome(capsys: pytest.CaptureFixture[str], phone: str) -> None:
    assert main(["ask", "¿cómo pago con zelle?", "--phone", phone, *SMALL]) == 0
    out = capsys.readouterr().out
    assert "action: reply" in out and "citations:" in out and "retrieval" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["ask", "hola", "--phone", "12"], "is not a phone number"),
        (["ask", "  ", "--phone", "+584121234567"], "the message is empty"),
        (
            ["ask", "hola", "--phone", "+584121234567", "--store-dsn", "mysql://x"],
            "unsupported conversation store DSN",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main([*argv, *SMALL] if "--customers" not in argv else argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("error: ") and message in err[-1]
    assert not any("Traceback" in line for line in err)


def test_chat_reads_lines_until_quit(billing_sim: BillingSim, phone: str) -> None:
    config = AssistantConfig(base_url=billing_sim.url, api_key=billing_sim.api_key)
    with (
        billing_sim_runtime(billing_sim) as runtime,
        open_assistant(config, **runtime) as assistant,
    ):
        out = io.StringIO()
        lines = io.StringIO(
            "¿cuánto debo?\n\nquiero hablar con un asesor\nhola\n"
            "/release\nhola\n/quit\nnever read\n"
        )
        assert converse(assistant.pipeline, phone, lines, out) == 0
    replies = [line for line in out.getvalue().splitlines() if line.startswith(("bot:", "["))]
    assert replies[0].startswith("bot: Según el sistema de facturación")
    assert replies[2].startswith("[escalated USER_REQUEST")
    assert replies[3] == "[silent: a person has this conversation]"
    assert replies[4] == "[the conversation is back with the bot]"
    assert replies[5].startswith("bot: ")
    assert "never read" not in out.getvalue()


def test_chat_ends_at_end_of_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], phone: str
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("hola\n"))
    assert main(["chat", "--phone", phone, *SMALL]) == 0
    assert "bot: " in capsys.readouterr().out


BAD_ARGUMENTS = [
    *(["serve", "--port", port] for port in ("99999", "-1", "0", "65536", "abc", "80.5", "")),
    *(["serve", "--workers", workers] for workers in ("0", "-3", "100000", "x")),
    ["serve", "--log-level", "loud"],
    ["serve", "--bogus"],
    *(["fake-graph", "--port", port] for port in ("99999", "-1", "0", "nine")),
    *(
        ["kb", "search", "pago", "--margin", margin]
        for margin in ("-5", "nan", "inf", "-inf", "3", "1e308", "abc")
    ),
    *(["kb", "search", "pago", "--min-chunks", chunks] for chunks in ("-1", "1.5", "1000", "")),
    *(["kb", "search", "pago", "--top-k", top] for top in ("0", "-1", "101", "x")),
    *(["kb", "eval", "--k", k] for k in ("0", "-1", "101", "six")),
    ["kb", "eval", "--embedder", "nosuch"],
    ["kb"],
    *(
        [command, *(["hello"] if command == "ask" else []), "--phone", "+584121234567", *bad]
        for command in ("ask", "chat")
        for bad in (
            ["--seed", "-1"],
            ["--seed", str(2**63)],
            ["--seed", "x"],
            ["--customers", "0"],
            ["--customers", "-5"],
            ["--customers", "100000000"],
            ["--customers", "x"],
            ["--narrator", "gpt"],
        )
    ),
    *(
        ["eval", *bad]
        for bad in (
            ["--seed", "-1"],
            ["--customers", "0"],
            ["--customers", "100000000"],
            ["--narrator", "x"],
        )
    ),
    *(
        ["ask", "hola", "--phone", "+584121234567", "--base-url", url, "--api-key", "sk_test"]
        for url in ("notaurl", "ftp://billing.example", "http://", "http://127.0.0.1:99999")
    ),
    [
        "ask",
        "hola",
        "--phone",
        "+584121234567",
        "--base-url",
        "http://127.0.0.1:8080",
        "--api-key",
        "sk test\n",
    ],
    ["nosuch-command"],
    [],
]


@pytest.mark.parametrize("argv", BAD_ARGUMENTS, ids=" ".join)
def test_every_bad_argument_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    for name in ("BILLING_API_URL", "BILLING_API_KEY", "BILLING_KB_DSN"):
        monkeypatch.delenv(name, raising=False)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.strip(), err
    assert "Traceback" not in err


def test_version_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("billing-assistant 0.")


@pytest.mark.billing_sim(customers=40)
def test_a_key_the_billing_api_refuses_is_a_configuration_error(
    capsys: pytest.CaptureFixture[str], billing_sim_server: BillingSim
) -> None:
    code = main(
        [
            "ask",
            "¿Cuánto debo?",
            "--phone",
            "+584121234567",
            "--base-url",
            billing_sim_server.url,
            "--api-key",
            "sk_wrong_key",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("error: the billing API at ") and "refused the API key" in err
    assert "sk_wrong_key" not in err


@pytest.mark.billing_sim(customers=40)
def test_a_server_that_is_not_the_billing_api_is_a_configuration_error(
    capsys: pytest.CaptureFixture[str], billing_sim_server: BillingSim
) -> None:
    code = main(
        [
            "ask",
            "¿Cuánto debo?",
            "--phone",
            "+584121234567",
            "--base-url",
            f"{billing_sim_server.url}/not/the/api",
            "--api-key",
            billing_sim_server.api_key,
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "does not answer like the billing API" in err


@pytest.mark.billing_sim(customers=40)
def test_the_right_url_and_key_pass_the_check(
    capsys: pytest.CaptureFixture[str], billing_sim_server: BillingSim
) -> None:
    phone = str(billing_sim_server.sample("open_invoice")["phone"])
    code = main(
        [
            "ask",
            "¿Cuánto debo?",
            "--phone",
            phone,
            "--json",
            "--base-url",
            billing_sim_server.url,
            "--api-key",
            billing_sim_server.api_key,
        ]
    )
    assert code == 0 and json.loads(capsys.readouterr().out)["action"] == "reply"
