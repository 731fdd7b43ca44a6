"""The figures of an evaluation run, as numbers (`summarize`) and as rich tables (`render`)."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from billing_toolkit.assistant.evaluation.runner import EvaluationReport, TurnOutcome
from billing_toolkit.assistant.turn.result import Action
from billing_toolkit.assistant.vocabulary.escalation import EscalationReason


def _percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile (0 for no values): the figure an operator can reproduce."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, round(fraction * len(ordered) + 0.5 - 1e-9))
    return ordered[min(rank, len(ordered)) - 1]


def _rate(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def _parts(turn: TurnOutcome) -> tuple[int, int]:
    """(parts asked, parts answered) of a replied turn, from its trace's context stage."""
    context = next(
        (r for r in turn.result.trace if r.stage == "context" and r.decision == "available"),
        None,
    )
    if context is None:
        return (1, 1) if turn.result.action is Action.REPLY else (0, 0)
    return int(context.detail["parts"]), int(context.detail["answered"])


def helpfulness(turns: Sequence[TurnOutcome]) -> dict[str, Any]:
    """Whether the assistant answers what it can and hands over what it must.

    Answerable turns (the scenario expects a reply) answered rather than handed over; turns
    that must reach a person (the scenario expects a hand-over) handed over; and per reason
    that is the subscriber's own — a complaint, a request for a person — the recall of that
    very reason. Parts: of the questions in replied messages, how many were answered (the
    rest are named in the reply, never dropped)."""
    answerable = [t for t in turns if t.turn.action is Action.REPLY]
    must_hand_over = [t for t in turns if t.turn.action is Action.ESCALATE]
    parts = [_parts(t) for t in turns if t.result.action is Action.REPLY]

    def recall(reason: EscalationReason) -> dict[str, Any]:
        wanted = [t for t in turns if t.turn.reason is reason]
        caught = sum(t.result.reason is reason for t in wanted)
        return {"turns": len(wanted), "recall": _rate(caught, len(wanted))}

    return {
        "answerable_turns": len(answerable),
        "answered": _rate(
            sum(t.result.action is Action.REPLY for t in answerable), len(answerable)
        ),
        "false_hand_overs": _rate(
            sum(t.result.action is Action.ESCALATE for t in answerable), len(answerable)
        ),
        "must_hand_over_turns": len(must_hand_over),
        "handed_over": _rate(
            sum(t.result.action is Action.ESCALATE for t in must_hand_over), len(must_hand_over)
        ),
        "complaint": recall(EscalationReason.COMPLAINT),
        "person_request": recall(EscalationReason.USER_REQUEST),
        "parts_asked": sum(asked for asked, _ in parts),
        "parts_answered": sum(answered for _, answered in parts),
    }


def by_class(turns: Sequence[TurnOutcome]) -> dict[str, dict[str, int]]:
    """Turns and turns as expected per class of scenario — the id's first word
    (`period-month-es` is a `period` scenario) — so a class that regresses shows by name."""
    classes: dict[str, dict[str, int]] = {}
    for turn in turns:
        figures = classes.setdefault(
            turn.scenario_id.split("-", 1)[0], {"turns": 0, "as_expected": 0}
        )
        figures["turns"] += 1
        figures["as_expected"] += not turn.failures and not turn.wrong
    return dict(sorted(classes.items()))


def summarize(report: EvaluationReport) -> dict[str, Any]:
    """Every figure the CLI prints, JSON-ready."""
    turns = report.turns
    latencies = [t.latency_ms for t in turns]
    reasons = Counter(t.result.reason for t in turns if t.result.action is Action.ESCALATE)
    found = [t for t in turns if t.identifier_hit is not None]
    identifier_turns = [t for t in turns if t.wrong_identifier is not None]
    return {
        "conversations": report.conversations,
        "turns": len(turns),
        "actions": dict(Counter(t.result.action.value for t in turns)),
        "verified_wrong": len(report.verified_wrong),
        "verified_wrong_details": [
            {"scenario": t.scenario_id, "wrong": list(t.wrong), "reply": t.result.reply}
            for t in report.verified_wrong
        ],
        "escalation_rate": {
            reason.value: _rate(reasons.get(reason, 0), len(turns)) for reason in EscalationReason
        },
        "escalations": {reason.value: reasons.get(reason, 0) for reason in EscalationReason},
        "identifier_hit_at_1": _rate(sum(bool(t.identifier_hit) for t in found), len(found)),
        "identifier_found_turns": len(found),
        "wrong_identifier_rate": _rate(
            sum(bool(t.wrong_identifier) for t in identifier_turns), len(identifier_turns)
        ),
        "identifier_turns": len(identifier_turns),
        "helpfulness": helpfulness(turns),
        "classes": by_class(turns),
        "latency_ms": {
            "p50": _percentile(latencies, 0.50),
            "p95": _percentile(latencies, 0.95),
            "mean": statistics.fmean(latencies) if latencies else 0.0,
        },
        "expectation_failures": [
            {"scenario": t.scenario_id, "message": t.message, "failures": list(t.failures)}
            for t in report.expectation_failures
        ],
        "narration_faults": [
            {
                "fault": f.fault.value,
                "injected": f.injected,
                "caught": f.caught,
                "slipped": list(f.slipped),
            }
            for f in report.faults
        ],
        "passed": report.passed,
    }


