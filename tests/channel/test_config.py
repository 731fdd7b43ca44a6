"""The channel configuration: tenants and numbers from a file, secrets from the environment."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from billing_toolkit.assistant.channel import ConfigError, load_channel_config, parse_channel_config
from billing_toolkit.assistant.channel.config import DEFAULT_GRAPH_API_URL
from tests.channel.whatsapp import CONFIG_DOCUMENT, ENVIRONMENT, FIBRA_NUMBER, LLANO_NUMBER


def document(**changes: Any) -> dict[str, Any]:
    changed = copy.deepcopy(CONFIG_DOCUMENT)
    changed.update(changes)
    return changed


def test_numbers_map_to_tenants_and_secrets_come_from_the_environment() -> None:
    config = parse_channel_config(CONFIG_DOCUMENT, ENVIRONMENT)
    fibra = config.by_phone_number_id(FIBRA_NUMBER)
    assert fibra is not None and fibra.tenant == "fibranet"
    assert fibra.app_secret.value == "fibra-app-secret"
    assert config.by_phone_number_id(LLANO_NUMBER).tenant == "llanolink"  # type: ignore[union-attr]
    assert config.by_phone_number_id("999") is None


def test_no_secret_shows_when_the_config_is_printed() -> None:
    config = parse_channel_config(CONFIG_DOCUMENT, ENVIRONMENT)
    printed = repr(config) + str(config.tenants[0].app_secret)
    for secret in ENVIRONMENT.values():
        assert secret not in printed


def test_graph_url_defaults_to_the_cloud_api() -> None:
    without = document()
    del without["graph_api_url"]
    assert parse_channel_config(without, ENVIRONMENT).graph_api_url == DEFAULT_GRAPH_API_URL


@pytest.mark.parametrize(
    ("changes", "environ", "message"),
    [
        (
            {},
            {k: v for k, v in ENVIRONMENT.items() if k != "FIBRA_SECRET"},
            "tenant fibranet: environment variable FIBRA_SECRET (`app_secret_env`) is not set",
        ),
        ({"tenants": []}, ENVIRONMENT, "`tenants` must list at least one tenant"),
        (
            {"tenants": [{**CONFIG_DOCUMENT["tenants"][0], "phone_number_ids": [100000000000001]}]},
            ENVIRONMENT,
            "`phone_number_ids` must be a list",
        ),
        (
            {
                "tenants": [
                    CONFIG_DOCUMENT["tenants"][0],
                    {**CONFIG_DOCUMENT["tenants"][1], "phone_number_ids": [FIBRA_NUMBER]},
                ]
            },
            ENVIRONMENT,
            f"phone number id {FIBRA_NUMBER} is claimed by tenants fibranet and llanolink",
        ),
        (
            {},
            {**ENVIRONMENT, "LLANO_AGENT": ENVIRONMENT["FIBRA_AGENT"]},
            "two tenants share an agent token",
        ),
        (
            {"tenants": [{**CONFIG_DOCUMENT["tenants"][0], "tenant": "Fibra Net"}]},
            ENVIRONMENT,
            "tenant 'Fibra Net' must be lower-case",
        ),
        ({"verify_token_env": None}, ENVIRONMENT, "`verify_token_env` must be a non-empty string"),
    ],
)
def test_a_bad_configuration_names_the_culprit(
    changes: dict[str, Any], environ: dict[str, str], message: str
) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_channel_config(document(**changes), environ)
    assert message in str(raised.value)


def test_a_file_that_is_missing_or_not_yaml_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read channel configuration"):
        load_channel_config(tmp_path / "absent.yaml", ENVIRONMENT)
    broken = tmp_path / "broken.yaml"
    broken.write_text("tenants: [\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="is not valid YAML"):
        load_channel_config(broken, ENVIRONMENT)


def test_the_shipped_example_loads_with_its_variables_set() -> None:
    example = (
        Path(__file__).parents[2]
        / "assistant"
        / "src"
        / "billing_toolkit"
        / "assistant"
        / "channel"
        / "tenants.example.yaml"
    )
    names = (
        "WHATSAPP_VERIFY_TOKEN",
        "FIBRANET_WHATSAPP_APP_SECRET",
        "FIBRANET_WHATSAPP_TOKEN",
        "FIBRANET_BILLING_API_KEY",
        "FIBRANET_AGENT_TOKEN",
    )
    config = load_channel_config(example, {name: f"value-of-{name}" for name in names})
    assert [t.tenant for t in config.tenants] == ["fibranet"]
