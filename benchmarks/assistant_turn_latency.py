"""Turn latency of the assistant with the template narrator against an in-process simulator.

A turn is `AssistantPipeline.handle`: state gate, person check, identifiers, intent, identity
lookup, capability call(s), retrieval, narration, humanizer, grounding verifier, identifier
guard, forbidden phrases, store. The *baseline*, measured in the same run on the same
simulator and messages, is the billing calls the turn cannot avoid, made through the same
client: the phone lookup plus the capability that answers the message (none for a policy
question). The ratio is what the assistant adds on top of talking to the billing system.
Target: p95 turn latency under 50 ms. The same turns also run, interleaved in the same rounds,
through a pipeline routed by the keyword router (`KeywordClassifier`) instead of the trained
intent model, so the cost of the model (trained once per process, before the first round) is
read off the same run.

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
from billing_toolkit.assistant.understanding.keyword_classifier import KeywordClassifier
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
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
            keyword = AssistantPipeline(
                tenant=pipeline.tenant, capabilities=pipeline.capabilities, store=pipeline.store,
                retriever=pipeline.retriever, narrator=pipeline.narrator,
                verifier=pipeline.verifier, settings=pipeline.settings,
                classifier=KeywordClassifier())
            keyword_ms: list[float] = []
            invoice = capabilities.invoices(account).data["invoices"][0]["invoice_number"]
            messages = _messages(tenant["samples"], invoice)
            turns: dict[str, list[float]] = {label: [] for label, _, _ in messages}
            base: dict[str, list[float]] = {label: [] for label, _, _ in messages}
            for round_number in range(args.rounds + 1):  # round 0 warms up
                for label, message, call in messages:
                    started = time.perf_counter()
                    pipeline.handle(phone, message)
                    turn_ms = (time.perf_counter() - started) * 1000
                    started = time.perf_counter()
                    capabilities.customer_by_phone(phone)
                    call(capabilities, account)
                    base_ms = (time.perf_counter() - started) * 1000
                    started = time.perf_counter()
                    keyword.handle(phone, message)
                    rules_ms = (time.perf_counter() - started) * 1000
                    if round_number:
                        turns[label].append(turn_ms)
                        base[label].append(base_ms)
                        keyword_ms.append(rules_ms)

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
    routers.add_row(pipeline.classifier.name, f"{p50:.1f} ms", f"{p95:.1f} ms")
    routers.add_row("keyword-rules", f"{statistics.median(keyword_ms):.1f} ms",
                    f"{_percentile(keyword_ms, 0.95):.1f} ms")
    console.print(routers)
    verdict = "meets" if p95 < TARGET_P95_MS else "MISSES"
    console.print(
        f"p95 turn latency {p95:.1f} ms {verdict} the {TARGET_P95_MS:.0f} ms target; "
        f"baseline (billing calls alone) p50 {b50:.1f} ms, p95 {b95:.1f} ms; "
        f"ratio p95 {p95 / b95:.2f}×"
    )


if __name__ == "__main__":
    main()