def render(summary: dict[str, Any], console: Console) -> None:
    headline = Table(title="assistant scenario suite", show_header=False)
    headline.add_column("figure")
    headline.add_column("value", justify="right")
    headline.add_row("conversations / turns", f"{summary['conversations']} / {summary['turns']}")
    headline.add_row("verified-wrong answers (must be 0)", str(summary["verified_wrong"]))
    headline.add_row(
        "exact-identifier Hit@1",
        f"{summary['identifier_hit_at_1']:.1%} of {summary['identifier_found_turns']}",
    )
    headline.add_row(
        "wrong-identifier rate",
        f"{summary['wrong_identifier_rate']:.1%} of {summary['identifier_turns']}",
    )
    latency = summary["latency_ms"]
    headline.add_row("turn latency p50 / p95", f"{latency['p50']:.1f} ms / {latency['p95']:.1f} ms")
    helpful = summary["helpfulness"]
    headline.add_row(
        "answerable turns answered (not handed over)",
        f"{helpful['answered']:.1%} of {helpful['answerable_turns']}",
    )
    headline.add_row(
        "must-hand-over turns handed over",
        f"{helpful['handed_over']:.1%} of {helpful['must_hand_over_turns']}",
    )
    headline.add_row(
        "complaint / person-request recall",
        f"{helpful['complaint']['recall']:.1%} of {helpful['complaint']['turns']} / "
        f"{helpful['person_request']['recall']:.1%} of {helpful['person_request']['turns']}",
    )
    headline.add_row(
        "parts answered / parts asked",
        f"{helpful['parts_answered']} / {helpful['parts_asked']}",
    )
    headline.add_row("expectation failures", str(len(summary["expectation_failures"])))
    console.print(headline)

    escalations = Table(title="escalations by reason (share of all turns)")
    escalations.add_column("reason")
    escalations.add_column("turns", justify="right")
    escalations.add_column("rate", justify="right")
    for reason, count in summary["escalations"].items():
        escalations.add_row(reason, str(count), f"{summary['escalation_rate'][reason]:.1%}")
    console.print(escalations)

    classes = Table(title="scenario classes (turns as expected / turns)")
    classes.add_column("class")
    classes.add_column("as expected", justify="right")
    for name, figures in summary["classes"].items():
        classes.add_row(name, f"{figures['as_expected']} / {figures['turns']}")
    console.print(classes)

    faults = Table(title="narration-fault injection (every injected fault must be caught)")
    for column in ("fault", "injected", "caught", "slipped"):
        faults.add_column(column, justify="left" if column == "fault" else "right")
    for fault in summary["narration_faults"]:
        faults.add_row(
            fault["fault"], str(fault["injected"]), str(fault["caught"]), str(len(fault["slipped"]))
        )
    console.print(faults)

    models = summary.get("intent_models")
    if models:
        comparison = Table(
            title=(
                "intent models on the held-out templates (chosen by these figures: "
                f"{summary['intent_model_by_figures']}; running: {summary['intent_model_running']})"
            )
        )
        for column in (
            "model",
            "accuracy",
            "Spanish",
            "English",
            "person recall",
            "false hand-overs",
        ):
            comparison.add_column(column, justify="left" if column == "model" else "right")
        for model in models:
            by_language, rows = model["accuracy_by_language"], model["rows_by_language"]
            comparison.add_row(
                model["model"],
                f"{model['accuracy']:.1%}",
                f"{by_language['es']:.1%} of {rows['es']}",
                f"{by_language['en']:.1%} of {rows['en']}",
                f"{model['person_recall']:.1%}",
                f"{model['false_handover_rate']:.1%}",
            )
        console.print(comparison)
    intents = summary.get("intents")
    if intents:
        table = Table(
            title=(
                f"intent report, held-out templates ({intents['classifier']}, "
                f"{intents['test_rows']} rows, accuracy {intents['accuracy']:.1%})"
            )
        )
        for column in ("intent", "precision", "recall", "support"):
            table.add_column(column, justify="left" if column == "intent" else "right")
        for label, figures in intents["per_intent"].items():
            table.add_row(
                label,
                f"{figures['precision']:.1%}",
                f"{figures['recall']:.1%}",
                str(figures["support"]),
            )
        console.print(table)
        console.print(
            f"person request: recall {intents['person_recall']:.1%}, false hand-overs "
            f"on clean questions {intents['false_handover_rate']:.1%}",
            highlight=False,
        )
    for item in summary["verified_wrong_details"]:
        console.print(
            f"[red]verified-wrong[/red] {item['scenario']}: {item['wrong']}",
            markup=True,
            highlight=False,
        )
    for item in summary["expectation_failures"]:
        console.print(
            f"[yellow]expectation[/yellow] {item['scenario']} ({item['message']!r}): "
            + "; ".join(item["failures"]),
            highlight=False,
        )
    for fault in summary["narration_faults"]:
        for slip in fault["slipped"]:
            console.print(f"[red]slipped {fault['fault']}[/red] {slip}", highlight=False)
    console.print("[green]PASSED[/green]" if summary["passed"] else "[red]FAILED[/red]")
