"""The operator profile shipped with the knowledge base, and the assistant built from config."""

from __future__ import annotations

from pathlib import Path

import pytest

from billing_toolkit.assistant.knowledge import KNOWLEDGE_DIR
from billing_toolkit.assistant.knowledge.operator_profile import (
    OperatorProfileError,
    load_operator_profile,
)
from billing_toolkit.assistant.runtime import AssistantConfig, build_narrator
from billing_toolkit.assistant.text.identifiers import find_identifiers
from tests.assistant.assistant_fakes import yaml_file


def test_every_identifier_the_articles_quote_is_listed() -> None:
    listed = {
        i.key
        for entry in load_operator_profile().quotable_identifiers
        for i in find_identifiers(entry)
    }
    quoted = {
        i.key
        for path in KNOWLEDGE_DIR.rglob("*.md")
        for i in find_identifiers(path.read_text(encoding="utf-8"))
    }
    assert quoted <= listed, sorted(quoted - listed)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("tenant: x\noperator_identifiers: [hello]\n", "not one well-formed identifier"),
        ("tenant: x\nformat_examples: [INV-2026-04281]\n", "not one well-formed identifier"),
        ("tenant: x\nformat_examples: INV-2026-000123\n", "must be a list"),
        ("- just a list\n", "expected a mapping"),
    ],
)
def test_a_bad_profile_is_refused(tmp_path: Path, text: str, problem: str) -> None:
    with pytest.raises(OperatorProfileError, match=problem):
        load_operator_profile(yaml_file(tmp_path, text))


def test_an_edited_profile_is_read_again(tmp_path: Path) -> None:
    path = yaml_file(tmp_path, "tenant: x\nformat_examples: [INV-2026-000123]\n")
    assert load_operator_profile(path).format_examples == ("INV-2026-000123",)
    path.write_text("tenant: x\nformat_examples: [INV-2026-04281]\n", encoding="utf-8")
    with pytest.raises(OperatorProfileError, match="not one well-formed identifier"):
        load_operator_profile(path)


def test_a_missing_profile_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OperatorProfileError, match="cannot read"):
        load_operator_profile(tmp_path / "absent.yaml")


def test_config_reads_the_environment_and_flags_win() -> None:
    env = {
        "ASSISTANT_TENANT": "llanolink",
        "ASSISTANT_STORE_DSN": "sqlite:///c.db",
        "ASSISTANT_NARRATOR": "openai",
    }
    config = AssistantConfig.from_env(env, narrator="template", base_url=None)
    assert (config.tenant, config.store_dsn, config.narrator) == (
        "llanolink",
        "sqlite:///c.db",
        "template",
    )
    assert config.base_url is None


def test_an_unknown_or_unconfigured_narrator_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ValueError, match="unknown narrator 'poet'"):
        build_narrator("poet")
    monkeypatch.delenv("ASSISTANT_LLM_BASE_URL", raising=False)
    with pytest.raises(ValueError, match="ASSISTANT_LLM_BASE_URL"):
        build_narrator("openai")
