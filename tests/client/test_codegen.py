"""The generated models, bindings and methods are exactly what the contract generates today."""

from __future__ import annotations

import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from billing_toolkit.client.models import billing
from billing_toolkit.client.money import AMOUNT_PATTERN, POSITIVE_AMOUNT_PATTERN
from billing_toolkit.contract.document import load
from tests.client import payloads
from tools import generate_client as codegen


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One fresh generation from the contract, shared by this module's tests."""
    target = tmp_path_factory.mktemp("generated")
    codegen.generate(target)
    return target


def test_checked_in_models_match_a_fresh_generation(fresh: Path) -> None:
    assert codegen.differing_files(fresh, codegen.MODELS_DIR) == [], f"run: {codegen.COMMAND}"


def test_generation_is_deterministic(fresh: Path, tmp_path: Path) -> None:
    codegen.generate(tmp_path)
    assert codegen.differing_files(fresh, tmp_path) == []


def test_drift_is_detected(fresh: Path, tmp_path: Path) -> None:
    shutil.copytree(fresh, tmp_path, dirs_exist_ok=True)
    stale = tmp_path / codegen.MODELS_FILE
    stale.write_text(stale.read_text(encoding="utf-8") + "\n# edited by hand\n", encoding="utf-8")
    (tmp_path / codegen.METHODS_FILE).unlink()
    assert codegen.differing_files(fresh, tmp_path) == [codegen.MODELS_FILE, codegen.METHODS_FILE]


def test_check_command_reports_drift_in_one_line(
    fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(
        codegen,
        "generate",
        lambda target, contract=None: shutil.copytree(fresh, target, dirs_exist_ok=True),
    )
    assert codegen.main(["--check", "--output-dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out.strip()
    assert out.count("\n") == 0 and "stale" in out and codegen.MODELS_FILE in out
    shutil.copytree(fresh, tmp_path, dirs_exist_ok=True)
    assert codegen.main(["--check", "--output-dir", str(tmp_path)]) == 0


def test_money_fields_are_decimal_not_float() -> None:
    parsed = billing.Invoice.model_validate(payloads.invoice())
    assert parsed.total == Decimal("32.48") and isinstance(parsed.total, Decimal)
    assert str(parsed.line_items[1].amount) == "4.48"
    for model in (billing.Balance, billing.Invoice, billing.Payment, billing.Plan):
        for name, field in model.model_fields.items():
            assert field.annotation is not float, f"{model.__name__}.{name} is a float"


def test_money_patterns_are_the_contracts() -> None:
    spec = load()
    schemas = spec["components"]["schemas"]
    assert schemas["Amount"]["pattern"] == AMOUNT_PATTERN
    assert schemas["PositiveAmount"]["pattern"] == POSITIVE_AMOUNT_PATTERN


def test_every_operation_gets_a_parameters_model_with_wire_aliases() -> None:
    params = billing.CreatePaymentParameters(account_number="1000004821", idempotency_key="k" * 8)
    assert params.model_dump(by_alias=True) == {
        "accountNumber": "1000004821",
        "Idempotency-Key": "kkkkkkkk",
    }


@pytest.mark.parametrize(
    ("wire", "python"),
    [
        ("accountNumber", "account_number"),
        ("Idempotency-Key", "idempotency_key"),
        ("period_from", "period_from"),
        ("getBalance", "get_balance"),
        ("from", "from_"),
    ],
)
def test_wire_names_become_the_python_names_of_the_methods(wire: str, python: str) -> None:
    assert codegen.python_name(wire) == python
