"""`billing-assistant eval`: the scenario suite against an in-process simulator.

Exit status 0 only when no reply was verified-wrong, every injected narration fault was
caught, every scenario met its expectations and the intent report holds the person-request
bar (recall 100 %, false hand-overs ≤ 2 % on the held-out templates); 1 otherwise; 2 for a
usage problem.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console

from billing_toolkit.assistant.commands.local_simulator import LOCAL_BASE_URL
from billing_toolkit.assistant.commands.session import (
    add_simulator_options,
    guarded,
    local_simulator_of,
)
from billing_toolkit.assistant.evaluation.dataset import DatasetRoles
from billing_toolkit.assistant.evaluation.narration_faults import NarrationFault
from billing_toolkit.assistant.evaluation.record import SystemOfRecord
from billing_toolkit.assistant.evaluation.report import render, summarize
from billing_toolkit.assistant.evaluation.runner import EvaluationReport, SuiteRunner
from billing_toolkit.assistant.evaluation.scenarios import SCENARIOS, load_scenarios
from billing_toolkit.assistant.knowledge.operator_profile import load_operator_profile
from billing_toolkit.assistant.narrator import Narrator
from billing_toolkit.assistant.runtime import (
    ENV_INTENT_MODEL,
    NARRATORS,
    Assistant,
    AssistantConfig,
    build_intent_classifier,
    build_narrator,
    open_assistant,
    open_retriever_for,
)
from billing_toolkit.assistant.turn.pipeline import PipelineSettings
from billing_toolkit.assistant.turn.ports import Retriever
from billing_toolkit.assistant.understanding.models import (
    INTENT_MODELS,
    available_models,
    choose_model,
    intent_model,
)
from billing_toolkit.assistant.understanding.report import measure


def register(subparsers: Any) -> None:
    evaluation = subparsers.add_parser(
        "eval", help="run the scenario suite and the narration-fault injection"
    )
    evaluation.add_argument(
        "--scenarios",
        type=Path,
        default=SCENARIOS,
        help="scenario file (default: the shipped suite)",
    )
    evaluation.add_argument("--tenant", default="fibranet", help="tenant (default fibranet)")
    evaluation.add_argument(
        "--narrator",
        choices=NARRATORS,
        default="template",
        help="narrator of the clean run (faults always wrap the template)",
    )
    evaluation.add_argument(
        "--no-faults", action="store_true", help="skip the narration-fault injection run"
    )
    evaluation.add_argument("--json", action="store_true", help="print the figures as JSON")
    evaluation.add_argument(
        "--intent-model",
        choices=INTENT_MODELS,
        default=None,
        help="trained intent model the pipeline runs (default: $ASSISTANT_INTENT_MODEL, else "
        "the one the held-out figures chose); every installed model is measured anyway",
    )
    add_simulator_options(evaluation)
    evaluation.set_defaults(handler=guarded(_evaluate))


def _no_sleep(seconds: float) -> None:
    """Retry back-off is not waited for: outages would otherwise dominate turn latency."""


def run_evaluation(args: argparse.Namespace) -> EvaluationReport:
    scenarios = load_scenarios(args.scenarios)
    narrator = build_narrator(args.narrator)
    with local_simulator_of(args) as simulator:
        tenant = simulator.tenant(args.tenant)
        # The turns count days ("hoy", today's rate) on the simulator's test clock.
        config = replace(
            _config(args),
            base_url=LOCAL_BASE_URL,
            api_key=tenant["api_key"],
            settings=PipelineSettings(clock=simulator.control.clock.now),
        )
        with (
            httpx.Client(
                transport=simulator.transport,
                base_url=LOCAL_BASE_URL,
                headers={"Authorization": f"Bearer {tenant['api_key']}"},
            ) as http,
            open_retriever_for(config) as retriever,
        ):
            classifier = build_intent_classifier(config)  # one per run, not per conversation

            def open_for(chosen: Narrator, shared: Retriever) -> Assistant:
                return open_assistant(
                    config,
                    transport=simulator.transport,
                    retriever=shared,
                    narrator=chosen,
                    client_options={"sleep": _no_sleep},
                    classifier=classifier,
                )

            runner = SuiteRunner(
                DatasetRoles(tenant, SystemOfRecord(http)),
                open_for,
                simulator.control.faults,
                retriever,
                load_operator_profile().quotable_identifiers,
                test_clock=simulator.control.clock,
            )
            resolved = runner.resolve(scenarios)
            report = runner.run(resolved, narrator)
            faults = [] if args.no_faults else runner.run_faults(resolved, tuple(NarrationFault))
    return EvaluationReport(report.conversations, report.turns, tuple(faults))


def _config(args: argparse.Namespace) -> AssistantConfig:
    """The tenant and intent model of the run; nothing else is read from the environment,
    so an evaluation measures the shipped defaults wherever it runs."""
    chosen = args.intent_model or os.environ.get(ENV_INTENT_MODEL) or ""
    return AssistantConfig(tenant=args.tenant, intent_model=chosen)


def _evaluate(args: argparse.Namespace) -> int:
    # The suite injects outages on purpose; the client's warning for each is noise here.
    logging.getLogger("client").setLevel(logging.ERROR)
    config = _config(args)
    summary = summarize(run_evaluation(args))
    reports = [(name, measure(intent_model(name))) for name in available_models()]
    running = dict(reports)[config.chosen_intent_model]
    summary["intents"] = running.to_dict()
    summary["intent_models"] = [
        {
            "model": name,
            "classifier": report.classifier,
            "accuracy": report.accuracy,
            "accuracy_by_language": report.accuracy_by_language,
            "rows_by_language": report.rows_by_language,
            "person_recall": report.person_recall,
            "false_handover_rate": report.false_handover_rate,
            "keeps_person_bar": report.keeps_person_bar,
        }
        for name, report in reports
    ]
    summary["intent_model_by_figures"] = choose_model(reports)
    summary["intent_model_running"] = config.chosen_intent_model
    summary["passed"] = summary["passed"] and running.keeps_person_bar
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2, default=str))
    else:
        console = Console()
        render(summary, console if console.is_terminal else Console(width=160))
    return 0 if summary["passed"] else 1
