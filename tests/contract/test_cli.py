"""The command-line kernel: every argument type and the settings-refusal line, each held to the
bad input a user or an env file would bring."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import pytest
from pydantic import BaseModel, Field, ValidationError

from billing_toolkit.contract.cli import (
    EXIT_FAILURE,
    EXIT_OK,
    EXIT_USAGE,
    OneLineParser,
    bounded_float,
    bounded_int,
    fixed_port,
    non_negative_int,
    one_line,
    port,
    positive_float,
    positive_int,
)


def test_the_exit_statuses_are_the_unix_convention() -> None:
    assert (EXIT_OK, EXIT_FAILURE, EXIT_USAGE) == (0, 1, 2)


@pytest.mark.parametrize(
    ("kind", "text", "value"),
    [
        (port, "0", 0),
        (port, "65535", 65535),
        (positive_int, "1", 1),
        (non_negative_int, "0", 0),
        (positive_float, "0.25", 0.25),
        (lambda text: bounded_int(text, -3, 3), "-3", -3),
        (lambda text: bounded_float(text, 0.0, 1.0), "1", 1.0),
    ],
)
def test_each_type_takes_its_edge_values(
    kind: Callable[[str], float], text: str, value: float
) -> None:
    assert kind(text) == value


@pytest.mark.parametrize(
    ("kind", "text", "message"),
    [
        (port, "65536", "65536 is not between 0 and 65535"),
        (port, "80.5", "'80.5' is not a whole number"),
        (lambda text: bounded_int(text, 1, 9), "0", "0 is not between 1 and 9"),
        (positive_int, "0", "0 is not a whole number >= 1"),
        (positive_int, "two", "'two' is not a whole number"),
        (non_negative_int, "-1", "-1 is not a whole number >= 0"),
        (non_negative_int, "1.0", "'1.0' is not a whole number"),
        (positive_float, "0", "0 is not a number > 0"),
        (positive_float, "-0.5", "-0.5 is not a number > 0"),
        (positive_float, "nan", "'nan' is not a finite number"),
        (positive_float, "1e999", "'1e999' is not a finite number"),
        (positive_float, "soon", "'soon' is not a number"),
        (lambda text: bounded_float(text, 0.0, 1.0), "1.5", "1.5 is not between 0 and 1"),
        (lambda text: bounded_float(text, 0.0, 1.0), "-inf", "'-inf' is not a finite number"),
    ],
)
def test_each_type_refuses_in_one_line_naming_the_value(
    kind: Callable[[str], float], text: str, message: str
) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as caught:
        kind(text)
    assert str(caught.value) == message


def test_a_parser_error_is_one_line_and_exit_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    parser = OneLineParser(prog="billing-demo")
    parser.add_argument("--timeout", type=positive_float)
    with pytest.raises(SystemExit) as caught:
        parser.parse_args(["--timeout", "nan"])
    assert caught.value.code == EXIT_USAGE
    assert capsys.readouterr().err == (
        "billing-demo: error: argument --timeout: 'nan' is not a finite number (see --help)\n"
    )


class _Settings(BaseModel):
    retries: int = Field(ge=0)
    timeout: float = Field(gt=0)


def _refusal(**values: object) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        _Settings.model_validate(values)
    return caught.value


def test_one_line_names_the_field_the_problem_and_the_value() -> None:
    assert one_line(_refusal(retries=-1, timeout=1)) == (
        "retries: Input should be greater than or equal to 0 (got -1)"
    )


def test_one_line_keeps_every_problem_on_the_same_line() -> None:
    line = one_line(_refusal(retries="many", timeout=0))
    assert "\n" not in line
    assert line == (
        "retries: Input should be a valid integer, unable to parse string as an integer"
        " (got 'many'); timeout: Input should be greater than 0 (got 0)"
    )


def test_one_line_names_a_missing_field() -> None:
    assert one_line(_refusal(timeout=1)) == "retries: Field required"


@pytest.mark.parametrize("text", ["0", "65536", "-1", "eighty"])
def test_a_fixed_port_refuses_zero_and_what_no_port_is(text: str) -> None:
    """A service others dial may not pick a port of its own (0), nor one that cannot exist."""
    with pytest.raises(argparse.ArgumentTypeError):
        fixed_port(text)


def test_a_fixed_port_takes_the_whole_range_but_zero() -> None:
    assert (fixed_port("1"), fixed_port("65535")) == (1, 65535)
