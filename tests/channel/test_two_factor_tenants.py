"""`two_factor_self_service` in the tenants file: the operator's opt-in reaches its pipeline.

The pipelines are built as `billing-assistant serve` builds them (`open_pipelines`) over the
in-process billing simulator; the subscriber writes from a phone that is on no account.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from decimal import Decimal
from typing import Any

import pytest

from billing_toolkit.assistant.channel import ConfigError, parse_channel_config
from billing_toolkit.assistant.channel.cli import open_pipelines
from billing_toolkit.assistant.runtime import AssistantConfig
from billing_toolkit.assistant.store import SqlConversationStore
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.text.money import format_amount
from billing_toolkit.assistant.turn.result import Action
from billing_toolkit.assistant.vocabulary.escalation import EscalationReason
from billing_toolkit.pytest_plugin import BillingSim
from tests.assistant.in_process_billing import billing_sim_runtime
from tests.channel.whatsapp import CONFIG_DOCUMENT, ENVIRONMENT

UNREGISTERED_PHONE = "+584169990001"


def document(**fibranet: Any) -> dict[str, Any]:
    first, *others = CONFIG_DOCUMENT["tenants"]
    return {**CONFIG_DOCUMENT, "tenants": [{**first, **fibranet}, *others]}


@pytest.fixture
def ask(billing_sim: BillingSim, store: SqlConversationStore) -> Iterator[Any]:
    """`ask(flag, message)`: fibranet's pipeline, built from a tenants file with `flag`."""
    environ = {**ENVIRONMENT, "FIBRA_BILLING": billing_sim.api_key}
    with ExitStack() as resources:
        runtime = resources.enter_context(billing_sim_runtime(billing_sim))

        def run(flag: bool | None, message: str) -> Any:
            extra = {} if flag is None else {"two_factor_self_service": flag}
            config = parse_channel_config(document(**extra), environ)
            factory = open_pipelines(
                config, AssistantConfig(base_url=billing_sim.url), store, resources, **runtime
            )
            return factory(config.tenants[0], store).handle(UNREGISTERED_PHONE, message)

        yield run


def _claim(billing_sim: BillingSim) -> tuple[str, str]:
    customer = billing_sim.sample("open_invoice")
    assert customer["phone"] != UNREGISTERED_PHONE
    answer = billing_sim.http.get(f"/v1/customers/{customer['account_number']}/balance")
    balance = answer.raise_for_status().json()
    assert Decimal(balance["net_balance"]) > 0
    owed = format_amount(balance["net_balance"], balance["currency"], Language.SPANISH)
    message = (
        f"mi cuenta es {customer['account_number']} y mi cédula "
        f"{customer['national_id']}, ¿cuánto debo?"
    )
    return message, owed


def test_an_opted_in_tenant_answers_a_phone_that_proves_both_keys(
    ask: Any, billing_sim: BillingSim
) -> None:
    message, owed = _claim(billing_sim)
    result = ask(True, message)
    assert result.action is Action.REPLY
    assert owed in str(result.reply)


@pytest.mark.parametrize("flag", [None, False], ids=["flag absent", "flag false"])
def test_a_tenant_without_the_opt_in_hands_the_same_claim_over_for_verification(
    ask: Any, billing_sim: BillingSim, flag: bool | None
) -> None:
    message, owed = _claim(billing_sim)
    result = ask(flag, message)
    assert result.reason is EscalationReason.IDENTITY_UNVERIFIED
    assert owed not in str(result.reply)


@pytest.mark.parametrize("value", ["false", "true", "yes", 1, 0, None, []])
def test_a_flag_that_is_not_a_yaml_boolean_is_refused_naming_the_key(value: object) -> None:
    with pytest.raises(
        ConfigError, match="tenant fibranet: `two_factor_self_service` must be true or false"
    ):
        parse_channel_config(document(two_factor_self_service=value), ENVIRONMENT)


def test_the_flag_defaults_to_off_per_tenant() -> None:
    config = parse_channel_config(document(two_factor_self_service=True), ENVIRONMENT)
    assert [t.two_factor_self_service for t in config.tenants] == [True, False]
