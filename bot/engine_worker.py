"""What runs inside the engine's worker process (``ENGINE=process``), and how work crosses
to it: kept apart from ``bot.services`` so that the worker imports the rules and little else
(no database, no Discord).

Work crosses as plain data: functions by module and name, a ruleset's ``Rules`` by its
registry id (the worker's own registry object, so ``rules_core.resume`` finds the resolution
it paused: it checks the rules object's identity), states as their fields (what the engine
keeps beside a frozen state or unit, footprints, contacts, lookups, is worked out anew where
it is needed, but for ``engine.waiting``'s answer, which saves the loop working it out).
"""

from __future__ import annotations

import dataclasses
import functools
import io
import multiprocessing
import os
import pickle
import signal
import threading
import time
from multiprocessing.process import BaseProcess
from typing import Any

from rules_core import engine, general, registry, secrets
from rules_core import state as state_module
from rules_core.decisions import Answer, Decision
from rules_core.engine import Resolution
from rules_core.plugin import Rules
from rules_core.state import BattleState

NICENESS = 10  # how much lower the worker's scheduling priority is than the bot's
KEPT_BESIDE = frozenset({"_waiting"})  # what a state keeps beside its fields that crosses


def _rules_named(ruleset_id: str) -> Rules:
    """The registry's rules object of a ruleset (in whichever process unpickles it)."""
    found = registry.get(ruleset_id).rules
    assert found is not None, f"ruleset {ruleset_id!r} has no rules"
    return found


def _rebuilt(cls: type, fields: dict[str, Any]) -> Any:
    """A frozen dataclass instance made again from its fields (and what it kept that crosses)."""
    made: Any = object.__new__(cls)
    made.__dict__.update(fields)
    return made


@functools.cache
def _field_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(cls))


def _plain(thing: Any) -> tuple[Any, ...]:
    """A state, unit, leader, ... as its fields: what the engine keeps beside a frozen one
    (footprints, contacts, lookups) is worked out anew where it is needed, but KEPT_BESIDE."""
    kept = thing.__dict__
    kind: type = type(thing)
    names = _field_names(kind)
    if len(kept) > len(names):
        kept = {k: v for k, v in kept.items() if k in names or k in KEPT_BESIDE}
    return _rebuilt, (type(thing), kept)


# The types whose instances the engine keeps things beside: every dataclass of the state.
_PLAIN = {
    kind: _plain
    for kind in vars(state_module).values()
    if isinstance(kind, type)
    and dataclasses.is_dataclass(kind)
    and kind.__module__ == state_module.__name__
}


def _by_id(rules: Rules) -> str | tuple[Any, ...]:
    """A registered ruleset's rules as its id (any other rules object as pickle would)."""
    for ruleset in registry.all_rulesets(include_unlisted=True):
        if ruleset.rules is rules:
            return _rules_named, (ruleset.id,)
    return rules.__reduce_ex__(pickle.HIGHEST_PROTOCOL)


def _dispatch() -> dict[type, Any]:
    """What the pickler does with the types it treats apart (looked up by exact type, in C:
    everything else pickles at pickle's own speed)."""
    table: dict[type, Any] = dict(_PLAIN)
    for ruleset in registry.all_rulesets(include_unlisted=True):
        if ruleset.rules is not None:
            table[type(ruleset.rules)] = _by_id
    return table


def dumps(value: object) -> bytes:
    """``value`` pickled as it crosses between the bot and the engine's process."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _dispatch()
    pickler.dump(value)
    return buffer.getvalue()


def loads(data: bytes) -> Any:
    """What ``dumps`` pickled."""
    return pickle.loads(data)  # our own worker's bytes


def call(payload: bytes) -> bytes:
    """In the worker process: run one pickled call and pickle its result."""
    work, args, kwargs = loads(payload)
    return dumps(work(*args, **kwargs))


def worker_started() -> None:
    """In a new worker process: the bot's SIGINT and SIGTERM are its parent's to handle (the
    parent shuts the worker down); if the parent dies without (SIGKILL, out of memory) the
    worker ends too; the rulesets are found once, before the first call."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(os, "nice"):  # the commands' loop first when the cores are busy
        os.nice(NICENESS)
    parent = multiprocessing.parent_process()
    if parent is not None:  # the call queue never ends by itself: this process holds it too
        threading.Thread(target=_end_with, args=(parent,), name="parent", daemon=True).start()
    registry.discover()


def _end_with(parent: BaseProcess) -> None:
    """Wait for the parent process to end, then end this one at once."""
    parent.join()
    os._exit(1)


def worker_pid() -> int:
    """The id of the process the engine runs in (tests kill it; the benchmark measures it)."""
    return os.getpid()


def answered(rules: Rules, seed: bytes, state: BattleState, given: Answer) -> Resolution:
    """The pending question answered, and play carried on to the next input."""
    return engine.settle(rules, seed, engine.answer(rules, seed, state, given))


def defaulted(rules: Rules, seed: bytes, state: BattleState) -> Resolution:
    """The pending question given its default (a deadline passed), and play carried on."""
    return engine.settle(rules, seed, engine.answer_default(rules, seed, state))


def side_plan(
    rules: Rules, state: BattleState, side: str, seed: int, budget_s: float
) -> tuple[tuple[general.Advice, ...], float]:
    """In the engine's worker: the side's orders from the side's own view (no cheating), and
    the CPU seconds the search took (its thread's: the turn's budget is shared by its steps)."""
    began = time.thread_time()
    view = secrets.view(state, secrets.Viewer.of_side(side))
    advice = general.plan_side(rules, view, side, seed=seed, budget_s=budget_s)
    return advice, time.thread_time() - began


def side_reply(rules: Rules, state: BattleState, side: str, decision: Decision) -> general.Reply:
    """In the engine's worker: the side's answer to a question, from the side's own view."""
    view = secrets.view(state, secrets.Viewer.of_side(side))
    return general.reply(rules, view, side, decision)
