"""Resolutions parked at a question, so that an answer carries on instead of replaying the step.

The engine can always replay a stopped step from its start with the same random stream
(``engine.answer``); on a big battle that costs a whole step per question. So each resolver
runs in a thread of its own: when it asks a question nobody has answered, the thread waits,
and the engine keeps it here beside the state it returned. An answer given for a state equal
to that one (same rules and seed) wakes the thread, which goes on exactly as a replay would.
Anything else (a restart, another state, a resolution pushed out by newer ones) replays.
"""

from __future__ import annotations

import queue
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from rules_core.decisions import Answer, Decision
from rules_core.state import BattleState

MAX_PARKED = 64  # resolutions kept waiting; the oldest is given up beyond this


class Abandoned(BaseException):
    """Unwinds a parked resolver nobody will answer (not an Exception: resolvers never catch it)."""


@dataclass(frozen=True)
class Signal:
    """What a resolver's thread reports: it asked a question, finished, or failed."""

    decision: Decision | None = None
    error: BaseException | None = None


class Run:
    """One resolver running in its own thread, and the two queues that talk to it."""

    def __init__(self, resolve: Callable[[], None]) -> None:
        self._inbox: queue.SimpleQueue[Answer | None] = queue.SimpleQueue()
        self._outbox: queue.SimpleQueue[Signal] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._main, args=(resolve,), daemon=True)

    def start(self) -> Signal:
        """Start the resolver and wait until it asks, finishes or fails."""
        self._thread.start()
        return self._outbox.get()

    def resume(self, answer: Answer) -> Signal:
        """Give the waiting resolver its answer and wait until it asks again, finishes or fails."""
        self._inbox.put(answer)
        return self._outbox.get()

    def abandon(self) -> None:
        """Let the waiting resolver's thread unwind and end."""
        self._inbox.put(None)

    def wait_for_answer(self, decision: Decision) -> Answer:
        """Called by the resolver's thread at an unanswered question: wait for its answer."""
        self._outbox.put(Signal(decision=decision))
        answer = self._inbox.get()
        if answer is None:
            raise Abandoned
        return answer

    def _main(self, resolve: Callable[[], None]) -> None:
        try:
            resolve()
        except Abandoned:
            return
        except BaseException as error:  # handed to the engine's thread, which raises it
            self._outbox.put(Signal(error=error))
            return
        self._outbox.put(Signal())


@dataclass(frozen=True)
class Parked:
    """A resolution waiting for an answer: its run, the state it returned and what it used."""

    run: Run
    stopped: BattleState
    rules: object
    seed: bytes
    context: object


_parked: OrderedDict[Hashable, Parked] = OrderedDict()
_lock = threading.Lock()


def _key(state: BattleState, seed: bytes) -> Hashable:
    """Where a stopped state's resolution is kept: battle, seed, cursor and answers so far."""
    pending = state.pending
    answers = () if pending is None else tuple(a.decision for a in pending.answers)
    return (state.battle_id, seed, repr(state.cursor), answers)


def park(parked: Parked) -> None:
    """Keep a resolution waiting, giving up the oldest beyond ``MAX_PARKED``."""
    with _lock:
        old = _parked.pop(_key(parked.stopped, parked.seed), None)
        _parked[_key(parked.stopped, parked.seed)] = parked
        dropped = [_parked.popitem(last=False)[1] for _ in range(len(_parked) - MAX_PARKED)]
    for gone in [old, *dropped]:
        if gone is not None:
            gone.run.abandon()


def take(rules: object, seed: bytes, state: BattleState) -> Parked | None:
    """The resolution parked at exactly this state, taken out (so it resumes once), or None."""
    with _lock:
        parked = _parked.pop(_key(state, seed), None)
    if parked is None:
        return None
    if parked.rules is rules and parked.stopped == state:
        return parked
    parked.run.abandon()
    return None


def forget_all() -> None:
    """Give up every parked resolution (tests use it to force replays)."""
    with _lock:
        gone = list(_parked.values())
        _parked.clear()
    for parked in gone:
        parked.run.abandon()
