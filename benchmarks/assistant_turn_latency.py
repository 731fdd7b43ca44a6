"""Turn latency of the assistant with the template narrator against an in-process simulator.

A turn is `AssistantPipeline.handle`: state gate, person check, identifiers, intent, identity
lookup, capability call(s), retrieval, narration, humanizer, grounding verifier, identifier
guard, forbidden phrases, store. The *baseline*, measured in the same run on the same
simulator and messages, is the billing calls the turn cannot avoid, made through the same
client: the phone lookup plus the capability that answers the message (none for a policy
question). The ratio is what the assistant adds on top of talking to the billing system.
Target: p95 turn latency under 50 ms. The same turns also run, interleaved in the same rounds,
through pipelines routed by every other installed intent model and by the keyword router
(`KeywordClassifier`), so the cost of each model (trained once per process, before the first
round) is read off the same run. Every model forgets its remembered answers before each turn:
a turn pays for classifying its message as a new message would.

    .venv/bin/python benchmarks/assistant_turn_latency.py                 # ~10 s
    .venv/bin/python benchmarks/assistant_turn_latency.py --rounds 100 --customers 300
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from billing_toolkit.assistant.commands.local_simulator import LOCAL_BASE_URL, start_local_simulator
from billing_toolkit.assistant.runtime import AssistantConfig, open_assistant
from billing_toolkit.assistant.turn.pipeline import AssistantPipeline
from billing_toolkit.assistant.understanding.classifier import IntentClassifier
from billing_toolkit.assistant.understanding.keyword_classifier import KeywordClassifier
from billing_toolkit.assistant.understanding.models import available_models, intent_model
from billing_toolkit.assistant.understanding.remembering import RememberingClassifier
from billing_toolkit.client import BillingClient, Capabilities
from billing_toolkit.client.tool_result import ToolResult

TARGET_P95_MS = 50.0


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.5) - 1))]


def _messages(
    samples: dict[str, Any], invoice: str
) -> list[tuple[str, str, Callable[[Capabilities, str], ToolResult | None]]]:
    """(label, message, the billing call that answers it) — one per intent."""
    return [
        ("balance", "¿Cuánto debo?", lambda c, a: c.balance(a)),
        ("invoices", "muéstrame mis facturas", lambda c, a: c.invoices(a)),
        (
            "invoice",
            f"¿cuánto es la factura {invoice}?",
            lambda c, a: c.invoice_by_number(a, invoice),
        ),
        (
            "not found",
            "factura INV-1999-000001",
            lambda c, a: c.invoice_by_number(a, "INV-1999-000001"),
        ),
        ("last payment", "when was my last payment?", lambda c, a: c.last_payment(a)),
        ("plan", "¿qué plan tengo?", lambda c, a: c.plan(a)),
        ("bill change", "why is my bill higher?", lambda c, a: c.bill_change(a)),
        ("policy", "¿cómo pago con pago móvil?", lambda c, a: None),
    ]


def _routed_by(pipeline: AssistantPipeline, classifier: IntentClassifier) -> AssistantPipeline:
    """The same pipeline (same simulator, store, knowledge base) routed by another model."""
    return AssistantPipeline(
        tenant=pipeline.tenant,
        capabilities=pipeline.capabilities,
        store=pipeline.store,
        retriever=pipeline.retriever,
        narrator=pipeline.narrator,
        verifier=pipeline.verifier,
        settings=pipeline.settings,
        classifier=classifier,
    )


def _timed_turn(pipeline: AssistantPipeline, phone: str, message: str) -> float:
    """One turn in milliseconds, its model's remembered answers forgotten first."""
    if isinstance(pipeline.classifier, RememberingClassifier):
        pipeline.classifier.forget()
    started = time.perf_counter()
    pipeline.handle(phone, message)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="turns per message (default 30)")
    parser.add_argument(
        "--customers",
        type=int,
        default=None,
        help="customers per tenant (default: the simulator's, 300)",
    )
    args = parser.parse_args()

    with start_local_simulator(customers_per_tenant=args.customers) as sim:
        tenant = sim.tenant("fibranet")
        customer = tenant["samples"]["open_invoice"]
        phone, account = customer["phone"], customer["account_number"]
        config = AssistantConfig(base_url=LOCAL_BASE_URL, api_key=tenant["api_key"])
        with (
            open_assistant(config, transport=sim.transport) as assistant,
            BillingClient(LOCAL_BASE_URL, tenant["api_key"], transport=sim.transport) as raw,
        ):
            pipeline, capabilities = assistant.pipeline, Capabilities(raw)
            others = {
                name: _routed_by(pipeline, intent_model(name))
                for name in available_models()
                if intent_model(name) is not pipeline.classifier
            }
            others["keyword-rules"] = _routed_by(pipeline, KeywordClassifier())
            other_ms: dict[str, list[float]] = {name: [] for name in others}
            listed = capabilities.invoices(account).data
            assert listed is not None, "the seeded account lists its invoices"
            invoice = listed["invoices"][0]["invoice_number"]
            messages = _messages(tenant["samples"], invoice)
            turns: dict[str, list[float]] = {label: [] for label, _, _ in messages}
            base: dict[str, list[float]] = {label: [] for label, _, _ in messages}
            for round_number in range(args.rounds + 1):  # round 0 warms up
                for label, message, call in messages:
                    turn_ms = _timed_turn(pipeline, phone, message)
                    started = time.perf_counter()
                    capabilities.customer_by_phone(phone)
                    call(capabilities, account)
                    base_ms = (time.perf_counter() - started) * 1000
                    routed = {
                        name: _timed_turn(other, phone, message) for name, other in others.items()
                    }
                    if round_number:
                        turns[label].append(turn_ms)
                        base[label].append(base_ms)
                        for name, ms in routed.items():
                            other_ms[name].append(ms)

    table = Table(title=f"assistant turn latency, template narrator, {args.rounds} rounds")
    for column in ("message", "turn p50", "turn p95", "billing calls p50", "ratio p50"):
        table.add_column(column, justify="left" if column == "message" else "right")
    everything, baseline = [], []
    for label, _, _ in messages:
        everything += turns[label]
        baseline += base[label]
        p50, b50 = statistics.median(turns[label]), statistics.median(base[label])
        table.add_row(
            label,
            f"{p50:.1f} ms",
            f"{_percentile(turns[label], 0.95):.1f} ms",
            f"{b50:.1f} ms",
            f"{p50 / b50:.2f}×",
        )
    p50, p95 = statistics.median(everything), _percentile(everything, 0.95)
    b50, b95 = statistics.median(baseline), _percentile(baseline, 0.95)
    table.add_row(
        "all turns",
        f"{p50:.1f} ms",
        f"{p95:.1f} ms",
        f"{b50:.1f} ms",
        f"{p50 / b50:.2f}×",
        style="bold",
    )
    console = Console()
    console.print(table)
    routers = Table(title="the same turns by router (same run)")
    for column in ("router", "turn p50", "turn p95"):
        routers.add_column(column, justify="left" if column == "router" else "right")
    routers.add_row(f"{pipeline.classifier.name} (the default)", f"{p50:.1f} ms", f"{p95:.1f} ms")
    for name, values in other_ms.items():
        routers.add_row(
            name, f"{statistics.median(values):.1f} ms", f"{_percentile(values, 0.95):.1f} ms"
        )
    console.print(routers)
    verdict = "meets" if p95 < TARGET_P95_MS else "MISSES"
    console.print(
        f"p95 turn latency {p95:.1f} ms {verdict} the {TARGET_P95_MS:.0f} ms target; "
        f"baseline (billing calls alone) p50 {b50:.1f} ms, p95 {b95:.1f} ms; "
        f"ratio p95 {p95 / b95:.2f}×"
    )


if __name__ == "__main__":
    main()
