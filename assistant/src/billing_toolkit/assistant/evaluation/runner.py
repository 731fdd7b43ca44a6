"""Running the scenario suite: every conversation against the simulator, then again with each
kind of narration fault injected, collecting what `report` prints.

The runner knows nothing about how the assistant is built or where the simulator runs: it is
handed a function that opens an assistant with a given narrator and retriever, the dataset's
roles, and a switch for the simulator's fault rules.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from billing_toolkit.assistant.evaluation.dataset import DatasetRoles, ResolvedScenario
from billing_toolkit.assistant.evaluation.narration_faults import (
    FaultProbe,
    FaultyNarrator,
    NarrationFault,
)
from billing_toolkit.assistant.evaluation.record import CustomerRecord
from billing_toolkit.assistant.evaluation.scenarios import (
    ExpectedTurn,
    IdentifierExpectation,
    Scenario,
)
from billing_toolkit.assistant.evaluation.truth import (
    NO_FACTS,
    Facts,
    rate_facts,
    record_facts,
    text_facts,
    wrong_items,
)
from billing_toolkit.assistant.narrator import Narrator, TemplateNarrator
from billing_toolkit.assistant.runtime import Assistant
from billing_toolkit.assistant.text.dates import find_dates
from billing_toolkit.assistant.text.identifiers import Identifier, find_identifiers
from billing_toolkit.assistant.turn.ports import RetrievedChunk, Retriever
from billing_toolkit.assistant.turn.result import TurnResult
from billing_toolkit.assistant.understanding.payment_report_reading import (
    day_said,
    last_such_day,
    two_readings,
)
from billing_toolkit.assistant.vocabulary.escalation import EscalationReason

OpenAssistant = Callable[[Narrator, Retriever], Assistant]


class FaultSwitch(Protocol):
    """The simulator's fault rules (its in-process control handle has this shape)."""

    def add(self, kind: str, operation: str | None = None, **fields: Any) -> Any: ...

    def load_scenario(self, scenario: str) -> Any:
        """A fault scenario as YAML text; its `report_outcomes` force report verdicts."""
        ...

    def clear(self) -> None:
        """Every rule and forced report outcome goes."""
        ...


class TestClock(Protocol):
    """The simulator's business test clock (its in-process control handle has this shape)."""

    def now(self) -> datetime: ...

    def advance(self, *, minutes: float = 0) -> Any: ...


class ChunkLog:
    """A retriever wrapper that remembers every search: the texts of the chunks it handed
    out, to read citations back, and each query's answer, for `recall`."""

    def __init__(self, inner: Retriever) -> None:
        self._inner = inner
        self.texts: dict[str, str] = {}
        self._answers: dict[tuple[str, int], tuple[RetrievedChunk, ...]] = {}

    def search(self, query: str, top_k: int = 6) -> Sequence[RetrievedChunk]:
        found = tuple(self._inner.search(query, top_k))
        self._answers[(query, top_k)] = found
        self.texts.update({chunk.chunk_id: chunk.text for chunk in found})
        return list(found)

    def recall(self) -> Retriever:
        """This log answering a query it has seen from memory (searching the others): the
        knowledge base does not change during a run and the retriever is a pure function of
        the query, so a conversation run again gets exactly the chunks it got before, for
        no search. The clean run searches for real: its latency is the assistant's."""
        return _Recall(self)

    def remembered(self, query: str, top_k: int) -> Sequence[RetrievedChunk]:
        found = self._answers.get((query, top_k))
        return self.search(query, top_k) if found is None else list(found)


class _Recall:
    def __init__(self, log: ChunkLog) -> None:
        self._log = log

    def search(self, query: str, top_k: int = 6) -> Sequence[RetrievedChunk]:
        return self._log.remembered(query, top_k)


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    scenario_id: str
    turn: ExpectedTurn
    message: str
    result: TurnResult
    latency_ms: float
    wrong: tuple[str, ...]
    """What made the reply verified-wrong (empty: it was not)."""
    failures: tuple[str, ...]
    """Expectations of the scenario file this turn missed."""
    identifier_hit: bool | None
    """For a `found` identifier turn: the reply's first identifier of that kind is it."""
    wrong_identifier: bool | None
    """For any identifier turn: the reply names another identifier of the asked kind."""


@dataclass(frozen=True, slots=True)
class FaultOutcome:
    fault: NarrationFault
    injected: int
    caught: int
    slipped: tuple[str, ...] = ()
    """`scenario#turn: original → corrupted` for each corrupted reply that was sent."""


@dataclass(frozen=True, slots=True)
class EvaluationReport:
    conversations: int
    turns: tuple[TurnOutcome, ...]
    faults: tuple[FaultOutcome, ...] = field(default=())

    @property
    def verified_wrong(self) -> list[TurnOutcome]:
        return [t for t in self.turns if t.wrong]

    @property
    def expectation_failures(self) -> list[TurnOutcome]:
        return [t for t in self.turns if t.failures]

    @property
    def faults_slipped(self) -> int:
        return sum(len(f.slipped) for f in self.faults)

    @property
    def passed(self) -> bool:
        return not self.verified_wrong and not self.faults_slipped and not self.expectation_failures


