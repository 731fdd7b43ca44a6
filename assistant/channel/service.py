"""The channel's engine: store every inbound message, process it in the background, deliver
the replies, and hand over to a person whatever could not be done.

    webhook ─► accept: store `received` (idempotent) ─► queue ─► workers
    worker:  claim ─► turn (thread) ─► close + queue replies (one transaction) ─► send (retry)
    start-up: re-queue what a crash left `received`/`processing` and replies still `pending`

Messages of one conversation are processed in arrival order under a per-conversation lock,
which the handoff API also takes: an agent's take-over waits for the turn in progress, so the
turn cannot overwrite it. The lock is per process — one service instance per store.

A message whose turn raised, or that was claimed more than `max_turn_attempts` times (the
process died during each turn), is closed `failed`, the subscriber is told a person will
answer, and the conversation is handed over. A reply not delivered within the send budget is
handed over too. Bias: when the bot cannot finish, a person is told — never a silent drop.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass

from billing_toolkit.assistant.channel.config import ChannelConfig
from billing_toolkit.assistant.channel.graph_sender import GraphSender, SendOutcome
from billing_toolkit.assistant.channel.handoff_reasons import (
    Handoff,
    delivery_failed,
    passed_on,
    processing_failed,
)
from billing_toolkit.assistant.channel.keyed_locks import KeyedLocks
from billing_toolkit.assistant.channel.turns import TurnRunner
from billing_toolkit.assistant.channel.webhook_payload import IncomingMessage
from billing_toolkit.assistant.store import (
    InboundRecord,
    OutboundRecord,
    OutboundStatus,
    SqlConversationStore,
)
from billing_toolkit.assistant.text.masking import mask_personal

logger = logging.getLogger(__name__)

DEFAULT_WORKERS = 4
DEFAULT_MAX_TURN_ATTEMPTS = 3


@dataclass(frozen=True, slots=True)
class Acceptance:
    """What a webhook delivery amounted to."""

    stored: int
    duplicates: int
    ignored: int
    """Messages for a number no tenant owns, or owned by a tenant whose app did not sign."""


class ChannelService:
    def __init__(self, config: ChannelConfig, store: SqlConversationStore, runner: TurnRunner,
                 sender: GraphSender, *, workers: int = DEFAULT_WORKERS,
                 max_turn_attempts: int = DEFAULT_MAX_TURN_ATTEMPTS) -> None:
        self.config = config
        self.store = store
        self._runner = runner
        self._sender = sender
        self._workers = workers
        self._max_turn_attempts = max_turn_attempts
        self._queue: asyncio.Queue[InboundRecord | OutboundRecord] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._turns = KeyedLocks()
        self._sends = KeyedLocks()
        self._turn_threads = ThreadPoolExecutor(workers, thread_name_prefix="channel-turn")
        """Turns get threads of their own: a slow turn must not hold up the store calls of the
        webhook, which run on the loop's default executor and decide how fast it answers."""

    # -- life cycle -----------------------------------------------------------------------

    async def start(self) -> None:
        """Re-queue what a previous run left unfinished, then start the workers."""
        pending = await asyncio.to_thread(self.store.messages.pending)
        unfinished = await asyncio.to_thread(self.store.messages.unfinished)
        for item in (*pending, *unfinished):
            self._queue.put_nowait(item)
        if pending or unfinished:
            logger.info("recovered %d unprocessed message(s) and %d unsent repl(ies)",
                        len(unfinished), len(pending))
        self._tasks = [asyncio.create_task(self._work(), name=f"channel-worker-{n}")
                       for n in range(self._workers)]

    async def stop(self) -> None:
        """Stop the workers; what they had not finished stays in the store for next start."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        self._turn_threads.shutdown(wait=False, cancel_futures=True)

    async def drain(self) -> None:
        """Wait until every queued message was processed and every reply settled."""
        await self._queue.join()

    @asynccontextmanager
    async def conversation_lock(self, tenant: str, phone: str) -> AsyncIterator[None]:
        """Hold a conversation still: no turn of it runs meanwhile."""
        async with self._turns.hold((tenant, phone)):
            yield

    # -- intake ---------------------------------------------------------------------------

    async def accept(self, messages: Sequence[IncomingMessage], app_secret: str) -> Acceptance:
        """Store each message (once) and queue it. `app_secret` is the secret that signed the
        delivery: a message is taken only for a tenant whose app that is."""
        stored = duplicates = ignored = 0
        for message in messages:
            tenant = self.config.by_phone_number_id(message.phone_number_id)
            if tenant is None or not hmac.compare_digest(
                    tenant.app_secret.value.encode(), app_secret.encode()):
                logger.warning("ignored a message for phone number id %s: no tenant of the "
                               "signing app owns it", message.phone_number_id)
                ignored += 1
                continue
            record = await asyncio.to_thread(
                self.store.messages.receive, tenant.tenant, message.phone_number_id,
                message.message_id, message.phone, message.kind, message.text)
            if record is None:
                duplicates += 1
                continue
            stored += 1
            self._queue.put_nowait(record)
        return Acceptance(stored, duplicates, ignored)

    async def send_for_agent(self, tenant: str, phone: str, channel_id: str,
                             text: str) -> OutboundRecord:
        """Queue a person's message to the subscriber; it is delivered like the bot's (with
        retries, and handed back to the queue of people if it cannot be)."""
        outbound = await asyncio.to_thread(self.store.messages.queue, tenant, channel_id, phone,
                                           text)
        self._queue.put_nowait(outbound)
        return outbound

    # -- workers --------------------------------------------------------------------------

    async def _work(self) -> None:
        while True:
            item = await self._queue.get()
            try:
                if isinstance(item, InboundRecord):
                    await self._process(item)
                else:
                    await self._deliver(item)
            except Exception:
                logger.exception("could not finish a queued %s; it stays in the store",
                                 type(item).__name__)
            finally:
                self._queue.task_done()

    async def _process(self, message: InboundRecord) -> None:
        async with self._turns.hold((message.tenant, message.phone)):
            claimed = await asyncio.to_thread(self.store.messages.claim, message.tenant,
                                              message.message_id)
            if claimed is None:
                return
            if claimed.attempts > self._max_turn_attempts:
                replies = await self._give_up(claimed, "the service stopped during each of its "
                                                       f"{claimed.attempts - 1} turns")
            else:
                replies = await self._turn(claimed)
        for reply in replies:
            await self._deliver(reply)

    async def _turn(self, message: InboundRecord) -> list[OutboundRecord]:
        try:
            texts = await asyncio.get_running_loop().run_in_executor(
                self._turn_threads, self._runner.replies, message)
        except Exception as exc:
            logger.exception("turn failed for %s", mask_personal(message.phone))
            return await self._give_up(message, f"{type(exc).__name__}: {exc}")
        return await asyncio.to_thread(self.store.messages.close, message, texts)

    async def _give_up(self, message: InboundRecord, error: str) -> list[OutboundRecord]:
        await self._hand_over(message.tenant, processing_failed(
            message.phone, message.kind, message.text, error, message.attempts))
        language = (await asyncio.to_thread(self.store.get, message.tenant,
                                            message.phone)).language
        return await asyncio.to_thread(self.store.messages.close, message,
                                       [passed_on(language)], error=error)

    async def _deliver(self, outbound: OutboundRecord) -> None:
        async with self._sends.hold((outbound.tenant, outbound.phone)):
            tenant = self.config.by_name(outbound.tenant)
            if tenant is None:
                outcome = SendOutcome(False, 0, error="the tenant is no longer configured")
            else:
                outcome = await self._sender.send_text(tenant.access_token, outbound.channel_id,
                                                       outbound.phone, outbound.text)
            status = OutboundStatus.SENT if outcome.sent else OutboundStatus.FAILED
            attempts = outbound.attempts + outcome.attempts
            await asyncio.to_thread(self.store.messages.settle, outbound, status,
                                    attempts=attempts, error=outcome.error,
                                    provider_id=outcome.provider_id)
            if not outcome.sent:
                logger.warning("reply to %s not delivered after %d attempt(s): %s",
                               mask_personal(outbound.phone), attempts, outcome.error)
                await self._hand_over(outbound.tenant, delivery_failed(
                    outbound.phone, outbound.text, outcome.error, attempts))

    async def _hand_over(self, tenant: str, handoff: Handoff) -> None:
        await asyncio.to_thread(self.store.record_handoff, tenant, handoff.phone, handoff.reason,
                                handoff.summary_es, handoff.summary_en, handoff.context)
