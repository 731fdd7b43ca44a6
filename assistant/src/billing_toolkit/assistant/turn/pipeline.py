"""One assistant turn: a subscriber's message in; a grounded reply, silence, or an escalation out.

    gate → language → person? → identifiers → intent (a payment report?) → identity → claims
         → capability → retrieval → no context? → narrator → humanizer → grounding
         → identifier guard → promises → send

`AssistantPipeline` is the assistant of one tenant. Each `handle` runs one turn in a
`_RunningTurn` (the turn's mutable state while its stages run, each method one stage) and
returns the finished turn as a `TurnResult` (`turn/result.py`). Every stage after the gate
can end the turn, and every early end is a refusal path: silence while a person has the
conversation, a hand-off to a person, or a fixed "not found" / "who are you" notice. A reply
is sent only after the exact text to be sent passed the grounding verifier, the identifier
guard and the forbidden-phrase check. Each stage records its decision in the turn's trace.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, NoReturn

from billing_toolkit.assistant.guards.forbidden_phrases import find_forbidden_phrases
from billing_toolkit.assistant.guards.foreign_identifiers import foreign_identifiers
from billing_toolkit.assistant.guards.grounding import GroundingVerifier
from billing_toolkit.assistant.guards.humanizer import DEFAULT_MAX_CHARS, humanize
from billing_toolkit.assistant.narrator import (
    EvidenceChunk,
    NarrationError,
    NarrationRequest,
    Narrator,
    TemplateNarrator,
)
from billing_toolkit.assistant.retrieval.kinds import ChunkKind
from billing_toolkit.assistant.retrieval.relevance import ContextFloor
from billing_toolkit.assistant.store.model import (
    ConversationStore,
    Referent,
    Referents,
    ReportDraft,
)
from billing_toolkit.assistant.text.dates import format_date
from billing_toolkit.assistant.text.folding import fold
from billing_toolkit.assistant.text.identifiers import (
    Identifier,
    IdentifierKind,
    find_identifiers,
    normalize_phone,
)
from billing_toolkit.assistant.text.language import Language, detect_language
from billing_toolkit.assistant.text.masking import mask_personal
from billing_toolkit.assistant.text.sentences import split_sentences
from billing_toolkit.assistant.turn import notices, payment_reports
from billing_toolkit.assistant.turn.confirmation import is_affirmative, near
from billing_toolkit.assistant.turn.gate import pass_gate
from billing_toolkit.assistant.turn.identity import (
    Identity,
    IdentityStatus,
    claims_of_someone_else,
    identify,
)
from billing_toolkit.assistant.turn.intents import (
    PERSONAL_INTENTS,
    REPORTING,
    STATUS_OF_THE_REPORT,
    Route,
    RoutedPart,
    questions_besides_a_report,
    route_parts,
    topic_words,
)
from billing_toolkit.assistant.turn.invoice_choice import (
    asked_month,
    invoices_ending_in,
    invoices_of_period,
    periods_on_record,
)
from billing_toolkit.assistant.turn.payment_choice import (
    months_paid,
    payment_before,
    payments_applied_to,
    payments_of_period,
)
from billing_toolkit.assistant.turn.ports import BillingCapabilities, RetrievedChunk, Retriever
from billing_toolkit.assistant.turn.referents import FILED_REPORT, REFERENT_TTL, resolve, shown_by
from billing_toolkit.assistant.turn.result import Action, Trace, TurnResult
from billing_toolkit.assistant.understanding.classifier import IntentClassifier
from billing_toolkit.assistant.understanding.complaint import is_complaint
from billing_toolkit.assistant.understanding.models import default_classifier
from billing_toolkit.assistant.understanding.partial_identifiers import ends_with
from billing_toolkit.assistant.understanding.payment_report_reading import (
    ReportReading,
    day_said,
    read_payment_report,
    two_readings,
)
from billing_toolkit.assistant.understanding.periods import PeriodAsked
from billing_toolkit.assistant.understanding.person_request import asks_for_person, asks_for_sales
from billing_toolkit.assistant.understanding.referring import Pointer
from billing_toolkit.assistant.understanding.report_status_questions import asks_if_received
from billing_toolkit.assistant.vocabulary.escalation import (
    EscalationContext,
    EscalationReason,
    escalate,
)
from billing_toolkit.assistant.vocabulary.intents import Intent
from billing_toolkit.client.tool_result import ToolResult

logger = logging.getLogger(__name__)

DEFAULT_TOP_K = 6
SUGGESTION_POOL = 24
"""How many of the subscriber's latest invoices a "did you mean" may draw from."""


@dataclass(frozen=True, slots=True)
class PipelineSettings:
    """Tunables.

    `context_floor` decides which retrieved chunks count as context at all (see
    `retrieval/relevance.py`, which decides pruning too). `operator_identifiers`:
    identifiers any subscriber may be told — the operator's RIF and phone, the format
    examples its articles quote; every other identifier in a reply must be the subscriber's
    own.
    """

    top_k: int = DEFAULT_TOP_K
    context_floor: ContextFloor = field(default_factory=ContextFloor)
    max_reply_chars: int = DEFAULT_MAX_CHARS
    operator_identifiers: tuple[str, ...] = ()
    two_factor_self_service: bool = False
    """The tenant's opt-in: a phone not on the account may prove identity with the account
    number and the national ID together. Off: such a phone gets policy answers only."""
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    """When referents expire ("esa" points at what was shown less than `REFERENT_TTL` ago)."""


class _TurnOver(Exception):
    """Raised by a stage that ends the turn early; carries the turn's result."""

    def __init__(self, result: TurnResult) -> None:
        super().__init__(result.action.value)
        self.result = result


class _PartSaid(Exception):
    """Raised while a part is answered when its reply is a fixed text (the question for a
    report's missing field, the API's refusal of a report): alone in its turn, that text is
    the turn's notice; beside other parts, it is this part of the reply."""

    def __init__(self, text: str, quoted: Sequence[str] = ()) -> None:
        super().__init__(text)
        self.text = text
        self.quoted = tuple(quoted)
        """What backs the text beyond the subscriber's words (the days a date may be)."""