def _asked(message: str) -> Identifier | None:
    found = find_identifiers(message)
    return found[0] if found else None


def _identifier_checks(
    turn: ExpectedTurn, message: str, reply: str
) -> tuple[bool | None, bool | None, list[str]]:
    asked = _asked(message)
    if turn.identifier is None or asked is None:
        return None, None, ([f"no identifier in {message!r}"] if turn.identifier else [])
    same_kind = [i for i in find_identifiers(reply) if i.kind is asked.kind]
    wrong = any(i.key != asked.key for i in same_kind)
    failures = ["names another identifier"] if wrong else []
    if turn.identifier is IdentifierExpectation.FOUND:
        hit = bool(same_kind) and same_kind[0].key == asked.key
        return hit, wrong, failures + ([] if hit else ["the asked identifier is not answered"])
    if asked.literal not in reply:
        failures.append("the not-found reply does not repeat what was asked")
    return None, wrong, failures


def _expectation_failures(turn: ExpectedTurn, result: TurnResult) -> list[str]:
    failures = []
    if result.action is not turn.action or result.reason is not turn.reason:
        got = f"{result.action.value} {result.reason.value if result.reason else ''}".strip()
        want = f"{turn.action.value} {turn.reason.value if turn.reason else ''}".strip()
        failures.append(f"expected {want}, got {got}")
    if turn.cites and not result.citations:
        failures.append("expected a cited knowledge-base chunk")
    routed = next((r.decision for r in result.trace if r.stage == "intent"), "")
    if turn.intent and tuple(routed.split("+")) != turn.intent:
        failures.append(f"expected the route {'+'.join(turn.intent)}, got {routed or 'none'}")
    return failures


