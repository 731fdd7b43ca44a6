"""A second `serve` on the same SQLite store is refused with one line pointing at PostgreSQL;
the lock dies with its process, so a crash never blocks the restart."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from billing_toolkit.assistant.cli import main
from billing_toolkit.assistant.store.single_process import StoreInUse, sole_process
from tests.channel.test_serve_cli import EXAMPLE, SECRETS

HOLD = (
    "import sys, time\n"
    "from billing_toolkit.assistant.store.single_process import sole_process\n"
    "with sole_process(sys.argv[1]):\n"
    "    print('held', flush=True)\n"
    "    sys.stdin.read()\n"
)


def test_a_second_holder_of_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    dsn = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    refused = pytest.raises(StoreInUse, match="already served by another process.*PostgreSQL")
    with sole_process(dsn), refused, sole_process(dsn):
        pass
    with sole_process(dsn):
        pass  # given back on exit


@pytest.mark.parametrize("dsn", ["sqlite://:memory:", "postgresql://bot@db:5432/billing"])
def test_stores_several_processes_may_share_need_no_lock(dsn: str) -> None:
    with sole_process(dsn), sole_process(dsn):
        pass


def test_serve_refuses_a_sqlite_store_another_process_serves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    dsn = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, dsn], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        assert main(["serve", "--config", str(EXAMPLE), "--store", dsn]) == 2
    finally:
        holder.kill()
        holder.wait(timeout=10)
    err = capsys.readouterr().err
    assert err.startswith("billing-assistant serve: the SQLite store ")
    assert "PostgreSQL" in err and err.count("\n") == 1 and "Traceback" not in err
    with sole_process(dsn):
        pass  # the killed holder's lock went with it


def test_a_store_in_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    missing = f"sqlite:///{tmp_path / 'missing' / 'bot.sqlite3'}"
    with (
        pytest.raises(ValueError, match="cannot open the conversation store"),
        sole_process(missing),
    ):
        pass


def test_a_lease_out_of_range_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    assert main(["serve", "--config", str(EXAMPLE), "--lease-seconds", "0"]) == 2
    err = capsys.readouterr().err
    assert "--lease-seconds: 0 is not between 1 and 3600" in err
    assert err.count("\n") == 1
