"""Engine resolutions run in a worker thread, so a big step never freezes the bot.

The caller stays inside its write transaction (``BEGIN IMMEDIATE``) while it awaits: the
step is still resolved exactly once, and the event loop serves every other command meanwhile.
The engine is pure, so it is safe to run beside the loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from rules_core import engine
from rules_core.decisions import Answer
from rules_core.engine import Resolution
from rules_core.plugin import Rules
from rules_core.state import BattleState

P = ParamSpec("P")
R = TypeVar("R")


async def off_loop(work: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run ``work`` in a worker thread and wait for it without blocking the event loop."""
    return await asyncio.to_thread(work, *args, **kwargs)


def answered(rules: Rules, seed: bytes, state: BattleState, given: Answer) -> Resolution:
    """The pending question answered, and play carried on to the next input."""
    return engine.settle(rules, seed, engine.answer(rules, seed, state, given))


def defaulted(rules: Rules, seed: bytes, state: BattleState) -> Resolution:
    """The pending question given its default (a deadline passed), and play carried on."""
    return engine.settle(rules, seed, engine.answer_default(rules, seed, state))
