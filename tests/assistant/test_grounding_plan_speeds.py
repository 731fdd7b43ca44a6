"""A speed tied to a direction ("100 Mbps de bajada") is stopped when it is not a speed of
that direction in the evidence (`guards/plan_speeds.py`): download and upload swapped are
two true numbers, and a wrong promise."""

from __future__ import annotations

import pytest

from tests.assistant.grounding_helpers import verify
from tests.assistant.test_grounding_dates_labelled import PLAN
from tests.assistant.test_grounding_plan_price import PLANS_TABLE


@pytest.mark.parametrize(
    ("reply", "evidence", "speed"),
    [
        ("Tu plan tiene 50 Mbps de bajada y 100 Mbps de subida.", (PLAN,), "50"),
        ("Navegas a 50 megas de descarga.", (PLAN,), "50"),
        ("La velocidad de subida es de 100 Mbps.", (PLAN,), None),  # "es de" between: unread
        ("Subida: 100 Mbps.", (PLAN,), "100"),
        ("Your plan gives you 50 Mbps down and 100 Mbps up.", (PLAN,), "50"),
        ("Upload speed of 100 Mbps.", (PLAN,), "100"),
        ("El Fibra 300 tiene 50 Mbps de bajada.", (PLAN, PLANS_TABLE), "50"),
    ],
)
def test_a_speed_of_the_other_direction_is_stopped(
    reply: str, evidence: tuple[str, ...], speed: str | None
) -> None:
    result = verify(reply, *evidence)
    if speed is None:
        assert result.grounded
    else:
        assert not result.grounded and speed in result.unsupported_tokens


@pytest.mark.parametrize(
    ("reply", "evidence"),
    [
        ("Tu plan tiene 100 Mbps de bajada y 50 Mbps de subida.", (PLAN,)),
        ("Fibra 100: 100 Mbps de bajada y 50 Mbps de subida por USD 28,00 al mes.", (PLAN,)),
        ("Your plan gives you 100 Mbps down and 50 Mbps up.", (PLAN,)),
        ("Download 100 Mbps, upload 50 Mbps.", (PLAN,)),
        ("El Fibra 300 tiene 300 Mbps de bajada y 100 de subida.", (PLAN, PLANS_TABLE)),
        ("Tienes 100 megas.", (PLAN,)),  # no direction: the figure check's
    ],
)
def test_a_speed_of_its_own_direction_passes(reply: str, evidence: tuple[str, ...]) -> None:
    result = verify(reply, *evidence)
    assert result.grounded, result.unsupported_tokens
