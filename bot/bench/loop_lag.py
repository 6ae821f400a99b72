"""Event-loop lag while big steps resolve: the bot's way (``resolving.off_loop``, the engine's
worker thread) beside a ticker on the loop that wants to wake every millisecond.

The lag is how late the ticker wakes: what any other command waiting on the loop would wait
for while a big step resolves. The engine's thread holds the GIL while it runs Python, and
hands it back every ``sys.getswitchinterval()`` (5 ms) when the loop asks for it.
"""

from __future__ import annotations

import asyncio
import time

from bot.bench.battles import big_battle
from bot.bench.report import Figure
from bot.services.resolving import off_loop
from rules_core import engine, registry
from rules_core.decisions import Answer
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.state import BattleState

LAG_MS = 20.0  # no resolution blocks the event loop for more than this
SEED = b"bench-loop-lag"
TICK_S = 0.001


async def _resolve_turns(rules: Rules, state: BattleState, calls: int) -> int:
    """Play ``calls`` engine calls off the loop, as the bot does; how many were made. The
    scripted players' choices are made off the loop too (players are not the bot's work)."""
    state = await off_loop(engine.begin, rules, state)
    made = 0
    for _ in range(calls):
        if state.outcome is not None:
            break
        if state.pending is not None:
            given = await off_loop(_answer, rules, state)
            state = (await off_loop(engine.answer, rules, SEED, state, given)).state
        else:
            orders = await off_loop(_orders, rules, state)
            state = (await off_loop(engine.run, rules, SEED, state, orders)).state
        made += 1
    return made


def _answer(rules: Rules, state: BattleState) -> Answer:
    """The demo's answer to the open question."""
    assert state.pending is not None
    decision = state.pending.decision
    return Answer(decision.id, rules.demo_answer(state), decision.who)


def _orders(rules: Rules, state: BattleState) -> list[Order]:
    """The demo's orders for every side the step waits for."""
    sides = engine.waiting(rules, state).sides
    return [o for side in sides for o in rules.demo_orders(state, side)]


async def _lags(rules: Rules, state: BattleState, calls: int) -> list[float]:
    """How late (ms) a 1 ms ticker on the loop woke, each time, while the calls resolved."""
    lags: list[float] = []
    done = asyncio.Event()

    async def tick() -> None:
        while not done.is_set():
            asked = time.perf_counter()
            await asyncio.sleep(TICK_S)
            lags.append(max(0.0, (time.perf_counter() - asked - TICK_S) * 1000))

    ticker = asyncio.create_task(tick())
    try:
        await _resolve_turns(rules, state, calls)
    finally:
        done.set()
        await ticker
    return lags


async def _idle_lags(seconds: float) -> list[float]:
    """How late the same ticker wakes with nothing resolving: the machine's own share."""
    lags: list[float] = []
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        asked = time.perf_counter()
        await asyncio.sleep(TICK_S)
        lags.append(max(0.0, (time.perf_counter() - asked - TICK_S) * 1000))
    return lags


def _p99(lags: list[float]) -> float:
    ordered = sorted(lags)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0


def figures(rulesets: tuple[str, ...], units: int, calls: int) -> list[Figure]:
    """The largest and p99 loop lag per ruleset while ``calls`` engine calls of a battle of
    ``units`` units resolve off the loop, and the same ticker's lag with nothing to do."""
    idle = asyncio.run(_idle_lags(2.0))
    found = [
        Figure("event loop lag with nothing resolving (the machine): largest", max(idle), "ms"),
        Figure("event loop lag with nothing resolving (the machine): p99", _p99(idle), "ms"),
    ]
    for ruleset in rulesets:
        rules = registry.get(ruleset).rules
        assert rules is not None
        lags = asyncio.run(_lags(rules, big_battle(rules, units), calls))
        worst, p99 = max(lags, default=0.0), _p99(lags)
        name = f"event loop lag while {ruleset} {units} units resolve off the loop"
        found.append(Figure(f"{name}: largest", worst, "ms", f"<= {LAG_MS:g} ms", worst <= LAG_MS))
        found.append(Figure(f"{name}: p99", p99, "ms"))
    return found
