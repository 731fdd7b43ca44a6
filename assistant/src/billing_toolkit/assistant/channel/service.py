"""The channel's engine: store every inbound message, process it in the background, deliver
the replies, and hand over to a person whatever could not be done.

    webhook ─► accept: store `received` (idempotent) ─► hint the conversation ─► workers
    worker:  take the conversation's lease (store) ─► send its unsettled replies ─►
             claim its oldest open message ─► turn (thread) ─► close + queue replies ─► …
             ─► until nothing is left ─► give the lease up ─► look again
    sweeper: every `poll_seconds`, hint each conversation with work and no live lease —
             at start-up, what a crash left; on PostgreSQL, what another replica left when
             it died (its leases expired) or what arrived at another replica meanwhile

Several replicas may share one PostgreSQL store: a conversation is worked on only under its
lease (`store/coordination.py`), so one replica at a time runs its turns and sends its replies,
in arrival order, and any replica takes any conversation whose lease is free or expired. In a
process, a per-conversation asyncio lock sits in front of the lease, so the workers and the
handoff API of one replica queue first in, first out instead of polling the store; an agent's
take-over holds both, so it waits for a turn in progress on any replica.

Whoever gives a conversation up (a worker, an agent's action) looks once more for work in it:
a message that arrived while the lease was held — its hint dropped because the conversation
was busy — is then picked up at once, not at the next sweep.

A message whose turn raised, or that was claimed more than `max_turn_attempts` times (the
process died during each turn), is closed `failed`, the subscriber is told a person will
answer, and the conversation is handed over. A reply not delivered within the send budget is
handed over too. Bias: when the bot cannot finish, a person is told — never a silent drop.

A crash between the Graph API accepting a reply and the store recording it leaves the reply
`sending`. The Graph API cannot say whether it was delivered, so it is sent once more at
start-up (at least once) and marked `resending`; if the service dies during that resend too,
it is not sent a third time but handed to a person. The marks and the results are written on
a thread of their own, so the window between "sent" and "recorded" is one store write, not a
wait behind the webhook's intake (`benchmarks/channel_crash_duplicates.py` measures it).
"""

from __future__ import annotations

import asyncio
import hmac
import itertools
import logging
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from billing_toolkit.assistant.channel.config import ChannelConfig
from billing_toolkit.assistant.channel.graph_sender import GraphSender, SendOutcome
from billing_toolkit.assistant.channel.handoff_reasons import (
    Handoff,
    delivery_failed,
    passed_on,
    processing_failed,
)
from billing_toolkit.assistant.channel.keyed_locks import KeyedLocks
from billing_toolkit.assistant.channel.metrics import ChannelMetrics
from billing_toolkit.assistant.channel.turns import TurnRunner
from billing_toolkit.assistant.channel.webhook_payload import IncomingMessage
from billing_toolkit.assistant.store import (
    InboundRecord,
    Lease,
    OutboundRecord,
    OutboundStatus,
    SqlConversationStore,
)
from billing_toolkit.assistant.text.masking import mask_personal

logger = logging.getLogger(__name__)

DEFAULT_WORKERS = 4
DEFAULT_MAX_TURN_ATTEMPTS = 3
DEFAULT_LEASE_SECONDS = 30.0
"""How long a conversation stays a dead replica's before another takes it over; renewed every
third of it while held. Far above a turn (seconds), so a live replica never loses one."""
DEFAULT_POLL_SECONDS = 1.0
"""How often the sweeper looks for work nobody holds."""
LEASE_WAIT_SECONDS = 0.05
"""How often an agent's take-over asks again for a lease another replica holds."""
SWEEP_LIMIT = 1000

Key = tuple[str, str]
Pause = Callable[[float], Awaitable[None]]
RESENT_AFTER_CRASH = (
    "resent after a crash during its first send: it may have reached the subscriber twice"
)
UNSETTLED_TWICE = (
    "the service stopped during its first send and again during the resend: "
    "it may or may not have reached the subscriber"
)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Acceptance:
    """What a webhook delivery amounted to."""

    stored: int
    duplicates: int
    ignored: int
    """Messages for a number no tenant owns, or owned by a tenant whose app did not sign."""
    failed: int = 0
    """Messages the store refused (it is down): the platform must deliver them again."""


class _Held:
    """A lease being held; `alive` turns False when renewing it failed (it expired and was
    taken over): the holder stops before its next step."""

    def __init__(self) -> None:
        self.alive = True


