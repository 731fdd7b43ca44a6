"""The fault runs skip only what cannot change a count.

`SuiteRunner.run_faults` runs a conversation again for a kind of narration fault only when one
of its clean replies offers that kind something to corrupt. The claim: the counts (injected,
caught, every slipped reply) are those of running every conversation under every kind. Held
here on a slice of the shipped suite with multi-turn conversations, against the unpruned run and
against a probe that looks only at the first reply (the mistake the pruning invites).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
import yaml

from billing_toolkit.assistant.commands.eval_cli import run_evaluation
from billing_toolkit.assistant.evaluation.dataset import ResolvedScenario
from billing_toolkit.assistant.evaluation.narration_faults import FaultProbe, NarrationFault
from billing_toolkit.assistant.evaluation.runner import FaultOutcome, SuiteRunner
from billing_toolkit.assistant.evaluation.scenarios import SCENARIOS
from billing_toolkit.assistant.narrator import TemplateNarrator
from tests.assistant.assistant_fakes import evaluation_args

# Conversations whose later replies offer what their first does not (a greeting before a
# balance, a list before an invoice), and single-turn ones with a credit, a date and a list.
SLICE = (
    "conversation-es",
    "conversation-en",
    "person-mid-conversation",
    "referent-list-then-that",
    "referent-payment",
    "courtesy-after-answer-es",
    "balance-es-credit",
    "balance-en-overdue",
    "invoices-es-overdue",
)


def _slice(folder: Path) -> Path:
    suite = yaml.safe_load(SCENARIOS.read_text(encoding="utf-8"))
    chosen = [s for s in suite["scenarios"] if s["id"] in SLICE]
    assert len(chosen) == len(SLICE)
    path = folder / "slice.yaml"
    path.write_text(yaml.safe_dump({"scenarios": chosen}, allow_unicode=True), encoding="utf-8")
    return path


def _faults(path: Path) -> tuple[FaultOutcome, ...]:
    return run_evaluation(evaluation_args(scenarios=path, intent_model="ngram")).faults


def _every_kind(
    self: SuiteRunner, scenario: ResolvedScenario, kinds: Sequence[NarrationFault]
) -> set[NarrationFault]:
    return set(kinds)


def _first_reply_only(
    self: SuiteRunner, scenario: ResolvedScenario, kinds: Sequence[NarrationFault]
) -> set[NarrationFault]:
    probe = FaultProbe(TemplateNarrator(), kinds)
    next(iter(self._converse(scenario, probe)), None)  # pyright: ignore[reportPrivateUsage]
    return probe.offered


@pytest.fixture(scope="module")
def slice_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _slice(tmp_path_factory.mktemp("slice"))


@pytest.fixture(scope="module")
def unpruned(slice_path: Path) -> tuple[FaultOutcome, ...]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SuiteRunner, "_offered", _every_kind)
        return _faults(slice_path)


def test_skipping_what_a_fault_cannot_touch_changes_no_count(
    slice_path: Path, unpruned: tuple[FaultOutcome, ...]
) -> None:
    assert _faults(slice_path) == unpruned
    injected = {outcome.fault for outcome in unpruned if outcome.injected}
    assert injected >= {
        NarrationFault.MAGNITUDE,
        NarrationFault.INVENTED_CITATION,
        NarrationFault.CHANGED_DATE,
        NarrationFault.CURRENCY_SWAP,
    }


def test_a_probe_that_reads_only_the_first_reply_would_lose_injections(
    slice_path: Path, unpruned: tuple[FaultOutcome, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SuiteRunner, "_offered", _first_reply_only)
    assert _faults(slice_path) != unpruned
