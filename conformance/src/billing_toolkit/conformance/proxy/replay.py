"""`replay(file)`: a recording judged again, offline, exactly as the live proxy judged it.

The recording holds the exchanges (masked so they still match the contract's formats, see
`recording`), so replaying it through the same `ExchangeJudge` gives the same verdicts in
the same order: a team can judge yesterday's staging traffic against today's contract, or
attach the recording to a ticket instead of the customer data it came from.
"""

from __future__ import annotations

from pathlib import Path

from billing_toolkit.conformance.contract_facts import load_facts
from billing_toolkit.conformance.proxy.judging import ExchangeJudge
from billing_toolkit.conformance.proxy.recording import read_recording
from billing_toolkit.conformance.proxy.session import Log, Session
from billing_toolkit.conformance.proxy.verdict import Verdict
from billing_toolkit.contract import OPENAPI_PATH


def replay_session(
    path: Path,
    *,
    contract: Path = OPENAPI_PATH,
    log: Log | None = None,
    into: list[Verdict] | None = None,
) -> Session:
    """The session of a replayed recording (its tally and report; every verdict appended to
    `into` when given); `RecordingError` for a file that is not a recording."""
    session = Session(ExchangeJudge(load_facts(contract)), log=log or (lambda line: None))
    for exchange in read_recording(path):
        found = session.observe(exchange)
        if into is not None:
            into.extend(found)
    return session


def replay(path: Path, *, contract: Path = OPENAPI_PATH) -> list[Verdict]:
    """Every verdict of the recording, in the order the live proxy logged them."""
    verdicts: list[Verdict] = []
    replay_session(path, contract=contract, log=None, into=verdicts)
    return verdicts
