"""DSNs choose the backend; malformed ones fail with the accepted forms; secrets are masked."""

from __future__ import annotations

from pathlib import Path

import pytest

from billing_toolkit.assistant.retrieval.backends import open_store
from billing_toolkit.assistant.retrieval.dsn import PostgresDSN, SqliteDSN, parse_dsn, redact_dsn
from billing_toolkit.assistant.retrieval.errors import DSNError, StoreError


@pytest.mark.parametrize(
    ("dsn", "parsed"),
    [
        ("sqlite://", SqliteDSN(None)),
        ("sqlite://:memory:", SqliteDSN(None)),
        ("sqlite:///kb.sqlite3", SqliteDSN(Path("kb.sqlite3"))),
        ("sqlite:////var/kb.sqlite3", SqliteDSN(Path("/var/kb.sqlite3"))),
        ("postgresql://u@h:5432/db", PostgresDSN("postgresql://u@h:5432/db")),
        ("postgres://u@h/db", PostgresDSN("postgres://u@h/db")),
    ],
)
def test_accepted_forms(dsn: str, parsed: object) -> None:
    assert parse_dsn(dsn) == parsed


@pytest.mark.parametrize(
    ("dsn", "message"),
    [("mysql://x", "unsupported"), ("kb.sqlite3", "not a DSN"), ("sqlite://kb", "malformed")],
)
def test_rejected_forms(dsn: str, message: str) -> None:
    with pytest.raises(DSNError, match=message):
        parse_dsn(dsn)


def test_passwords_never_reach_output() -> None:
    assert redact_dsn("postgresql://kb:s3cret@db:5432/kb") == "postgresql://kb:***@db:5432/kb"
    assert "s3cret" not in redact_dsn("postgresql://db/kb?password=s3cret&sslmode=require")


def test_a_store_in_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="does not exist"):
        open_store(f"sqlite:///{tmp_path}/missing/kb.sqlite3")