class ChannelService:
    def __init__(
        self,
        config: ChannelConfig,
        store: SqlConversationStore,
        runner: TurnRunner,
        sender: GraphSender,
        *,
        workers: int = DEFAULT_WORKERS,
        max_turn_attempts: int = DEFAULT_MAX_TURN_ATTEMPTS,
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
        poll_seconds: float = DEFAULT_POLL_SECONDS,
        metrics: ChannelMetrics | None = None,
        pause: Pause = asyncio.sleep,
        replica: str | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.metrics = metrics or ChannelMetrics()
        self._runner = runner
        self._sender = sender
        self._workers = workers
        self._max_turn_attempts = max_turn_attempts
        self._lease_seconds = lease_seconds
        self._poll_seconds = poll_seconds
        self._pause = pause
        """Waits between asks for a lease another replica holds (tests: a fake clock's)."""
        self.replica = replica or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self._acquisitions = itertools.count(1)
        self._queue: asyncio.Queue[Key] = asyncio.Queue()
        self._queued: set[Key] = set()
        self._tasks: list[asyncio.Task[None]] = []
        self._sweeper: asyncio.Task[None] | None = None
        self._turns = KeyedLocks()
        self._turn_threads = ThreadPoolExecutor(workers, thread_name_prefix="channel-turn")
        """Turns get threads of their own: a slow turn must not hold up the store calls of the
        webhook, which run on the loop's default executor and decide how fast it answers."""
        self._send_records = ThreadPoolExecutor(1, thread_name_prefix="channel-send-record")
        """Send marks and results get a thread of their own too: a reply accepted by the
        Graph API but not yet recorded is what a crash would send twice."""

    # -- life cycle -----------------------------------------------------------------------

    async def start(self) -> None:
        """Find what is unfinished, then start the workers and the sweeper. On SQLite the
        process owns the store (the CLI refuses a second one), so leases left behind are a
        dead predecessor's and are dropped rather than waited out."""
        if self.store.dialect == "sqlite":
            await asyncio.to_thread(self.store.coordination.forget_all)
        found = await self.sweep()
        if found:
            logger.info("found unfinished work in %d conversation(s)", found)
        self._tasks = [
            asyncio.create_task(self._work(), name=f"channel-worker-{n}")
            for n in range(self._workers)
        ]
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="channel-sweeper")

    async def stop(self) -> None:
        """Stop the workers; what they had not finished stays in the store (their leases are
        given up, so another replica goes on at once)."""
        tasks = [*self._tasks, *([self._sweeper] if self._sweeper else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks, self._sweeper = [], None
        self._turn_threads.shutdown(wait=False, cancel_futures=True)
        self._send_records.shutdown(wait=True)

    async def drain(self) -> None:
        """Wait until every hinted conversation was worked through."""
        await self._queue.join()

    def workers_alive(self) -> int:
        """Workers and sweeper still running: fewer than started means the replica is sick."""
        tasks = [*self._tasks, *([self._sweeper] if self._sweeper else [])]
        return sum(not task.done() for task in tasks)

    def expected_workers(self) -> int:
        return self._workers + 1

    async def sweep(self) -> int:
        """Hint every conversation with work and no live lease; returns how many."""
        found = await asyncio.to_thread(
            self.store.messages.conversations_with_work, self.store.now().timestamp(), SWEEP_LIMIT
        )
        for key in found:
            self._hint(key)
        return len(found)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self._poll_seconds)
            try:
                await self.sweep()
            except Exception:
                logger.exception("could not look for unfinished work; trying again")

    @asynccontextmanager
    async def conversation_lock(self, tenant: str, phone: str) -> AsyncIterator[None]:
        """Hold a conversation still, on every replica: no turn of it runs meanwhile. Waits
        for a turn in progress here (in line) or on another replica (asking again every
        `LEASE_WAIT_SECONDS`, at most a lease's length after that replica died)."""
        key = (tenant, phone)
        async with self._turns.hold(key):
            holder = self._next_holder()
            while await self._acquire(key, holder) is None:
                await self._pause(LEASE_WAIT_SECONDS)
            try:
                yield
            finally:
                await asyncio.to_thread(self.store.coordination.release, tenant, phone, holder)
        await self._look_again(key)

    # -- intake ---------------------------------------------------------------------------

    async def accept(self, messages: Sequence[IncomingMessage], app_secret: str) -> Acceptance:
        """Store each message (once) and hint its conversation. `app_secret` is the secret
        that signed the delivery: a message is taken only for a tenant whose app that is.
        Each message is stored on its own: one the store refuses is counted `failed` and the
        others are stored and queued all the same."""
        stored = duplicates = ignored = failed = 0
        for message in messages:
            tenant = self.config.by_phone_number_id(message.phone_number_id)
            if tenant is None or not hmac.compare_digest(
                tenant.app_secret.value.encode(), app_secret.encode()
            ):
                logger.warning(
                    "ignored a message for phone number id %s: no tenant of the "
                    "signing app owns it",
                    message.phone_number_id,
                )
                ignored += 1
                continue
            try:
                record = await asyncio.to_thread(
                    self.store.messages.receive,
                    tenant.tenant,
                    message.phone_number_id,
                    message.message_id,
                    message.phone,
                    message.kind,
                    message.text,
                )
            except Exception:
                logger.exception("could not store a message from %s", mask_personal(message.phone))
                failed += 1
                continue
            if record is None:
                duplicates += 1
                continue
            stored += 1
            self._hint((record.tenant, record.phone))
        for result, count in (
            ("stored", stored),
            ("duplicate", duplicates),
            ("ignored", ignored),
            ("failed", failed),
        ):
            if count:
                self.metrics.messages.labels(result).inc(count)
        return Acceptance(stored, duplicates, ignored, failed)

    async def send_for_agent(
        self, tenant: str, phone: str, channel_id: str, text: str
    ) -> OutboundRecord:
        """Queue a person's message to the subscriber; it is delivered like the bot's (with
        retries, and handed back to the queue of people if it cannot be), in its turn."""
        outbound = await asyncio.to_thread(
            self.store.messages.queue, tenant, channel_id, phone, text
        )
        self._hint((tenant, phone))
        return outbound

    # -- workers --------------------------------------------------------------------------

    def _hint(self, key: Key) -> None:
        if key not in self._queued:
            self._queued.add(key)
            self._queue.put_nowait(key)

    def _next_holder(self) -> str:
        return f"{self.replica}/{next(self._acquisitions)}"

    async def _acquire(self, key: Key, holder: str) -> Lease | None:
        lease = await asyncio.to_thread(
            self.store.coordination.acquire, *key, holder, self._lease_seconds
        )
        if lease is not None and lease.taken_over:
            self.metrics.takeovers.inc()
            logger.warning(
                "took over the conversation of %s: its previous holder let the lease expire",
                mask_personal(key[1]),
            )
        return lease

    async def _look_again(self, key: Key) -> None:
        if await asyncio.to_thread(self._has_work, key):
            self._hint(key)

    def _has_work(self, key: Key) -> bool:
        return self.store.messages.next_open(*key) is not None or bool(
            self.store.messages.unsent_of(*key)
        )

    async def _work(self) -> None:
        while True:
            key = await self._queue.get()
            self._queued.discard(key)
            try:
                await self._serve(key)
            except Exception:
                logger.exception(
                    "could not finish the work of a conversation; it stays in "
                    "the store for the next sweep"
                )
            finally:
                self._queue.task_done()

    async def _serve(self, key: Key) -> None:
        """Work the conversation through under its lease. Busy here or held by another
        replica: nothing to do — whoever has it looks again when done."""
        if self._turns.busy(key):
            return
        async with self._turns.hold(key):
            holder = self._next_holder()
            if await self._acquire(key, holder) is None:
                return
            try:
                async with self._heartbeat(key, holder) as held:
                    await self._work_through(key, held)
            finally:
                await asyncio.to_thread(self.store.coordination.release, *key, holder)
        await self._look_again(key)

    @asynccontextmanager
    async def _heartbeat(self, key: Key, holder: str) -> AsyncIterator[_Held]:
        held = _Held()

        async def renew() -> None:
            while True:
                await asyncio.sleep(self._lease_seconds / 3)
                if not await asyncio.to_thread(
                    self.store.coordination.renew, *key, holder, self._lease_seconds
                ):
                    held.alive = False
                    logger.warning(
                        "lost the lease of the conversation of %s; stopping", mask_personal(key[1])
                    )
                    return

        task = asyncio.create_task(renew())
        try:
            yield held
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _work_through(self, key: Key, held: _Held) -> None:
        """Replies first (the previous turn's, an agent's, or a dead holder's), then the
        oldest open message, one at a time, until nothing is left."""
        while held.alive:
            for outbound in await asyncio.to_thread(self.store.messages.unsent_of, *key):
                if not held.alive:
                    return
                await self._deliver(outbound)
            message = await asyncio.to_thread(self.store.messages.next_open, *key)
            if message is None or not held.alive:
                return
            claimed = await asyncio.to_thread(
                self.store.messages.claim, message.tenant, message.message_id
            )
            if claimed is None:
                continue
            if claimed.attempts > self._max_turn_attempts:
                await self._give_up(
                    claimed, f"the service stopped during each of its {claimed.attempts - 1} turns"
                )
            else:
                await self._turn(claimed)

    async def _turn(self, message: InboundRecord) -> None:
        coordination = self.store.coordination
        turn_id = await asyncio.to_thread(
            coordination.start_turn, message.tenant, message.phone, message.message_id, self.replica
        )
        started = time.perf_counter()
        try:
            outcome = await asyncio.get_running_loop().run_in_executor(
                self._turn_threads, self._runner.replies, message
            )
        except Exception as exc:
            logger.exception("turn failed for %s", mask_personal(message.phone))
            self.metrics.turns.labels("failed", "PROCESSING_FAILED").inc()
            await self._give_up(message, f"{type(exc).__name__}: {exc}")
        else:
            self.metrics.turns.labels(outcome.action, outcome.reason).inc()
            await asyncio.to_thread(self.store.messages.close, message, outcome.texts)
        finally:
            self.metrics.turn_seconds.observe(time.perf_counter() - started)
            await asyncio.to_thread(coordination.end_turn, turn_id)

    async def _give_up(self, message: InboundRecord, error: str) -> list[OutboundRecord]:
        await self._hand_over(
            message.tenant,
            processing_failed(message.phone, message.kind, message.text, error, message.attempts),
        )
        language = (await asyncio.to_thread(self.store.get, message.tenant, message.phone)).language
        return await asyncio.to_thread(
            self.store.messages.close, message, [passed_on(language)], error=error
        )

    async def _record(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(
            self._send_records, partial(call, *args, **kwargs)
        )

    async def _deliver(self, outbound: OutboundRecord) -> None:
        """Send one reply (the caller holds the conversation's lease). One found `sending`
        was cut short — by a crash, or a replica that died — and is sent once more, marked
        `resending`; one found `resending` is not sent a third time."""
        if outbound.status is OutboundStatus.RESENDING:
            await self._settle(outbound, SendOutcome(False, 0, error=UNSETTLED_TWICE))
            return
        intended = await self._record(self.store.messages.intend, outbound)
        if intended is None:
            return
        tenant = self.config.by_name(outbound.tenant)
        if tenant is None:
            outcome = SendOutcome(False, 0, error="the tenant is no longer configured")
        else:
            outcome = await self._sender.send_text(
                tenant.access_token, outbound.channel_id, outbound.phone, outbound.text
            )
        if outcome.sent and intended.status is OutboundStatus.RESENDING:
            outcome = SendOutcome(
                True, outcome.attempts, outcome.provider_id, error=RESENT_AFTER_CRASH
            )
        await self._settle(intended, outcome)

    async def _settle(self, outbound: OutboundRecord, outcome: SendOutcome) -> None:
        """Record how the send ended, then hand over what was not delivered."""
        status = OutboundStatus.SENT if outcome.sent else OutboundStatus.FAILED
        attempts = outbound.attempts + outcome.attempts
        self.metrics.send_attempts.inc(outcome.attempts)
        self.metrics.sends.labels(status.value).inc()
        await self._record(
            self.store.messages.settle,
            outbound,
            status,
            attempts=attempts,
            error=outcome.error,
            provider_id=outcome.provider_id,
        )
        if not outcome.sent:
            logger.warning(
                "reply to %s not delivered after %d attempt(s): %s",
                mask_personal(outbound.phone),
                attempts,
                outcome.error,
            )
            await self._hand_over(
                outbound.tenant,
                delivery_failed(outbound.phone, outbound.text, outcome.error, attempts),
            )

    async def _hand_over(self, tenant: str, handoff: Handoff) -> None:
        await asyncio.to_thread(
            self.store.record_handoff,
            tenant,
            handoff.phone,
            handoff.reason,
            handoff.summary_es,
            handoff.summary_en,
            handoff.context,
        )
