"""Cost per answer of the grounding verifier, before and after it read units, words and records.

"Before" is the value-only verifier as it stood at commit `a81f564` (figures checked by value
and literal, no currency, no number words, no record binding), loaded from git into this
process; "after" is the verifier of the working tree. Both run on the same answers, in the
same run, on the same machine, so the ratio is what the new checks cost.

The answers are seeded and shaped like what narrators write: a balance reply, a last-payment
reply and an invoice list of 1 to 6 invoices (the template's bullets), in Spanish and English,
each also corrupted by every narration fault, against the evidence the capabilities write
(one sentence per record). Run from the repository root:

    .venv/bin/python benchmarks/verifier_cost.py            # ~20 s
    .venv/bin/python benchmarks/verifier_cost.py --rounds 5

Figures on a shared machine are noisy; compare the ratio.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable, Sequence
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

from rich.console import Console
from rich.table import Table

from billing_toolkit.assistant.evaluation.narration_faults import NarrationFault, corrupt
from billing_toolkit.assistant.guards.grounding import GroundingVerifier
from billing_toolkit.assistant.narrator import Narration, NarrationRequest
from billing_toolkit.assistant.text.dates import format_date
from billing_toolkit.assistant.text.language import Language
from billing_toolkit.assistant.text.money import format_amount
from billing_toolkit.assistant.vocabulary.intents import Intent
from billing_toolkit.client.tool_result import ToolResult

BASELINE_COMMIT = "a81f564"
VERIFIER = "assistant/src/billing_toolkit/assistant/guards/grounding.py"
ACCOUNT = "1000004821"

Case = tuple[str, str, str]
"""(shape, answer, evidence)."""


def baseline_verifier() -> Callable[..., object]:
    """The verifier module at `BASELINE_COMMIT`, imported from its source in git."""
    root = Path(__file__).resolve().parent.parent
    source = subprocess.run(
        ["git", "show", f"{BASELINE_COMMIT}:{VERIFIER}"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    module = types.ModuleType("grounding_before")
    sys.modules[module.__name__] = module  # dataclasses look their module up there
    exec(compile(source, f"{BASELINE_COMMIT}:{VERIFIER}", "exec"), module.__dict__)  # noqa: S102
    return module.GroundingVerifier().verify


def _money(rng: random.Random) -> Decimal:
    return Decimal(rng.randint(100, 99_999)).scaleb(-2)


def _invoices(rng: random.Random, count: int, language: Language) -> tuple[str, str]:
    evidence, lines = [], []
    due = date(2026, 12, 20)
    for n in range(count):
        number, total = f"INV-2026-{4281 - n * 97:06d}", _money(rng)
        evidence.append(
            f"Invoice {number} of account {ACCOUNT}: status open; issued "
            f"{(due - timedelta(15)).isoformat()}; due {due.isoformat()}; total USD {total}; "
            f"paid USD 0.00; amount due USD {total}."
        )
        amount = format_amount(str(total), "USD", language)
        lines.append(f"• {number}: {format_date(due, language)}, total {amount}")
        due -= timedelta(days=30)
    return "\n".join(lines), " ".join(evidence)


def cases(seed: int) -> list[Case]:
    rng = random.Random(seed)
    found: list[Case] = []
    for language in Language:
        due, amount = _money(rng), _money(rng)
        balance = (
            f"Balance of account {ACCOUNT} as of 2026-11-29T10:00:00Z: amount due USD {due}; "
            f"overdue USD 0.00; credit USD 0.00; net balance USD {due}; next due date 2026-12-15."
        )
        written = format_amount(str(due), "USD", language)
        found.append(("balance", f"Tu cuenta {ACCOUNT} debe {written}, el 15 de dic.", balance))
        payment = (
            f"Last payment of account {ACCOUNT}: PAY-0000012345 of USD {amount} by transfer, "
            f"received 2026-11-18T14:00:00Z; applied USD {amount} to INV-2026-004281."
        )
        paid = format_amount(str(amount), "USD", language)
        found.append(("payment", f"Tu pago PAY-0000012345 de {paid} se aplicó.", payment))
        for count in (1, 3, 6):
            found.append((f"{count} invoices", *_invoices(rng, count, language)))
    return found


def _with_faults(found: Sequence[Case]) -> list[Case]:
    corrupted = []
    for shape, answer, evidence in found:
        request = NarrationRequest(
            "?", Language.SPANISH, Intent.INVOICES, None, (ToolResult("x", True, evidence),), ()
        )
        for fault in NarrationFault:
            reply = corrupt(Narration(answer, ()), fault, request)[0].reply
            corrupted.append((shape, reply, evidence))
    return [*found, *corrupted]


def _time(verify: Callable[..., object], answer: str, evidence: str, rounds: int) -> float:
    """Median microseconds of one verification of `answer`."""
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        verify(
            answer=answer,
            used_chunk_ids=[],
            retrieved_chunk_ids=[],
            evidence_texts=[],
            tool_result_texts=[evidence],
        )
        samples.append((time.perf_counter() - start) * 1e6)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description="The grounding verifier's cost per answer.")
    parser.add_argument("--rounds", type=int, default=15, help="timings per answer (median)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    before, after = baseline_verifier(), GroundingVerifier().verify
    by_shape: dict[str, list[tuple[float, float]]] = {}
    for shape, answer, evidence in _with_faults(cases(args.seed)):
        by_shape.setdefault(shape, []).append(
            (
                _time(before, answer, evidence, args.rounds),
                _time(after, answer, evidence, args.rounds),
            )
        )
    table = Table(title=f"grounding verifier, µs per answer (median of {args.rounds})")
    for column in ("answer", "answers", "before", "after", "after / before"):
        table.add_column(column, justify="left" if column == "answer" else "right")
    every: list[tuple[float, float]] = []
    for shape, timings in by_shape.items():
        every += timings
        old, new = (statistics.median(t[i] for t in timings) for i in (0, 1))
        table.add_row(shape, str(len(timings)), f"{old:.0f}", f"{new:.0f}", f"{new / old:.2f}")
    old, new = (statistics.median(t[i] for t in every) for i in (0, 1))
    table.add_row("all", str(len(every)), f"{old:.0f}", f"{new:.0f}", f"{new / old:.2f}")
    Console().print(table)


if __name__ == "__main__":
    main()
