"""Cold `billing-assistant ask`: wall and CPU time of a new process, and where they go.

Every run is a fresh process answering `¿Cuánto debo?` for a known phone against the
in-process simulator (seed 42, 300 customers a tenant), as an operator's shell runs it, with
the machine's cache directory warm (the training vectors, fitted models and ONNX graph an
earlier run wrote: `assistant_cold_start.py` measures a cache without them). The figures are
the medians of `--rounds` runs; CPU is the child's user + system time, steadier than wall on
a busy machine. The phases come from one more run of the same command in a probe process
that times the functions each phase is (`PHASES`), as wall-clock seconds in that process
("import the dispatcher" is `billing_toolkit.assistant.cli` and whatever it imports at the
top); "rest" is the output and what the phases do not cover (not the interpreter's start
and exit, which the medians include).
Target: under 3 s wall on an idle two-core machine.

    .venv/bin/python benchmarks/assistant_cold_ask.py              # ~30 s
    .venv/bin/python benchmarks/assistant_cold_ask.py --rounds 9 --json
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ASK = ["ask", "¿Cuánto debo?", "--phone", "+584121234567"]
TARGET_SECONDS = 3.0
PHASES = (
    ("load the command's modules", "billing_toolkit.assistant.cli", "build_parser"),
    ("start the simulator", "billing_toolkit.assistant.commands.session", "local_simulator_of"),
    ("  of which: generate the dataset", "billing_toolkit.simulator.state.dataset", "generate"),
    ("build the assistant", "billing_toolkit.assistant.commands.session", "open_assistant"),
    ("  of which: sync the knowledge base", "billing_toolkit.assistant.runtime", "open_retriever"),
    ("the turn", "billing_toolkit.assistant.turn.pipeline", "AssistantPipeline.handle"),
    (
        "  of which: load the ONNX graph",
        "billing_toolkit.assistant.retrieval.embedders.minilm",
        "load_encoder",
    ),
)
"""(label, module, attribute): the probe replaces the attribute by a timed wrapper, once its
module has run. `ENTERED` are context managers, timed from the call to the end of their
`__enter__` (the simulator is generated and served there)."""
ENTERED = ("start the simulator",)

PROBE = """
import contextlib, functools, importlib.abc, importlib.machinery, json, sys, time
started = time.perf_counter()
phases, entered_phases, spent = json.loads(sys.argv[1]), json.loads(sys.argv[2]), {}

def timed(label, function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        begun = time.perf_counter()
        result = function(*args, **kwargs)
        if label in entered_phases:
            return entered(label, begun, result)
        spent[label] = spent.get(label, 0.0) + time.perf_counter() - begun
        return result
    return wrapper

@contextlib.contextmanager
def entered(label, begun, manager):
    with manager as value:
        spent[label] = spent.get(label, 0.0) + time.perf_counter() - begun
        yield value

def patch(module, label, attribute):
    owner_name, _, name = attribute.rpartition(".")
    owner = getattr(module, owner_name) if owner_name else module
    setattr(owner, name, timed(label, getattr(owner, name)))

class PatchOnImport(importlib.abc.MetaPathFinder):
    # wraps a phase's function once its module has run, so the probe loads nothing earlier

    def find_spec(self, fullname, path, target=None):
        wanted = [(label, attribute) for label, name, attribute in phases if name == fullname]
        if not wanted:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            for label, attribute in wanted:
                patch(module, label, attribute)

        spec.loader.exec_module = exec_module
        return spec

sys.meta_path.insert(0, PatchOnImport())
from billing_toolkit.assistant import cli
spent["import the dispatcher"] = time.perf_counter() - started
status = cli.main(sys.argv[3:])
spent["total"] = time.perf_counter() - started
print(json.dumps(spent), file=sys.stderr)
raise SystemExit(status)
"""


def _command(as_json: bool) -> list[str]:
    return [
        str(Path(sys.executable).with_name("billing-assistant")),
        *ASK,
        *(["--json"] if as_json else []),
    ]


def _ask(command: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one `ask` in a new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _phases(as_json: bool) -> dict[str, float]:
    """Seconds per phase of one probed `ask` (see `PROBE`)."""
    arguments = [*ASK, *(["--json"] if as_json else [])]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(PHASES), json.dumps(ENTERED), *arguments],
        check=True,
        capture_output=True,
        text=True,
    )
    spent: dict[str, float] = json.loads(done.stderr.strip().splitlines()[-1])
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description="cold billing-assistant ask and its phases")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--json",
        action="store_true",
        help="ask with --json (default: the rich table, as the issue times it)",
    )
    args = parser.parse_args()
    command = _command(args.json)
    _ask(command)  # warms the cache directory and the page cache
    runs = [_ask(command) for _ in range(args.rounds)]
    wall = statistics.median(w for w, _ in runs)
    cpu = statistics.median(c for _, c in runs)
    spent = _phases(args.json)
    table = Table(title=f"one probed `billing-assistant {' '.join(command[1:])}`")
    table.add_column("phase")
    table.add_column("wall s", justify="right")
    covered = spent["import the dispatcher"]
    table.add_row("import the dispatcher", f"{covered:.2f}")
    for label, _, _ in PHASES:
        table.add_row(label, f"{spent.get(label, 0.0):.2f}")
        covered += 0.0 if label.startswith(" ") else spent.get(label, 0.0)
    table.add_row("rest", f"{spent['total'] - covered:.2f}")
    table.add_row("total (probed)", f"{spent['total']:.2f}")
    console = Console()
    console.print(table)
    shown = ", ".join(f"{w:.2f}/{c:.2f}" for w, c in runs)
    print(
        f"cold ask, median of {args.rounds}: {wall:.2f} s wall, {cpu:.2f} s CPU (runs, wall/CPU: {shown})"
    )
    verdict = "under" if wall < TARGET_SECONDS else "OVER"
    print(f"target: under {TARGET_SECONDS:.0f} s wall on an idle machine — this run is {verdict}")


if __name__ == "__main__":
    main()
