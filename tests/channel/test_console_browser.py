"""The agents' inbox in a real browser: Debian's chromium driven by Playwright.

The service runs on a loopback port (uvicorn in a thread) over the fake pipelines and the fake
Graph API; the page is open while a subscriber's message escalates, and the escalation must
appear without a reload. Every wait is bounded. Screenshots of each screen are written to
the test's tmp_path as artefacts.
"""

from __future__ import annotations

import random
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest
import uvicorn

from billing_toolkit.assistant.channel import ChannelConfig, create_channel_app, sign
from billing_toolkit.assistant.store import SqlConversationStore
from billing_toolkit.assistant.understanding.models import default_classifier
from tests.assistant.assistant_fakes import MARIA_PHONE, FakeCapabilities
from tests.browser import ARGS, CHROMIUM, WAIT_MS, sync_api
from tests.channel.conftest import BUDGET, Factory

if TYPE_CHECKING:  # only for the types: the module skips where playwright is missing
    from playwright.sync_api import BrowserContext, Page

from tests.channel.whatsapp import (
    FIBRA_AGENT,
    FIBRA_SECRET,
    LLANO_AGENT,
    FakeGraph,
    RecordedSleep,
    delivery,
    text_message,
)


@pytest.fixture
def live_url(
    config: ChannelConfig, store: SqlConversationStore, graph: FakeGraph, factory: Factory
) -> Iterator[str]:
    """The service on a loopback port for the length of the test. The intent model is
    trained first, as `billing-assistant serve` does before it listens: a cold first turn
    would otherwise spend the page's bounded wait on loading torch."""
    default_classifier()
    app = create_channel_app(
        config,
        store,
        factory,
        http=graph.client(),
        sleep=RecordedSleep(),
        rng=random.Random(3),
        budget=BUDGET,
        workers=2,
    )
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    try:
        for _ in range(200):
            if server.started:
                break
            thread.join(0.05)
        assert server.started, "the service did not start within 10 s"
        yield url
    finally:
        server.should_exit = True
        thread.join(10)
        listener.close()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[BrowserContext]:
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=str(CHROMIUM),
            args=ARGS,
            headless=True,
            viewport={"width": 390, "height": 844},
            locale="es-ES",
            timeout=WAIT_MS,
        )
        context.set_default_timeout(WAIT_MS)
        sync_api.expect.set_options(timeout=WAIT_MS)
        try:
            yield context
        finally:
            context.close()


def sign_in(page: Page, url: str, token: str, agent: str) -> None:
    page.goto(f"{url}/console/")
    page.get_by_label("Tu nombre de agente").fill(agent)
    page.get_by_label("Token de agente").fill(token)
    page.get_by_role("button", name="Iniciar sesión").click()
    page.wait_for_url(f"{url}/console/")


def test_an_agent_sees_an_escalation_arrive_takes_it_writes_and_gives_it_back(
    live_url: str,
    browser: BrowserContext,
    graph: FakeGraph,
    capabilities: dict[str, FakeCapabilities],
    tmp_path: Path,
) -> None:
    shots = tmp_path / "screenshots"
    page = browser.new_page()
    page.goto(f"{live_url}/console/")
    page.screenshot(path=str(shots / "1-signin.png"), full_page=True)
    sign_in(page, live_url, FIBRA_AGENT, "ana")
    sync_api.expect(page.get_by_text("Nadie espera ahora")).to_be_visible()

    capabilities["fibranet"].outages.add("balance")
    body = delivery(text_message(MARIA_PHONE, "¿cuánto debo?"))
    posted = httpx.post(
        f"{live_url}/webhook",
        content=body,
        timeout=10,
        headers={
            "Content-Type": "application/json",
            "X-Hub-Signature-256": sign(body, FIBRA_SECRET),
        },
    )
    assert posted.status_code == 200

    card = page.locator("#waiting-list li", has_text=MARIA_PHONE)
    sync_api.expect(card).to_be_visible()  # no reload: the page polled
    sync_api.expect(card.locator(".reason")).to_have_text("TOOL_ERROR")
    sync_api.expect(card.locator(".summary")).to_contain_text("facturación")
    page.screenshot(path=str(shots / "2-inbox.png"), full_page=True)

    card.get_by_role("link", name=MARIA_PHONE).click()
    sync_api.expect(page.get_by_role("heading", name=MARIA_PHONE, level=1)).to_be_visible()
    sync_api.expect(page.locator(".escalation .reason")).to_have_text("TOOL_ERROR")
    sync_api.expect(page.locator(".message.in").first).to_contain_text("¿cuánto debo?")
    page.get_by_role("button", name="Tomar la conversación").click()
    sync_api.expect(page.locator(".state")).to_contain_text("atendida por ana")

    page.get_by_label("Mensaje al cliente").fill("Hola, soy Ana. Reviso tu saldo.")
    page.get_by_role("button", name="Enviar").click()
    sync_api.expect(
        page.locator(".message.out", has_text="Hola, soy Ana").locator(".status")
    ).to_have_text("sent")  # the poll shows the delivery status
    page.screenshot(path=str(shots / "3-conversation.png"), full_page=True)
    assert graph.texts_to(MARIA_PHONE)[-1] == "Hola, soy Ana. Reviso tu saldo."

    page.get_by_role("button", name="Devolver al bot").click()
    sync_api.expect(page.locator(".state")).to_contain_text("con el bot")
    page.get_by_role("button", name="English").click()
    sync_api.expect(page.locator(".state")).to_contain_text("with the bot")
    page.screenshot(path=str(shots / "4-released.png"), full_page=True)

    intruder = browser.new_page()
    intruder.context.clear_cookies()
    sign_in(intruder, live_url, LLANO_AGENT, "eve")
    sync_api.expect(intruder.get_by_text("Nadie espera ahora")).to_be_visible()
    assert MARIA_PHONE not in intruder.content()
    response = intruder.goto(f"{live_url}/console/conversations/{MARIA_PHONE.lstrip('+')}")
    assert response is not None and response.status == 404
    sync_api.expect(intruder.get_by_role("heading", level=1)).to_have_text(
        "No existe esa conversación."
    )
    intruder.screenshot(path=str(shots / "5-other-tenant.png"), full_page=True)
    assert sorted(p.name for p in shots.iterdir()) == [
        "1-signin.png",
        "2-inbox.png",
        "3-conversation.png",
        "4-released.png",
        "5-other-tenant.png",
    ]