class SuiteRunner:
    def __init__(
        self,
        roles: DatasetRoles,
        open_assistant: OpenAssistant,
        faults: FaultSwitch,
        retriever: Retriever,
        quotable_identifiers: Sequence[str],
        clock: Callable[[], float] = time.perf_counter,
        test_clock: TestClock | None = None,
    ) -> None:
        self.roles = roles
        self._test_clock = test_clock
        self._open = open_assistant
        self._faults = faults
        self._chunks = ChunkLog(retriever)
        self._recalled = self._chunks.recall()
        self._published = text_facts(list(quotable_identifiers))
        self._clock = clock
        self._facts: dict[str, Facts] = {}

    def resolve(self, scenarios: Sequence[Scenario]) -> list[ResolvedScenario]:
        return [self.roles.resolve(s) for s in scenarios]

    def run(
        self, scenarios: Sequence[ResolvedScenario], narrator: Narrator | None = None
    ) -> EvaluationReport:
        """The clean run: expectations, verified-wrong, identifiers and latency."""
        turns: list[TurnOutcome] = []
        for scenario in scenarios:
            for turn, message, result, latency in self._converse(
                scenario, narrator or TemplateNarrator(), searching=True
            ):
                facts = self._subject_facts(scenario.subject) | self._published
                turns.append(self._judge(scenario, turn, message, result, latency, facts))
        return EvaluationReport(len(scenarios), tuple(turns))

    def _record(self, subject: CustomerRecord | None) -> CustomerRecord | None:
        """The subject's record as it is now: read once, and again after the test clock
        moves (`_advance`), never the copy resolved before the run."""
        return None if subject is None else self.roles.record.record(subject.account_number)

    def _subject_facts(self, subject: CustomerRecord | None) -> Facts:
        """`record_facts` of the record as it is now, once per customer until the clock
        moves: many scenarios are about the same one."""
        if subject is None:
            return NO_FACTS
        known = self._facts.get(subject.account_number)
        if known is None:
            known = self._facts[subject.account_number] = record_facts(self._record(subject))
        return known

    def _advance(self, clock: TestClock, minutes: float) -> None:
        """Move the test clock, and forget every record read: a report verified is a
        payment now, a new day bills, so the judge must not hold the reply to the figures
        of before (which would pass a stale balance and fail the right one)."""
        clock.advance(minutes=minutes)
        self.roles.record.record.cache_clear()
        self._facts.clear()

    def run_faults(
        self,
        scenarios: Sequence[ResolvedScenario],
        kinds: Sequence[NarrationFault] = tuple(NarrationFault),
    ) -> list[FaultOutcome]:
        """Every conversation again per fault kind, the template narrator's replies corrupted.

        A conversation is run again only for the kinds one of its replies offers something to
        corrupt (a probe pass notes them): the template narrator and the pipeline are
        deterministic, so a conversation whose replies offer a kind nothing runs, under that
        kind, exactly as it ran clean and injects nothing — skipping it changes no count."""
        offered = [self._offered(scenario, kinds) for scenario in scenarios]
        outcomes = []
        for kind in kinds:
            faulty = FaultyNarrator(TemplateNarrator(), kind)
            injected, caught, slipped = 0, 0, []
            for scenario in (
                s for s, kinds_offered in zip(scenarios, offered) if kind in kinds_offered
            ):
                for index, (_, _, result, _) in enumerate(self._converse(scenario, faulty)):
                    injection = faulty.last_injection
                    if injection is None or not injection.applied:
                        continue
                    injected += 1
                    if result.reason is EscalationReason.UNGROUNDED_OUTPUT:
                        caught += 1
                    else:
                        slipped.append(
                            f"{scenario.scenario.id}#{index + 1}: "
                            f"{injection.original} → {injection.corrupted}"
                        )
            outcomes.append(FaultOutcome(kind, injected, caught, tuple(slipped)))
        return outcomes

    def _offered(
        self, scenario: ResolvedScenario, kinds: Sequence[NarrationFault]
    ) -> set[NarrationFault]:
        probe = FaultProbe(TemplateNarrator(), kinds)
        for _ in self._converse(scenario, probe):
            pass
        return probe.offered

    def _converse(
        self, scenario: ResolvedScenario, narrator: Narrator, *, searching: bool = False
    ) -> Iterator[tuple[ExpectedTurn, str, TurnResult, float]]:
        """One conversation on a fresh assistant (fresh breaker, fresh conversation store),
        yielding after each turn — a faulty narrator's `last_injection` is that turn's.
        `searching`: every query goes to the retriever (the timed clean run); otherwise a
        query asked before is answered from the log (`ChunkLog.recall`)."""
        retriever = self._chunks if searching else self._recalled
        with self._open(narrator, retriever) as assistant:
            fault = scenario.scenario.fault
            if fault is not None:
                self._faults.add(**fault)
            outcomes = scenario.scenario.report_outcomes
            if outcomes:
                tenant = str(self.roles.info["tenant_id"])
                forced = [{"tenant": tenant, **outcome} for outcome in outcomes]
                self._faults.load_scenario(json.dumps({"report_outcomes": forced}))
            try:
                for turn, message in zip(scenario.scenario.turns, scenario.messages, strict=True):
                    if isinstance(narrator, FaultyNarrator):
                        narrator.last_injection = None
                    if turn.advance_minutes and self._test_clock is not None:
                        self._advance(self._test_clock, turn.advance_minutes)
                    started = self._clock()
                    result = assistant.pipeline.handle(
                        scenario.phone, message, message_id=turn.message_id
                    )
                    yield turn, message, result, (self._clock() - started) * 1000.0
            finally:
                if fault is not None or outcomes:
                    self._faults.clear()

    def _turn_facts(self, scenario: ResolvedScenario, message: str) -> Facts:
        """The subject's payment reports after the turn, and the rates of today and of the
        days the message names (`rate_facts`); none without a test clock to say today, nor
        while the scenario's fault rule would answer the judge's own reads."""
        if self._test_clock is None or scenario.scenario.fault is not None:
            return NO_FACTS
        today = self._test_clock.now().date()
        named = [
            m.value or (last_such_day(m.month_day, today) if m.month_day else None)
            for m in find_dates(message, day_first=True)
        ]
        # "ayer", "el sábado": the day a rate question names in words; "6/11" in English,
        # either day it may be (the turn asks which, naming both).
        named += [day_said(message, today), *(two_readings(message, today) or ())]
        days = {today, *(d for d in named if d is not None)}
        record = self.roles.record
        rates = [r for d in sorted(days) if (r := record.exchange_rate(d.isoformat())) is not None]
        subject = self._record(scenario.subject)
        reports = record.payment_reports(subject.account_number) if subject else ()
        return rate_facts(subject, reports, rates)

    def _judge(
        self,
        scenario: ResolvedScenario,
        turn: ExpectedTurn,
        message: str,
        result: TurnResult,
        latency: float,
        facts: Facts,
    ) -> TurnOutcome:
        reply = result.reply or ""
        cited = text_facts(
            [self._chunks.texts[c] for c in result.citations if c in self._chunks.texts]
        )
        backed = facts | cited
        wrong = wrong_items(reply, backed, message) if reply else []
        if wrong:
            # More facts only back more, so the turn's own (read from the API after the
            # turn) are read only when the record and the chunks leave something unbacked.
            wrong = wrong_items(reply, backed | self._turn_facts(scenario, message), message)
        hit, wrong_id, id_failures = _identifier_checks(turn, message, reply)
        return TurnOutcome(
            scenario.scenario.id,
            turn,
            message,
            result,
            latency,
            tuple(wrong),
            tuple(_expectation_failures(turn, result) + id_failures),
            hit,
            wrong_id,
        )
