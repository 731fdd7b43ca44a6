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


def test_ask_json_prints_the_outcome_and_its_trace(capsys: pytest.CaptureFixture[str],
        phone: str) -> None:
    code = main(["ask", "¿Cuánto debo?", "--phone", phone, "--json", *SMALL])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["action"] == "reply" and "USD" in out["reply"]
    assert out["reason"] is None and out["agent_summary"] is None and out["citations"] == []
    stages = [record["stage"] for record in out["trace"]]
    assert stages[0] == "gate" and stages[-1] == "send"
    assert phone not in json.dumps(out["trace"])  # personal identifiers are masked


def test_ask_an_escalation_carries_both_summaries(capsys: pytest.CaptureFixture[str],
        phone: str) -> None:
    code = main(["ask", "a human please", "--phone", phone, "--json", *SMALL])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["action"] == "escalate" and out["reason"] == "USER_REQUEST"
    assert out["agent_summary"]["es"] and out["agent_summary"]["en"]


def test_ask_prints_a_readable_outcome(capsys: pytest.CaptureFixture[str],
        phone: str) -> None:
    assert main(["ask", "¿cómo pago con zelle?", "--phone", phone, *SMALL]) == 0
    out = capsys.readouterr().out
    assert "action: reply" in out and "citations:" in out and "retrieval" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["ask", "hola", "--phone", "12"], "is not a phone number"),
    (["ask", "  ", "--phone", "+584121234567"], "the message is empty"),
    (["ask", "hola", "--phone", "+584121234567", "--customers", "0"], "--customers"),
    (["ask", "hola", "--phone", "+584121234567", "--store-dsn", "mysql://x"],
     "unsupported conversation store DSN"),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                          message: str) -> None:
    assert main([*argv, *SMALL] if "--customers" not in argv else argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("error: ") and message in err[-1]
    assert not any("Traceback" in line for line in err)


def test_chat_reads_lines_until_quit(billing_sim: BillingSim, phone: str) -> None:
    config = AssistantConfig(base_url=billing_sim.url, api_key=billing_sim.api_key)
    with billing_sim_runtime(billing_sim) as runtime, \
            open_assistant(config, **runtime) as assistant:
        out = io.StringIO()
        lines = io.StringIO("¿cuánto debo?\n\nquiero hablar con un asesor\nhola\n"
                            "/release\nhola\n/quit\nnever read\n")
        assert converse(assistant.pipeline, phone, lines, out) == 0
    replies = [line for line in out.getvalue().splitlines() if line.startswith(("bot:", "["))]
    assert replies[0].startswith("bot: Según el sistema de facturación")
    assert replies[2].startswith("[escalated USER_REQUEST")
    assert replies[3] == "[silent: a person has this conversation]"
    assert replies[4] == "[the conversation is back with the bot]"
    assert replies[5].startswith("bot: ")
    assert "never read" not in out.getvalue()


def test_chat_ends_at_end_of_input(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str], phone: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("hola\n"))
    assert main(["chat", "--phone", phone, *SMALL]) == 0
    assert "bot: " in capsys.readouterr().out