@dataclass(frozen=True, slots=True)
class _Answer:
    """One part of a reply and what backs it."""

    reply: str
    used_chunk_ids: tuple[str, ...]
    chunks: tuple[RetrievedChunk, ...]
    tool_texts: tuple[str, ...]
    about_account: bool
    shown: tuple[Referent, ...] = ()


class AssistantPipeline:
    """The assistant for one tenant: capabilities, conversation store, retriever, narrator."""

    def __init__(
        self,
        *,
        tenant: str,
        capabilities: BillingCapabilities,
        store: ConversationStore,
        retriever: Retriever | None = None,
        narrator: Narrator | None = None,
        verifier: GroundingVerifier | None = None,
        settings: PipelineSettings | None = None,
        classifier: IntentClassifier | None = None,
    ) -> None:
        self.tenant = tenant
        self.capabilities = capabilities
        self.store = store
        self.retriever = retriever
        self.narrator = narrator or TemplateNarrator()
        self.verifier = verifier or GroundingVerifier()
        self.settings = settings or PipelineSettings()
        self.classifier = classifier or default_classifier()

    def handle(self, phone: str, message: str, *, message_id: str | None = None) -> TurnResult:
        """Run one turn for the subscriber writing from `phone`; `message_id` is WhatsApp's
        id of the message, when the channel has one (a payment report it completes is filed
        under a key derived from it, so a redelivery files nothing new).

        Raises ValueError when `phone` is not a phone number.
        """
        e164 = normalize_phone(phone)
        if e164 is None:
            raise ValueError(f"not a phone number (expected E.164, e.g. +584121234567): {phone!r}")
        turn = _RunningTurn(self, e164, message, message_id)
        try:
            result = turn.run()
        except _TurnOver as over:
            result = over.result
        logger.info(
            "turn tenant=%s phone=%s action=%s reason=%s",
            self.tenant,
            mask_personal(e164),
            result.action.value,
            result.reason.value if result.reason else "-",
        )
        return result


