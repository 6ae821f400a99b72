"""Engine resolutions run in a worker thread, so a big step never freezes the bot.

The caller stays inside its write transaction (``BEGIN IMMEDIATE``) while it awaits: the
step is still resolved exactly once, and the event loop serves every other command meanwhile.
The engine is pure, so it is safe to run beside the loop.

All engine work runs in one worker thread of its own: a resolution stopped at a question is
kept paused there (``rules_core.resume``), and only that thread can resume it, so an answer
goes on from the question instead of replaying the step. (The GIL lets one thread of Python
run at a time anyway; map drawing keeps its own threads.)
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from rules_core import engine
from rules_core.decisions import Answer
from rules_core.engine import Resolution
from rules_core.plugin import Rules
from rules_core.state import BattleState

P = ParamSpec("P")
R = TypeVar("R")


_ENGINE = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engine")


async def off_loop(work: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run ``work`` in the engine's worker thread and wait for it without blocking the loop."""
    call = functools.partial(work, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(_ENGINE, call)


def answered(rules: Rules, seed: bytes, state: BattleState, given: Answer) -> Resolution:
    """The pending question answered, and play carried on to the next input."""
    return engine.settle(rules, seed, engine.answer(rules, seed, state, given))


def defaulted(rules: Rules, seed: bytes, state: BattleState) -> Resolution:
    """The pending question given its default (a deadline passed), and play carried on."""
    return engine.settle(rules, seed, engine.answer_default(rules, seed, state))
