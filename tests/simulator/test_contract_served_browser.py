"""`/docs` in a real browser: Swagger UI renders the served contract with no network but the
simulator's own, and "Try it out" calls the running simulator (the journal sees the call)."""

from __future__ import annotations

from pathlib import Path

from billing_toolkit.simulator import control_of, create_app
from tests.browser import FIRST_PAINT_MS
from tests.simulator.chromium import page, served
from tests.simulator.conftest import small_config


def test_the_docs_render_offline_and_try_it_out_reaches_this_simulator(tmp_path: Path) -> None:
    app = create_app(small_config())
    with served(app) as url, page() as (docs, refused):
        errors: list[str] = []
        docs.on("pageerror", lambda error: errors.append(str(error)))
        docs.goto(f"{url}/docs")
        liveness = docs.locator("#operations-Health-getLiveness")
        liveness.wait_for(timeout=FIRST_PAINT_MS)
        assert errors == [], f"the docs page raised: {errors}"
        assert docs.locator(".opblock").count() > 10  # every operation of the contract
        assert docs.locator(".servers select option").first.inner_text().startswith(url)
        liveness.locator(".opblock-summary").click()
        liveness.locator("button.execute").click()
        status = liveness.locator(".live-responses-table tbody .response-col_status").first
        status.wait_for()
        assert status.inner_text().strip().startswith("200")
        docs.screenshot(path=str(tmp_path / "docs.png"), full_page=False)
        assert refused == [], f"the docs page reached outside the simulator: {refused}"
    [call] = control_of(app).requests.list(operation="getLiveness")
    assert call["status"] == 200
