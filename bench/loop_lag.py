"""Event-loop lag while big steps resolve: the bot's way (``resolving.off_loop``) beside a
ticker on the loop that wants to wake every millisecond, with the engine in each of the
``ENGINE`` settings: a worker thread, and a worker process.

The lag is how late the ticker wakes: what any other command waiting on the loop would wait
for while a big step resolves. The engine's thread holds the GIL while it runs Python, and
hands it back every ``sys.getswitchinterval()`` (5 ms) when the loop asks for it; the engine's
process has a GIL of its own, and the loop only pickles each call and its result.

``python -m bench.loop_lag`` prints the figures alone (``--help`` for the sizes).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time

from bench.report import Figure, load, table
from bench.slow_callbacks import SlowCallbacks
from bot.engine_worker import dumps, loads
from bot.services import resolving
from bot.services.resolving import off_loop
from rules_core import engine, registry
from rules_core.big_battles import begun, demo_answer, demo_orders
from rules_core.plugin import Rules
from rules_core.state import BattleState

LAG_MS = 20.0  # no resolution blocks the event loop for more than this
SEED = b"bench-loop-lag"
TICK_S = 0.001
IDLE_S = 5.0  # how long the ticker runs with nothing resolving (the machine's own lag)


async def _resolve_turns(rules: Rules, state: BattleState, calls: int) -> int:
    """Play ``calls`` engine calls off the loop, as the bot does; how many were made. The
    scripted players' choices are made off the loop too (players are not the bot's work)."""
    if state.cursor.turn < 1:
        state = await off_loop(engine.begin, rules, state)
    made = 0
    for _ in range(calls):
        if state.outcome is not None:
            break
        if state.pending is not None:
            given = await off_loop(demo_answer, rules, state)
            state = (await off_loop(engine.answer, rules, SEED, state, given)).state
        else:
            orders = await off_loop(demo_orders, rules, state)
            state = (await off_loop(engine.run, rules, SEED, state, orders)).state
        made += 1
    return made


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


MODES = ("thread", "process")


def _load_average() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


async def _lags_in(
    rules: Rules, state: BattleState, calls: int
) -> tuple[list[float], list[float], tuple[float, float]]:
    """The ticker's lags with the engine where it is configured, (``ENGINE=process``) the
    loop's own CPU time for each call, and how long each loop callback over a millisecond
    took (``SlowCallbacks`` times every one); a process is started beforehand, as the bot
    starts it with itself (its start-up is not a resolution's)."""
    await resolving.start()
    await resolving.forget()
    before = len(resolving.crossing_ms())
    with SlowCallbacks(asyncio.get_running_loop()) as slow:
        lags = await _lags(rules, state, calls)
    return lags, resolving.crossing_ms()[before:], slow.largest()


def _crossing_ms(rules: Rules, state: BattleState, runs: int = 20) -> tuple[float, float]:
    """The CPU time the loop spends pickling one engine call on a state and unpickling its
    result (``ENGINE=process``), p50 and largest: the call's arguments out, a resolution
    back (its pickling, the worker's, counted too)."""
    orders = demo_orders(rules, state)
    result = engine.run(rules, SEED, state, orders)
    spent = []
    for _ in range(runs):  # CPU time: what the loop's thread itself spends, not the machine
        began = time.thread_time()
        dumps((engine.run, (rules, SEED, state, orders), {}))
        loads(dumps(result))  # its pickling is the worker's; measured here with its unpickling
        spent.append((time.thread_time() - began) * 1000)
    return sorted(spent)[len(spent) // 2], max(spent)


def figures(
    rulesets: tuple[str, ...], units: int, calls: int, modes: tuple[str, ...] = MODES
) -> list[Figure]:
    """The largest and p99 loop lag per ruleset and engine setting while ``calls`` engine
    calls of a battle of ``units`` units resolve off the loop, the same ticker's lag with
    nothing to do, the load average meanwhile, and what crossing to the process costs."""
    load_before = _load_average()
    idle = asyncio.run(_idle_lags(IDLE_S))
    found = [
        Figure("event loop lag with nothing resolving (the machine): largest", max(idle), "ms"),
        Figure("event loop lag with nothing resolving (the machine): p99", _p99(idle), "ms"),
    ]
    battles = {}
    for ruleset in rulesets:
        rules = registry.get(ruleset).rules
        assert rules is not None
        battles[ruleset] = (rules, begun(rules, units))  # Impetus deployed, not its set-up
    for mode in modes:
        resolving.configure(mode)  # one worker for every ruleset, stopped after them
        try:
            for ruleset, (rules, battle) in battles.items():
                lags, crossings, callbacks = asyncio.run(_lags_in(rules, battle, calls))
                found += _largest_callback(ruleset, units, mode, callbacks)
                worst, p99 = max(lags, default=0.0), _p99(lags)
                name = f"event loop lag while {ruleset} {units} units resolve (ENGINE={mode})"
                met = worst <= LAG_MS
                found.append(Figure(f"{name}: largest", worst, "ms", f"<= {LAG_MS:g} ms", met))
                found.append(Figure(f"{name}: p99", p99, "ms"))
                if crossings:  # what blocks the loop itself: its CPU time for each call
                    most = max(crossings)
                    name = f"the loop's CPU time per {ruleset} {units}-unit call (ENGINE={mode})"
                    met = most <= LAG_MS
                    found.append(Figure(f"{name}: largest", most, "ms", f"<= {LAG_MS:g} ms", met))
        finally:
            asyncio.run(resolving.shutdown())
    if "process" in modes:
        for ruleset, (rules, battle) in battles.items():
            p50, worst = _crossing_ms(rules, engine.begin(rules, battle))
            name = f"pickling a {ruleset} {units}-unit call and its result (CPU time)"
            found.append(Figure(f"{name}: p50", p50, "ms"))
            met = worst <= LAG_MS
            found.append(Figure(f"{name}: largest", worst, "ms", f"<= {LAG_MS:g} ms", met))
    found.append(Figure("load average (1 min) before the loop lag runs", load_before, ""))
    found.append(Figure("load average (1 min) after the loop lag runs", _load_average(), ""))
    return found


def _largest_callback(
    ruleset: str, units: int, mode: str, largest: tuple[float, float]
) -> list[Figure]:
    """The largest single loop callback while the battle resolved, beside the target, and how
    much of it the garbage collector took (the cause of the long ones no code explains)."""
    name = f"largest single loop callback while {ruleset} {units} units resolve (ENGINE={mode})"
    most, in_gc = largest
    return [
        Figure(name, most, "ms", f"<= {LAG_MS:g} ms", most <= LAG_MS),
        Figure(f"{name}: of it garbage collection", in_gc, "ms"),
    ]


def main() -> None:
    """Print the loop-lag figures of both engine settings beside the target."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.loop_lag", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--units", type=int, default=120, help="units in each battle")
    parser.add_argument("--calls", type=int, default=30, help="engine calls per battle")
    parser.add_argument("--rulesets", nargs="*", default=None, help="ruleset ids (default all)")
    parser.add_argument(
        "--modes",
        nargs="*",
        default=list(MODES),
        choices=MODES,
        help="engine settings (default both)",
    )
    args = parser.parse_args()
    chosen = args.rulesets or [
        r.id
        for r in registry.all_rulesets(include_unlisted=True)
        if r.rules is not None and r.rules.sample_battle()
    ]
    print(f"Event loop lag ({load()})\n")
    print(table(figures(tuple(chosen), args.units, args.calls, tuple(args.modes))))


if __name__ == "__main__":
    main()
