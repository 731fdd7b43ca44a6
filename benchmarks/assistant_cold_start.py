"""Cold start of one `billing-assistant ask`: a new process, without and with the model artifact.

Every run is a fresh process answering `¿Cuánto debo?` for a known phone, as an operator's
shell would. *Without* is the old behaviour: a cache directory that holds the training vectors
(`vector_cache.py`) and MiniLM's exported ONNX graph (`retrieval/embedders/minilm_onnx.py`),
both warm on any machine that ran once, but no fitted model, so the process fits; *with* is the same directory once an earlier process has written the artifacts
(`understanding/artifacts.py`), so it loads them. Both columns are measured in the same run,
interleaved, per intent model. Wall time and the child's CPU time (user + system) are both
shown: on a busy machine the CPU figure is the steadier one. Target: the default model warm
under 3 s wall on an idle laptop.

    .venv/bin/python benchmarks/assistant_cold_start.py               # ~1 min
    .venv/bin/python benchmarks/assistant_cold_start.py --rounds 3 --models ngram
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from billing_toolkit.assistant.retrieval.vector_cache import cache_directory
from billing_toolkit.assistant.understanding.models import available_models

ASK = ["ask", "¿Cuánto debo?", "--phone", "+584121234567", "--json"]
TARGET_SECONDS = 3.0


def _ask(cache: Path, model: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one `ask` in a new process using `cache`."""
    command = [str(Path(sys.executable).with_name("billing-assistant")), *ASK]
    env = {**os.environ, "BILLING_TOOLKIT_CACHE": str(cache), "ASSISTANT_INTENT_MODEL": model}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _vectors_only(warm: Path, into: Path) -> Path:
    """A cache directory holding `warm`'s training vectors and ONNX graph, no fitted model."""
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir()
    for kept in (*warm.glob("vectors-*.npy"), *warm.glob("minilm-*.onnx")):
        shutil.copy(kept, into)
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description="cold start of billing-assistant ask")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--models", nargs="*", default=list(available_models()))
    args = parser.parse_args()
    table = Table(title=f"`billing-assistant {' '.join(ASK)}`, a new process each run")
    for column in ("model", "without artifact", "with artifact", "speed-up"):
        table.add_column(column, justify="right")
    with tempfile.TemporaryDirectory(prefix="cold-start-") as scratch:
        warm = _vectors_only(cache_directory(), Path(scratch) / "warm")
        for model in args.models:
            _ask(warm, model)  # writes the artifacts (and the vectors, if none were cached)
            without: list[tuple[float, float]] = []
            with_artifact: list[tuple[float, float]] = []
            for _ in range(args.rounds):
                without.append(_ask(_vectors_only(warm, Path(scratch) / "cold"), model))
                with_artifact.append(_ask(warm, model))
            slow, fast = _median(without), _median(with_artifact)
            table.add_row(model, _shown(slow), _shown(fast), f"{slow[0] / fast[0]:.1f}×")
    Console().print(table)
    print(f"target: the default model with its artifact under {TARGET_SECONDS:.0f} s wall (idle)")


def _median(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def _shown(figure: tuple[float, float]) -> str:
    return f"{figure[0]:.1f} s wall, {figure[1]:.1f} s CPU"


if __name__ == "__main__":
    main()
