"""A judge that breaks on an odd exchange never breaks the traffic through the proxy."""

from __future__ import annotations

from typing import Any

from billing_toolkit.conformance.proxy.session import Session


class ExplodingJudge:
    rule_ids = ("schema.response",)

    def judge(self, index: int, exchange: Any) -> Any:
        raise ValueError("a body no judge expected: 1000004821")


def test_a_failing_judge_is_logged_and_counted_not_raised() -> None:
    lines: list[str] = []
    session = Session(judge=ExplodingJudge(), log=lines.append)  # type: ignore[arg-type]
    assert session.observe(object()) == []  # type: ignore[arg-type]
    assert session.unjudged == 1 and session.exchanges == 1
    assert lines == ["UNJUDGED #0 the proxy could not judge this exchange (ValueError)"]
    assert "1000004821" not in lines[0]
