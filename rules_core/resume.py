"""Stopped resolutions kept alive, so that answering a question resumes the step where it
stopped instead of replaying it from its start.

The engine's model is replay: a step stopped at a question is, once answered, resolved again
from its start with the same random stream, orders and the answers so far, which gives the
same events up to the question and carries on past it. That is what the battle record holds
and what ``rules_core.verify`` checks, and it needs nothing but the stored state.

Replaying costs the whole step again for every answer. So while a process lives, the engine
also keeps the resolver itself paused at its question (a greenlet: the resolver's Python
frames, suspended), and an answer to exactly that stopped state resumes it. The resolver is
a deterministic function of (state, orders, answers, stream), so resuming gives the very
events, rolls and state a replay would; whenever nothing is kept (another process, a
restart, a state edited or voided since, a continuation already used, or greenlet missing)
the engine replays as before.

A paused resolver belongs to the thread that started it (a greenlet cannot be switched to
from another thread): the bot runs the engine in one worker thread for that reason; an
answer in another thread replays.
"""

from __future__ import annotations

import contextvars
import importlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules_core.context import Context, Suspended
from rules_core.decisions import Answer
from rules_core.state import BattleState

_greenlet: Any
try:  # greenlet (declared; SQLAlchemy's asyncio needs it too); without it the engine replays
    _greenlet = importlib.import_module("greenlet")
except ImportError:  # pragma: no cover - the project declares it
    _greenlet = None

KEPT = 64  # paused resolutions kept at most (the oldest are dropped: those replay)


@dataclass
class _Paused:
    """A resolver paused at a question, and the stopped state that a resume must match."""

    rules: object
    seed: bytes
    state: BattleState
    context: Context
    runner: Any  # the greenlet running the resolver
    thread: int


_kept: OrderedDict[tuple[str, bytes], _Paused] = OrderedDict()
_lock = threading.Lock()


def available() -> bool:
    """Whether resolutions can be kept paused here (greenlet is installed)."""
    return _greenlet is not None


def start(context: Context, resolver: Callable[[Context], None]) -> tuple[Suspended | None, Any]:
    """Run ``resolver`` on ``context`` until it finishes (None) or asks a question nobody has
    answered (the question, as ``Suspended``), and the greenlet it runs in (None without
    greenlet), which ``keep`` keeps paused."""
    if _greenlet is None:
        try:
            resolver(context)
        except Suspended as stop:
            return stop, None
        return None, None
    runner = _greenlet.greenlet(lambda: _finish(context, resolver))
    runner.gr_context = contextvars.copy_context()  # the caller's (JUDGED's kept verdicts)
    context.pause = lambda stop: _pause(runner, stop)
    return _switch(runner), runner


def _finish(context: Context, resolver: Callable[[Context], None]) -> None:
    """The resolver run to its end inside its greenlet."""
    resolver(context)
    context.pause = None


def _pause(runner: Any, stop: Suspended) -> None:
    """Inside the resolver's greenlet: hand the question to the engine and wait to be resumed."""
    runner.parent.switch(stop)


def _switch(runner: Any) -> Suspended | None:
    """Run the resolver's greenlet from here until it pauses or ends."""
    runner.parent = _greenlet.getcurrent()
    found = runner.switch()
    return found if isinstance(found, Suspended) else None


def keep(rules: object, seed: bytes, stopped: BattleState, context: Context, runner: Any) -> None:
    """Keep the resolver of ``context`` paused in ``runner``, to be resumed when ``stopped``
    is answered."""
    if runner is None:
        return
    paused = _Paused(rules, seed, stopped, context, runner, threading.get_ident())
    key = (stopped.battle_id, seed)
    dropped = []  # let go outside the lock: a dropped greenlet ends its paused resolver
    with _lock:
        if key in _kept:
            dropped.append(_kept[key])
        _kept[key] = paused
        _kept.move_to_end(key)
        while len(_kept) > KEPT:
            dropped.append(_kept.popitem(last=False)[1])
    dropped.clear()


def resume(
    rules: object, seed: bytes, state: BattleState, given: Answer
) -> tuple[Context, Suspended | None, Any] | None:
    """Resume the resolver kept paused at exactly ``state`` with the answer ``given``: its
    context and the next question (None: the resolver finished). None if nothing is kept for
    that state (the caller replays the step)."""
    key = (state.battle_id, seed)
    with _lock:
        paused = _kept.get(key)
        if paused is None or paused.rules is not rules or paused.thread != threading.get_ident():
            return None
        if paused.state is not state and paused.state != state:
            return None
        del _kept[key]  # a continuation is used once: a second answer to this state replays
    if paused.runner.dead:
        return None
    paused.context.give(given)
    return paused.context, _switch(paused.runner), paused.runner


def forget() -> None:
    """Drop every paused resolution (tests, and the benchmark's cold start)."""
    with _lock:
        dropped = list(_kept.values())
        _kept.clear()
    dropped.clear()