class _RunningTurn:
    """One turn while it runs: its mutable state, each method one stage. What it leaves
    behind is a `TurnResult`."""

    def __init__(
        self, pipeline: AssistantPipeline, phone: str, message: str, message_id: str | None
    ) -> None:
        self.p = pipeline
        self.phone = phone
        self.message = message
        self.message_id = message_id
        self.question = message
        self.trace = Trace()
        self.conversation = pipeline.store.get(pipeline.tenant, phone)
        self.language = self.conversation.language
        self.identity = Identity(IdentityStatus.UNKNOWN)
        self.identifiers: list[Identifier] = []
        self.intent = Intent.POLICY
        self.capability: str | None = None
        self.wants: str | None = None
        self.now = pipeline.settings.clock()
        self.draft: ReportDraft | None = None
        """The payment report this turn reads (`_reporting`), if it is one."""
        self.filed: _Answer | None = None
        """The reply quoting the report this turn filed: said even when the turn hands over."""

    # -- stages -------------------------------------------------------------------------

    def run(self) -> TurnResult:
        gate = pass_gate(self.conversation)
        self.trace.record("gate", "proceed" if gate.proceed else "silent", state=gate.state.value)
        if not gate.proceed:
            return TurnResult(Action.SILENT, None, (), self.trace.records)
        self.language = detect_language(self.message, fallback=self.conversation.language)
        self.conversation = replace(self.conversation, language=self.language)
        self.trace.record("language", self.language.value)
        self._people_first()
        self.identifiers = find_identifiers(self.message)
        self._record_identifiers()
        parts = self._route(self.message)
        parts = self._identify(parts)
        parts = self._confirmation(parts)
        if self.draft is None:
            # A report's payer phone or reference is not a claim to be someone else.
            self._check_claims()
        answers = [self._answer(part, alone=len(parts) == 1) for part in parts]
        return self._compose(parts, answers)

    def _people_first(self) -> None:
        """A complaint, then a request for a person, anywhere in the message, hands over
        before anything is answered — even after a question ("¿cuánto debo? y luego me
        comunicas con un agente"): the agent answers the question with the rest, and a
        half-answer from the bot would only be repeated."""
        complaint = is_complaint(self.message)
        self.trace.record("complaint", "escalate" if complaint else "none", phrase=complaint)
        if complaint:
            self._who_writes()
            self._escalate(EscalationReason.COMPLAINT)
        phrase = asks_for_person(self.message, self.p.classifier)
        self.trace.record("person_request", "escalate" if phrase else "none", phrase=phrase)
        if phrase:
            if asks_for_sales(self.message):
                self.wants = "hablar con ventas / talk to sales"
            self._who_writes()
            self._escalate(EscalationReason.USER_REQUEST)

    def _who_writes(self) -> None:
        """Before a hand-over that comes first, who the agent is talking to, as far as it is
        proven (the phone on an account, or an account verified earlier in the chat; never a
        claim in the message): "Cliente sin identificar" for a known subscriber sends the
        agent looking them up. An outage leaves them unidentified — the hand-over goes on."""
        found = identify(self.p.capabilities, self.phone, self.conversation, ())
        if found.status in (IdentityStatus.KNOWN_PHONE, IdentityStatus.VERIFIED):
            self.identity = found

    def _route(self, message: str) -> list[RoutedPart]:
        parts = route_parts(
            message,
            self.identifiers,
            classifier=self.p.classifier,
            pointing=self._pointing(),
        )
        parts = [self._after_filing(part) for part in self._reporting(parts)]
        self.trace.record(
            "intent",
            "+".join(p.route.intent.value for p in parts),
            capability=[p.route.capability for p in parts],
            cue=[p.route.cue for p in parts],
        )
        return parts

    def _reporting(self, parts: list[RoutedPart]) -> list[RoutedPart]:
        """A payment being reported — routed as one, said in so many words (a reference with
        a method or amount), or the answer to a question about a draft — is one part of the
        turn, and the questions asked beside it the others (`questions_besides_a_report`):
        the report first when it is complete (a status asked is then the new report's), last
        when a field is still missing (the reply ends with its question). A draft the
        message says nothing of is abandoned (`turn/payment_reports.py`)."""
        stored = self.conversation.report_draft
        live = stored if stored is not None and stored.live(self.now) else None
        asked = live.asked if live else None
        if live is not None and payment_reports.drops_the_report(self.message):
            self.trace.record("report_draft", "dropped", asked=live.asked)
            self.conversation = replace(self.conversation, report_draft=None)
            self._notice(notices.report_dropped(self.language))
        reading = self._read_report(self.message, asked)
        new_report = payment_reports.says_a_report(reading, self.message)
        reporting = new_report or any(p.route.intent is Intent.PAYMENT_REPORT for p in parts)
        if live is not None and not reporting and not payment_reports.continues(live, reading):
            self.trace.record("report_draft", "abandoned", asked=live.asked)
            live = None
        if stored is not None and live is None:
            self.conversation = replace(self.conversation, report_draft=None)
        correcting = None if live is not None or new_report else self._correcting(reading)
        if correcting is not None:
            return [correcting]
        if live is None and not reporting:
            return parts
        besides = questions_besides_a_report(
            self.message,
            self.identifiers,
            classifier=self.p.classifier,
            pointing=self._pointing(),
            of_the_report=lambda clause: payment_reports.states_facts(
                self._read_report(clause, asked)
            ),
        )
        if besides:
            # The report is what the rest says: the "hoy" of "¿cuánto debo hoy?" is no day paid.
            rest = self.message
            for part in besides:
                rest = rest.replace(part.text, " ")
            reading = self._read_report(rest, asked)
        if reading.several_references:
            # Two payments in one message: one report per payment is for an agent to sort
            # out, never one of them filed and the other lost.
            self.trace.record("report_draft", "several references")
            self.conversation = replace(self.conversation, report_draft=None)
            self.wants = "reportar varios pagos / report several payments"
            self._escalate(EscalationReason.CAPABILITY_MISSING)
        self.draft = payment_reports.merged(live, reading)
        self.trace.record(
            "report_draft",
            "continued" if live else "started",
            besides=[p.route.intent.value for p in besides],
        )
        report = RoutedPart(self.message, REPORTING)
        if payment_reports.missing(self.draft) is not None:
            return [*besides, report]
        # "…hoy, ¿ya lo verificaron?": the filed report's reply says its status.
        return [report, *(p for p in besides if p.route.intent is not Intent.REPORT_STATUS)]

    def _after_filing(self, part: RoutedPart) -> RoutedPart:
        """ "Did you get my payment?" right after a report was filed asks about that report
        (its status), not the last payment on record — which the report is not until it is
        verified; asked at any other time it stays the last payment."""
        filed = self.conversation.referents.of_kind(FILED_REPORT, self.now)
        if not filed or part.route.intent is not Intent.LAST_PAYMENT:
            return part
        if not asks_if_received(fold(part.text)):
            return part
        return RoutedPart(part.text, STATUS_OF_THE_REPORT)

    def _correcting(self, reading: ReportReading) -> RoutedPart | None:
        """A correction of the report the last reply filed ("no, fue ayer", "perdón, la
        referencia es 0045128"): for a person, with the report's id — a filed report is
        not amended here, and filing the corrected one again would be rejected as a
        duplicate of the first (`payment_report.duplicate_reference`)."""
        filed = self.conversation.referents.of_kind(FILED_REPORT, self.now)
        said = payment_reports.states_facts(reading) or reading.payment_date is not None
        if not filed or not said or not payment_reports.corrects(self.message):
            return None
        self.trace.record("report_draft", "correction of a filed report", report=filed[0])
        wants = f"corregir el reporte {filed[0]} / correct payment report {filed[0]}"
        cue = "corrects a filed report"
        return RoutedPart(
            self.message, Route(Intent.UNSUPPORTED, "correct_payment_report", {}, cue, wants=wants)
        )

    def _pointing(self) -> frozenset[str]:
        """The kinds of what the last reply showed that "esa" may point at (a report filed is
        not one)."""
        live = self.conversation.referents.live(self.now)
        return frozenset(r.kind for r in live if r.kind != FILED_REPORT)

    def _read_report(self, text: str, asked: str | None) -> ReportReading:
        return read_payment_report(text, self._today(), asked, day_first=self._day_first())

    def _file_report(self) -> ToolResult:
        """Ask for the next missing field, or file the complete report once (its key from
        the message that completed it) and forget the draft. The question, or the API's
        refusal, is this part's whole reply (`_PartSaid`)."""
        draft = self.draft or ReportDraft()
        field_ = payment_reports.missing(draft)
        self.trace.record("report_draft", f"asks {field_}" if field_ else "complete")
        if field_ is not None:
            self.conversation = replace(
                self.conversation, report_draft=payment_reports.asking(draft, field_, self.now)
            )
            if field_ == "payment_date":
                self._ask_if_two_ways(self.message)
            raise _PartSaid(payment_reports.question(field_, self.language))
        self.conversation = replace(self.conversation, report_draft=None)
        key = payment_reports.idempotency_key(self.p.tenant, self.phone, self.message_id, draft)
        result = self._invoke(
            "report_payment", paid=payment_reports.reported(draft), idempotency_key=key
        )
        if not result.ok:
            raise _PartSaid(notices.nothing_on_record("report_payment", self.language))
        return result

    def _rate(self, on: date, usd_amount: Decimal | None = None) -> ToolResult:
        result = self._use("exchange_rate", on, usd_amount)
        if not result.ok:
            self._notice(notices.nothing_on_record("exchange_rate", self.language))
        return result

    def _due_in_bolivares(self, *, overdue: bool = False) -> list[ToolResult]:
        """The amount due (`overdue`: only what is overdue, "lo vencido en bs") at the rate of
        the billing system's today (the balance's as-of day). An account billed in bolívares
        already owes bolívares, and nothing due is nothing to convert ("USD 0,00 son Bs.
        0,00" would hide a credit): the balance answers, its credit included."""
        balance = self._invoke("balance")
        data = balance.data or {}
        if not balance.ok or not data:
            self._notice(notices.nothing_on_record("balance", self.language))
        field = "overdue_amount" if overdue else "amount_due"
        if data.get("currency") != "USD" or Decimal(str(data[field])) <= 0:
            self.intent = Intent.BALANCE
            return [balance]
        on = _day(data["as_of"]) if data.get("as_of") else self._today()
        shown = replace(balance, data={**data, "converted": field})
        return [shown, self._rate(on, Decimal(str(data[field])))]

    def _report_status(self, said: str) -> ToolResult:
        """The newest report's status, or — `said` names a reference ("¿qué pasó con la
        referencia 0045127?") — the newest report of that reference (none on record is said
        as such, never answered with another report's status)."""
        asked = self._read_report(said, None).reference
        if asked is not None:
            self.trace.record("report_status", "by reference", asked=asked)
        result = self._invoke("latest_payment_report", reference=asked)
        if not result.ok:
            self._notice(notices.nothing_on_record("latest_payment_report", self.language))
        return result

    def _day_first(self) -> bool | None:
        """How the subscriber writes a numeric date: 09/11/2026 is 9 November in Spanish. In
        English it may be either — a Venezuelan operator's subscriber writes day-first in
        any language, the language month-first — so None: such a date has no value read
        into it and is asked about (`_ask_if_two_ways`), never guessed."""
        return None if self.language is Language.ENGLISH else True

    def _ask_if_two_ways(self, said: str) -> None:
        """Ask which day a numeric date of `said` is, when the subscriber's usage does not
        tell and both readings are real days ("rate 6/11": November 6 or June 11?)."""
        readings = two_readings(said, self._today()) if self._day_first() is None else None
        if readings is not None:
            self.trace.record("date", "two readings", readings=[d.isoformat() for d in readings])
            question = payment_reports.which_day(readings, self.language)
            raise _PartSaid(question, [d.isoformat() for d in readings])

    def _today(self) -> date:
        """The day of the pipeline's clock (UTC, as the billing API counts its days)."""
        return self.now.astimezone(UTC).date()

    def _identify(self, parts: list[RoutedPart]) -> list[RoutedPart]:
        """Who is writing; returns the parts to answer (the pending question's, after proof).

        From a phone that is not on the account, account data is never given on a claim:
        policy questions are answered, anything about an account hands over for
        verification — unless the tenant opted into two-factor self-service."""
        self.identity = identify(
            self.p.capabilities,
            self.phone,
            self.conversation,
            self.identifiers,
            two_factor=self.p.settings.two_factor_self_service,
        )
        self.trace.record(
            "identity",
            self.identity.status.value,
            lookups=[r.capability for r in self.identity.lookups],
        )
        status = self.identity.status
        if status is IdentityStatus.OUTAGE:
            failure = self.identity.failure
            self.capability = failure.capability if failure else None
            self._escalate(
                EscalationReason.TOOL_ERROR, tool_error=failure.error if failure else None
            )
        if status is IdentityStatus.NOT_FOUND:
            self._notice(notices.identity_not_found(self.language))
        if status is IdentityStatus.UNKNOWN:
            personal = any(p.route.intent in PERSONAL_INTENTS for p in parts)
            if not personal and not self.identifiers:
                return parts
            if self.p.settings.two_factor_self_service:
                if personal:
                    self.conversation = replace(self.conversation, pending_question=self.message)
                self._notice(notices.ask_two_factor(self.language))
            self._escalate(EscalationReason.IDENTITY_UNVERIFIED)
        if status is IdentityStatus.JUST_VERIFIED:
            return self._after_verification(parts)
        return parts

    def _after_verification(self, parts: list[RoutedPart]) -> list[RoutedPart]:
        customer = self._customer()
        pending = self.conversation.pending_question
        self.conversation = replace(
            self.conversation,
            pending_question=None,
            verified_account=str(customer.get("account_number")),
        )
        if any(p.route.intent in PERSONAL_INTENTS for p in parts):
            return parts
        if pending is None:
            self._notice(notices.identity_confirmed(customer.get("name"), self.language))
        return self._answer_pending(str(pending))

    def _answer_pending(self, pending: str) -> list[RoutedPart]:
        self.question = pending
        self.identifiers = find_identifiers(pending)
        parts = route_parts(pending, self.identifiers, classifier=self.p.classifier)
        self.trace.record(
            "pending_question",
            "+".join(p.route.intent.value for p in parts),
            capability=[p.route.capability for p in parts],
        )
        return parts

    def _confirmation(self, parts: list[RoutedPart]) -> list[RoutedPart]:
        """A "sí" to "¿Quisiste decir INV-…?" answers the suggested question; anything else
        drops the suggestion."""
        pending = self.conversation.pending_question
        if pending is None or self.identity.customer is None:
            return parts
        self.conversation = replace(self.conversation, pending_question=None)
        if not is_affirmative(self.message):
            return parts
        return self._answer_pending(pending)

    def _check_claims(self) -> None:
        customer = self.identity.customer
        foreign = claims_of_someone_else(self.identifiers, customer) if customer else []
        self.trace.record(
            "claims", "not_found" if foreign else "ok", foreign=[i.literal for i in foreign]
        )
        if foreign:
            self._notice(notices.not_found(foreign, self.language))

    def _answer(self, part: RoutedPart, *, alone: bool) -> _Answer | None:
        """One part of the reply, narrated from its evidence; None when nothing backs it."""
        try:
            results = self._call(part.route, part.text)
        except _PartSaid as said:
            if alone:
                self._notice(said.text, quoted=said.quoted)
            # A fixed text states no figure: it needs no backing, and the subscriber's own
            # words (their "Bs. 1.310,40") back nothing in the other parts.
            return _Answer(said.text, (), (), said.quoted, about_account=False)
        personal = part.route.intent in PERSONAL_INTENTS
        topic = part.route.topic
        query = f"{part.text} {topic_words(topic, self.language)}" if topic else part.text
        chunks = self._retrieve(query)
        usable = [c for c in chunks if not personal or c.kind == ChunkKind.POLICY]
        evidence = [r for r in results if r.ok and r.evidence_text]
        if not evidence and not usable:
            return None
        request = NarrationRequest(
            question=part.text,
            language=self.language,
            intent=self.intent,
            customer=self.identity.customer,
            tool_results=tuple(evidence),
            chunks=tuple(
                EvidenceChunk(
                    c.chunk_id,
                    c.text,
                    c.language,
                    c.vector_score,
                    c.kind,
                    " > ".join(c.heading_path),
                )
                for c in usable
            ),
        )
        try:
            narration = self.p.narrator.narrate(request)
        except NarrationError as exc:
            self.trace.record("narration", "failed", error=str(exc))
            self._escalate(EscalationReason.UNGROUNDED_OUTPUT, unsupported=(f"narrator: {exc}",))
        self.trace.record(
            "narration",
            "narrated",
            intent=part.route.intent.value,
            used_chunk_ids=list(narration.used_chunk_ids),
        )
        answer = _Answer(
            narration.reply,
            narration.used_chunk_ids,
            tuple(chunks),
            tuple(str(r.evidence_text) for r in evidence),
            personal,
            shown_by(evidence),
        )
        if part.route.intent is Intent.PAYMENT_REPORT:
            self.filed = answer
        return answer

    def _call(self, answering: Route, said: str) -> list[ToolResult]:
        """The capability call(s) that answer `answering`, the route of `said` (the day of a
        rate asked is the one that part names); [] for policy questions."""
        self.intent = answering.intent
        self.capability = answering.capability
        if answering.intent is Intent.GREETING:
            self._notice(notices.greeting(self._customer().get("name"), self.language))
        if answering.intent is Intent.THANKS:
            self._notice(notices.closing(self._customer().get("name"), self.language))
        if answering.intent is Intent.UNSUPPORTED:
            self.wants = answering.wants
            self._escalate(EscalationReason.CAPABILITY_MISSING)
        if answering.intent in (Intent.POLICY, Intent.OFF_TOPIC) or answering.capability is None:
            # Off-topic by the model's reading is still answered when the knowledge base
            # has it ("¿a qué hora atienden?"); nothing relevant hands over NO_CONTEXT.
            self.trace.record("capability", "none")
            return []
        invoices = [i for i in self.identifiers if i.kind is IdentifierKind.INVOICE]
        if answering.intent is Intent.INVOICE and answering.capability == "invoices":
            return self._invoice_named(answering.params)
        if answering.intent is Intent.INVOICE:
            return self._resolve_invoices(invoices)
        if answering.intent is Intent.BILL_CHANGE and invoices:
            return self._bill_change_of(invoices)
        if answering.intent is Intent.BILL_CHANGE and answering.params:
            return self._bill_change_named(answering.params)
        if answering.intent is Intent.SERVICE:
            return [r for r in (self._invoke("plan"), self._invoke("balance")) if r.ok]
        if answering.intent is Intent.PAYMENT_REPORT:
            return [self._file_report()]
        if answering.intent is Intent.EXCHANGE_RATE:
            self._ask_if_two_ways(said)
            asked = day_said(said, self._today(), day_first=self._day_first())
            return [self._rate(asked or self._today())]
        if answering.intent is Intent.DUE_IN_BOLIVARES:
            return self._due_in_bolivares(overdue=bool(answering.params.get("overdue")))
        if answering.intent is Intent.REPORT_STATUS:
            return [self._report_status(said)]
        if answering.capability == "payments":
            return self._payments_named(answering.params)
        if answering.capability == "due_date":
            return self._due_date()
        result = self._invoke(answering.capability, **answering.params)
        if not result.ok:
            self._notice(notices.nothing_on_record(answering.capability, self.language))
        return [result]

    def _resolve_invoices(self, invoices: Sequence[Identifier]) -> list[ToolResult]:
        """Exact lookups; a miss, a malformed number or a different number returned is "not
        found" — never the nearest invoice. A number written in a form that is not silently
        mapped (spaces, a look-alike letter, an extra character) gets suggestions from the
        subscriber's own invoices and nothing else until they pick one."""
        found: list[ToolResult] = []
        missing: list[Identifier] = []
        for invoice in invoices:
            result = (
                self._invoke("invoice_by_number", invoice_number=invoice.normalized)
                if invoice.normalized
                else None
            )
            if (
                result is not None
                and result.ok
                and result.data is not None
                and result.data.get("invoice_number") == invoice.normalized
            ):
                found.append(result)
            else:
                missing.append(invoice)
        variants = [i for i in missing if i.variant_of is not None]
        if variants:
            suggestions = self._suggestions(variants)
            if len(suggestions) == 1:
                self.conversation = replace(
                    self.conversation, pending_question=f"factura {suggestions[0]}"
                )
            self._notice(
                notices.did_you_mean(variants, suggestions, self.language), quoted=suggestions
            )
        if missing:
            self._notice(notices.not_found(missing, self.language))
        return found

    def _invoice_named(
        self, params: Mapping[str, Any], listing: ToolResult | None = None
    ) -> list[ToolResult]:
        """ "La de julio", "la que termina en 4410": resolved among the subscriber's own
        invoices only. One match is shown; several get a labelled choice; none is said, with
        the periods they do have. `listing`: their invoices when the turn already has them."""
        listing = listing or self._invoke("invoices", limit=SUGGESTION_POOL)
        own: list[Mapping[str, Any]] = list((listing.data or {}).get("invoices", []))
        period: PeriodAsked | None = params.get("period")
        pointer: Pointer | None = params.get("pointer")
        today = self._billing_today() if period and period.months_back is not None else None
        asked: str | None = None
        if period is not None:
            asked = asked_month(period, today, self.language)
            matches = invoices_of_period(own, period, today)
            on_record = periods_on_record(own, self.language)
            missing = notices.no_invoice_for_period(asked, on_record, self.language)
        elif pointer is not None:
            matches = self._pointed_at(pointer, own)
            missing = notices.which_invoice(self.language)
        else:
            asked = str(params["suffix"])
            matches = invoices_ending_in(own, asked)
            if not matches:
                return self._payment_ending_in(asked)
            missing = notices.no_invoice_ending(asked, self.language)
        self.trace.record(
            "invoice_named",
            f"{len(matches)} match",
            asked=asked,
            matched=[str(i["invoice_number"]) for i in matches],
        )
        if len(matches) == 1:
            return self._resolve_invoices(find_identifiers(str(matches[0]["invoice_number"])))
        evidence = [str(listing.evidence_text)] if listing.evidence_text else []
        if matches:
            options = [
                (str(i["invoice_number"]), format_date(_day(i["issue_date"]), self.language))
                for i in matches
            ]
            self._remember(tuple(Referent("invoice", number) for number, _ in options))
            self._notice(notices.choose_invoice(asked, options, self.language), quoted=evidence)
        self._notice(missing, quoted=evidence)

    def _payments_named(self, params: Mapping[str, Any]) -> list[ToolResult]:
        """ "¿Cuánto pagué en agosto?", "¿y el anterior?", "¿con qué lo pagué?" (the one shown):
        resolved among the subscriber's own payments. What matches is shown; none is said, with the months they did pay in —
        never another month's payment as if it were the one asked for."""
        listing = self._invoke("payments")
        self.intent = Intent.LAST_PAYMENT
        if not listing.ok:
            self._notice(notices.nothing_on_record("last_payment", self.language))
            return []
        own: list[Mapping[str, Any]] = list((listing.data or {}).get("payments", []))
        period: PeriodAsked | None = params.get("period")
        invoice = self.conversation.referents.of_kind("invoice", self.now)[:1]
        of_invoice = invoice[0] if params.get("of_invoice") and invoice else None
        asked: str | None = None
        if period is not None:
            today = self._billing_today() if period.months_back is not None else None
            asked = asked_month(period, today, self.language)
            matches = payments_of_period(own, period, today)
            missing = notices.no_payment_for_period(
                asked, months_paid(own, self.language), self.language
            )
        else:
            shown = self.conversation.referents.of_kind("payment", self.now)
            if of_invoice is not None:  # "¿cuándo la pagué?"
                matches = payments_applied_to(own, of_invoice)
                missing = notices.no_payment_for_invoice(self.language)
            elif params.get("shown"):  # the one shown, not the last: "¿con qué lo pagué?"
                matches = [p for p in own if shown and str(p["payment_id"]) == shown[0]]
                missing = notices.nothing_on_record("last_payment", self.language)
            else:
                matches = payment_before(own, shown[0] if shown else None)
                missing = notices.no_payment_before(self.language)
        self.trace.record(
            "payment_named",
            f"{len(matches)} match",
            asked=asked,
            matched=[str(p["payment_id"]) for p in matches],
        )
        if matches:
            data = {
                **(listing.data or {}),
                "payments": matches,
                "asked": asked,
                "shown": bool(params.get("shown")),
                "of_invoice": of_invoice,
            }
            return [replace(listing, data=data)]
        self._notice(missing, quoted=[str(listing.evidence_text)] if listing.evidence_text else [])

    def _payment_ending_in(self, suffix: str) -> list[ToolResult]:
        """No invoice of theirs ends in those digits: their last payment (its id or its
        bank reference) may; otherwise "no invoice of yours ends in …"."""
        result = self._invoke("last_payment")
        payment = (result.data or {}).get("payment") if result.ok else None
        keys = [str(payment["payment_id"]), str(payment.get("reference") or "")] if payment else []
        matched = any(ends_with(key, suffix) for key in keys)
        self.trace.record("payment_named", "match" if matched else "none")
        if not matched:
            self._notice(notices.no_invoice_ending(suffix, self.language))
        self.intent = Intent.LAST_PAYMENT
        return [result]

    def _pointed_at(
        self, pointer: Pointer, own: Sequence[Mapping[str, Any]]
    ) -> list[Mapping[str, Any]]:
        """The subscriber's invoices a follow-up points at, in the order they were shown."""
        shown = self.conversation.referents.of_kind("invoice", self.now)
        by_number = {str(i["invoice_number"]): i for i in own}
        meant = resolve(pointer, shown, list(by_number))
        return [by_number[n] for n in meant if n in by_number]

    def _remember(self, shown: tuple[Referent, ...]) -> None:
        """What this reply shows, for the next turn's "esa" (until `REFERENT_TTL`)."""
        self.conversation = replace(
            self.conversation, referents=Referents(shown, self.now + REFERENT_TTL)
        )

    def _billing_today(self) -> date | None:
        """The billing system's date (the balance's `as_of`): what "last month" counts from."""
        balance = self._invoke("balance")
        as_of = (balance.data or {}).get("as_of") if balance.ok else None
        return _day(as_of) if as_of else None

    def _suggestions(self, variants: Sequence[Identifier]) -> list[str]:
        """The subscriber's own invoice numbers each variant could be (its reading, or one
        character away from it), deterministic order."""
        listing = self._invoke("invoices", limit=SUGGESTION_POOL)
        own = (
            [str(i["invoice_number"]) for i in (listing.data or {}).get("invoices", [])]
            if listing.ok
            else []
        )
        picked = [n for v in variants for n in sorted(own) if near(str(v.variant_of), n)]
        self.trace.record("suggestions", f"{len(picked)} offered", offered=picked)
        return list(dict.fromkeys(picked))

    def _bill_change_of(self, invoices: Sequence[Identifier]) -> list[ToolResult]:
        """ "Why is INV-… higher": the comparison, only if it is about that very invoice."""
        requested = self._resolve_invoices(invoices)
        change = self._invoke("bill_change")
        latest = (change.data or {}).get("latest") if change.ok else None
        compared = latest.get("invoice_number") if latest else None
        if compared in {i.normalized for i in invoices}:
            return [change]
        self.trace.record("bill_change", "showing the requested invoice instead", compared=compared)
        self.intent = Intent.INVOICE
        return requested

    def _due_date(self) -> list[ToolResult]:
        """ "¿Cuándo vence?", "¿cuántos días me quedan para pagar?": the balance (the next
        due date and the days to it); with something overdue, also when it fell due and how
        long ago (`arrears`) — an overdue account's answer is that it already was, which
        the balance alone does not say."""
        balance = self._invoke("balance")
        if not balance.ok:
            self._notice(notices.nothing_on_record("balance", self.language))
            return [balance]
        if Decimal(str((balance.data or {}).get("overdue_amount", "0"))) <= 0:
            return [balance]
        arrears = self._invoke("arrears")
        return [balance, arrears] if arrears.ok else [balance]

    def _bill_change_named(self, params: Mapping[str, Any]) -> list[ToolResult]:
        """ "¿Por qué subió la de octubre?", "octubre vs septiembre": the named invoice (the
        later of two) against the one before it — never the latest against its own when
        another was named. Two named that are not one after the other are shown side by
        side instead (no comparison of a pair the capability did not compute); a month or
        digits that name no single invoice are answered as the invoice question would be."""
        listing = self._invoke("invoices", limit=SUGGESTION_POOL)
        own: list[Mapping[str, Any]] = list((listing.data or {}).get("invoices", []))
        asked = [{"period": p} for p in params.get("periods", ())] or [dict(params)]
        relative = any(p.months_back is not None for p in params.get("periods", ()))
        today = self._billing_today() if relative else None  # one balance call for all
        named: list[Mapping[str, Any]] = []
        for one in asked:
            period: PeriodAsked | None = one.get("period")
            matches = (
                invoices_of_period(own, period, today)
                if period is not None
                else invoices_ending_in(own, str(one["suffix"]))
            )
            if len(matches) != 1:
                self.intent = Intent.INVOICE
                return self._invoice_named(one, listing)
            named.append(matches[0])
        named.sort(key=lambda i: (str(i["issue_date"]), str(i["invoice_number"])))
        later, earlier = (
            str(named[-1]["invoice_number"]),
            [str(i["invoice_number"]) for i in named[:-1]],
        )
        change = self._invoke("bill_change", invoice_number=later)
        previous = ((change.data or {}).get("previous") or {}).get("invoice_number")
        if change.ok and earlier in ([], [previous]):
            return [change]
        self.trace.record(
            "bill_change", "showing the named invoices instead", named=[*earlier, later]
        )
        self.intent = Intent.INVOICE
        return self._resolve_invoices(find_identifiers(" ".join([later, *earlier])))

    def _invoke(self, capability: str, **params: Any) -> ToolResult:
        """A capability about the subscriber's own account."""
        return self._use(capability, str(self._customer().get("account_number")), **params)

    def _use(self, capability: str, *args: Any, **params: Any) -> ToolResult:
        """Call a capability: a missing one hands over CAPABILITY_MISSING, an outage
        TOOL_ERROR."""
        method: Callable[..., ToolResult] | None = getattr(self.p.capabilities, capability, None)
        self.capability = capability
        if not callable(method):
            self.trace.record("capability", "missing", capability=capability)
            self._escalate(EscalationReason.CAPABILITY_MISSING)
        result: ToolResult = method(*args, **params)
        outcome = "ok" if result.ok else "outage" if result.should_escalate else "not_found"
        self.trace.record("capability", outcome, capability=capability, error=result.error)
        if result.should_escalate:
            self._escalate(EscalationReason.TOOL_ERROR, tool_error=result.error)
        return result

    def _retrieve(self, query: str) -> list[RetrievedChunk]:
        """Knowledge-base context. A failing retriever must not take the bot down: the turn
        continues without context (and escalates NO_CONTEXT if it had nothing else)."""
        if self.p.retriever is None:
            self.trace.record("retrieval", "not_configured")
            return []
        try:
            found = list(self.p.retriever.search(query, self.p.settings.top_k))
        except Exception as exc:  # noqa: BLE001 — any retriever failure means "no context"
            self.trace.record("retrieval", "failed", error=repr(exc))
            return []
        kept = [c for c in found if self.p.settings.context_floor.admits(c)]
        self.trace.record(
            "retrieval",
            f"{len(kept)} of {len(found)} kept",
            kept=[c.chunk_id for c in kept],
            dropped=[c.chunk_id for c in found if c not in kept],
        )
        return kept

    def _compose(
        self, parts: Sequence[RoutedPart], answers: Sequence[_Answer | None]
    ) -> TurnResult:
        """Every part answered in order; a part nothing backs is named, and a turn where
        nothing backs anything hands over (NO_CONTEXT)."""
        answered = [a for a in answers if a is not None]
        if not answered:
            self.trace.record("context", "none")
            self._escalate(EscalationReason.NO_CONTEXT)
        self.trace.record("context", "available", parts=len(parts), answered=len(answered))
        replies: list[str] = []
        for p, a in zip(parts, answers, strict=True):
            reply = a.reply if a is not None else notices.part_unanswered(p.text, self.language)
            if a is not None and _already_said(reply, replies):
                continue  # "mi saldo en bolívares y la tasa": the conversion stated the rate
            replies.append(reply)
        chunks = {c.chunk_id: c for a in answered for c in a.chunks}
        named = [p.text for p, a in zip(parts, answers, strict=True) if a is None]
        self._remember(tuple(dict.fromkeys(r for a in answered for r in a.shown)))
        return self._deliver(
            "\n\n".join(replies),
            tuple(dict.fromkeys(i for a in answered for i in a.used_chunk_ids)),
            list(chunks.values()),
            # A named part quotes the subscriber's own words, which back nothing else.
            [*(t for a in answered for t in a.tool_texts), *named],
            about_account=any(a.about_account for a in answered),
        )

    # -- endings ------------------------------------------------------------------------

    def _deliver(
        self,
        reply: str,
        used_chunk_ids: Sequence[str],
        chunks: Sequence[RetrievedChunk],
        tool_texts: Sequence[str],
        *,
        about_account: bool = False,
    ) -> TurnResult:
        """Humanize, verify and send (`_stop`) — or escalate with what was stopped and why."""
        text = humanize(reply, max_chars=self.p.settings.max_reply_chars)
        self.trace.record("humanizer", "shaped", chars=len(text))
        stop = self._stop(text, used_chunk_ids, chunks, tool_texts, about_account=about_account)
        if stop is not None:
            reason, unsupported = stop
            self._escalate(reason, stopped_reply=text or reply, unsupported=unsupported)
        self.p.store.save(self.conversation)
        self.trace.record("send", "reply")
        return TurnResult(Action.REPLY, text, tuple(used_chunk_ids), self.trace.records)

    def _stop(
        self,
        text: str,
        used_chunk_ids: Sequence[str],
        chunks: Sequence[RetrievedChunk],
        tool_texts: Sequence[str],
        *,
        about_account: bool,
    ) -> tuple[EscalationReason, tuple[str, ...]] | None:
        """Why `text` may not be sent — the verifier, the identifier guard, the forbidden
        phrases, in that order, each recorded in the trace — or None when it may.

        A reply about the subscriber's account may not lean on a worked example or a format
        sample: their figures are illustrations, true of no one's bill. And a reply leans only
        on the chunks it cites: a figure is not backed by a chunk retrieved but not used."""
        cited = [c for c in chunks if c.chunk_id in set(used_chunk_ids)]
        known = [*self._customer_texts(), *tool_texts]
        verdict = self.p.verifier.verify(
            answer=text,
            used_chunk_ids=list(used_chunk_ids),
            retrieved_chunk_ids=[c.chunk_id for c in chunks],
            evidence_texts=[c.text for c in cited if c.kind == ChunkKind.POLICY],
            tool_result_texts=known,
            example_texts=[c.text for c in cited if c.kind != ChunkKind.POLICY],
            about_account=about_account,
            language=self.language,
        )
        self.trace.record(
            "grounding",
            "grounded" if verdict.grounded else "ungrounded",
            unsupported=list(verdict.unsupported),
        )
        if not verdict.grounded or not text:
            return EscalationReason.UNGROUNDED_OUTPUT, verdict.unsupported or ("empty reply",)
        foreign = foreign_identifiers(
            text, [self.question, *known, *self.p.settings.operator_identifiers]
        )
        self.trace.record(
            "identifier_guard", "foreign" if foreign else "ok", foreign=[i.literal for i in foreign]
        )
        if foreign:
            return EscalationReason.UNGROUNDED_OUTPUT, tuple(i.literal for i in foreign)
        promises = find_forbidden_phrases(text)
        self.trace.record(
            "forbidden_phrases",
            "found" if promises else "none",
            phrases=[f"{p.kind.value}: {p.phrase}" for p in promises],
        )
        if promises:
            return EscalationReason.FORBIDDEN_PHRASE, tuple(p.phrase for p in promises)
        return None

    def _filed_report_quote(self) -> tuple[str, tuple[EscalationReason, tuple[str, ...]] | None]:
        """The reply quoting the report this turn filed ("" when none was), and why it may
        not be sent (`_stop`), if it may not: a turn that hands over after filing (another
        part only a person can do, an outage on the next question, a reply stopped) still
        tells the subscriber the report's id and status — else they would report the same
        payment again, and the second report be rejected as a duplicate. Bias: a quote that
        fails a guard is never sent, and the hand-over then says why (`_escalate`)."""
        filed, self.filed = self.filed, None
        if filed is None:
            return "", None
        text = humanize(filed.reply, max_chars=self.p.settings.max_reply_chars)
        stop = self._stop(
            text, filed.used_chunk_ids, filed.chunks, filed.tool_texts, about_account=True
        )
        self.trace.record("report_quoted", "said" if stop is None else "stopped")
        return text, stop

    def _notice(self, text: str, *, quoted: Sequence[str] = ()) -> NoReturn:
        """End the turn with a fixed notice; it repeats only what the subscriber wrote (and,
        for a suggestion, the subscriber's own invoice numbers it offers)."""
        self.trace.record("notice", "fixed reply")
        filed, self.filed = self.filed, None
        if filed is not None:
            # The report this turn filed is said before the notice on another part.
            text, quoted = f"{filed.reply}\n\n{text}", [*quoted, *filed.tool_texts]
        raise _TurnOver(self._deliver(text, (), (), [self.message, *quoted]))

    def _escalate(
        self,
        reason: EscalationReason,
        *,
        tool_error: str | None = None,
        stopped_reply: str | None = None,
        unsupported: Sequence[str] = (),
    ) -> NoReturn:
        filed, stop = self._filed_report_quote()
        if stop is not None:
            # The filed report's quote was stopped: that is the hand-over's reason.
            reason, unsupported = stop
            stopped_reply, filed = filed, ""
        customer = self.identity.customer or {}
        context = EscalationContext(
            phone=self.phone,
            message=self.message,
            account_number=customer.get("account_number"),
            customer_name=customer.get("name"),
            capability=self.capability,
            tool_error=tool_error,
            stopped_reply=stopped_reply,
            unsupported=tuple(unsupported),
            wants=self.wants,
        )
        escalation = escalate(reason, context)
        self.p.store.record_escalation(self.conversation, escalation)
        self.trace.record("escalation", reason.value)
        handoff = notices.handoff(reason, self.language)
        raise _TurnOver(
            TurnResult(
                Action.ESCALATE,
                f"{filed}\n\n{handoff}" if filed else handoff,
                (),
                self.trace.records,
                escalation,
            )
        )

    # -- helpers ------------------------------------------------------------------------

    def _customer(self) -> Mapping[str, Any]:
        return self.identity.customer or {}

    def _customer_texts(self) -> list[str]:
        return [str(r.evidence_text) for r in self.identity.lookups if r.ok and r.evidence_text]

    def _record_identifiers(self) -> None:
        self.trace.record(
            "identifiers",
            f"{len(self.identifiers)} found",
            found=[
                {"kind": i.kind.value, "literal": i.literal, "valid": i.valid}
                for i in self.identifiers
            ],
        )


def _day(value: Any) -> date:
    return date.fromisoformat(str(value)[:10])


def _already_said(reply: str, replies: Sequence[str]) -> bool:
    """Whether every sentence of a part's `reply` is a sentence the turn's earlier parts
    already said: said twice, it reads as if the bot had not listened."""
    earlier = {sentence for text in replies for sentence in split_sentences(text)}
    return bool(earlier) and all(s in earlier for s in split_sentences(reply))
