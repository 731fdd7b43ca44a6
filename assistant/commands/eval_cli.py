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
    NARRATORS,
    Assistant,
    AssistantConfig,
    build_narrator,
    open_assistant,
    open_retriever_for,
)
from billing_toolkit.assistant.turn.ports import Retriever
from billing_toolkit.assistant.understanding.classifier import default_classifier
from billing_toolkit.assistant.understanding.report import measure

MAX_FALSE_HANDOVER_RATE = 0.02
"""Clean questions the person-request stage may hand over (the recall must be 100 %)."""


def register(subparsers: Any) -> None:
    evaluation = subparsers.add_parser(
        "eval", help="run the scenario suite and the narration-fault injection")
    evaluation.add_argument("--scenarios", type=Path, default=SCENARIOS,
                            help="scenario file (default: the shipped suite)")
    evaluation.add_argument("--tenant", default="fibranet", help="tenant (default fibranet)")
    evaluation.add_argument("--narrator", choices=NARRATORS, default="template",
                            help="narrator of the clean run (faults always wrap the template)")
    evaluation.add_argument("--no-faults", action="store_true",
                            help="skip the narration-fault injection run")
    evaluation.add_argument("--json", action="store_true", help="print the figures as JSON")
    add_simulator_options(evaluation)
    evaluation.set_defaults(handler=guarded(_evaluate))


def _no_sleep(seconds: float) -> None:
    """Retry back-off is not waited for: outages would otherwise dominate turn latency."""


def run_evaluation(args: argparse.Namespace) -> EvaluationReport:
    scenarios = load_scenarios(args.scenarios)
    narrator = build_narrator(args.narrator)
    with local_simulator_of(args) as simulator:
        tenant = simulator.tenant(args.tenant)
        config = AssistantConfig(tenant=args.tenant, base_url=LOCAL_BASE_URL,
                                 api_key=tenant["api_key"])
        with httpx.Client(transport=simulator.transport, base_url=LOCAL_BASE_URL,
                          headers={"Authorization": f"Bearer {tenant['api_key']}"}) as http, \
                open_retriever_for(config) as retriever:

            def open_for(chosen: Narrator, shared: Retriever) -> Assistant:
                return open_assistant(config, transport=simulator.transport, retriever=shared,
                                      narrator=chosen, client_options={"sleep": _no_sleep})

            runner = SuiteRunner(DatasetRoles(tenant, SystemOfRecord(http)), open_for,
                                 simulator.control.faults, retriever,
                                 load_operator_profile().quotable_identifiers)
            resolved = runner.resolve(scenarios)
            report = runner.run(resolved, narrator)
            faults = [] if args.no_faults else runner.run_faults(resolved, tuple(NarrationFault))
    return EvaluationReport(report.conversations, report.turns, tuple(faults))


def _evaluate(args: argparse.Namespace) -> int:
    # The suite injects outages on purpose; the client's warning for each is noise here.
    logging.getLogger("client").setLevel(logging.ERROR)
    summary = summarize(run_evaluation(args))
    intents = measure(default_classifier()).to_dict()
    summary["intents"] = intents
    summary["passed"] = summary["passed"] and intents["person_recall"] == 1.0 \
        and intents["false_handover_rate"] <= MAX_FALSE_HANDOVER_RATE
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2, default=str))
    else:
        console = Console()
        render(summary, console if console.is_terminal else Console(width=160))
    return 0 if summary["passed"] else 1
