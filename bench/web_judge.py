"""``python -m bench.web_judge``: a judgement of the war table while an order is drawn (#35).

The Tree of Battles battle of ``bench.web`` (each sample army ten times over, 120 units),
begun; a player's unit is given a move by the page's ``POST api/judge`` as the page sends it
while a ghost is dragged:

- server CPU of one judgement (the process's CPU, the engine's worker thread included: the
  whole cost to the server), median, beside #35's target of 50 ms; the same for a charge
  judged with its odds (``bench.judge_odds``);
- server CPU of one reach (``GET api/reach``: the move's outline, its candidate points each
  judged in one worker call), median, printed beside the same 50 ms;
- the longest loop callback while judgements are posted from another thread (what the bot's
  other commands wait behind), and whether the ruleset's judge ran on the loop's thread.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bench.judge_odds import odds_figures
from bench.orders_mine import RULESET
from bench.report import Figure, table
from bench.slow_callbacks import SlowCallbacks
from bench.web import COPIES, Served, served
from bot.demo import PLACE, PLAYERS
from bot.gc_policy import settle
from bot.services.aiming import aimed, reach
from bot.services.intake import Wanted
from bot.services.order_params import OrderInput
from bot.web.actions import CSRF_HEADER, csrf_for
from rules_core import registry
from rules_core.plugin import Rules

JUDGE_MS, LOOP_MS = 50.0, 20.0
RUNS, POSTS = 21, 40


async def a_move(s: Served) -> tuple[dict[str, Any], str | None]:
    """A player's order with one point as the page sends it, and its step: the first kind of
    the player's first unit that takes a point (a short step from where the unit stands)."""
    battle = await s.services.battles.view(PLACE)
    sides = {side.side_id for side in battle.sides if side.owner_id == PLAYERS[0]}
    unit = next(u for u in battle.state.units_on_table if u.side in sides)
    choices = await s.services.lookups.order_choices(PLACE, PLAYERS[0], unit.id)
    for step in choices.steps:
        for kind in step.kinds:
            points = [p for p in kind.params if p.kind == "point"]
            if points and all(p.kind == "point" or not p.required for p in kind.params):
                to = [unit.x + 1.0, unit.y]
                body = {"kind": kind.id, "unit": unit.id, "params": {points[0].name: to}}
                return body, step.key
    raise AssertionError("no order with a point is open to the player's unit")


async def judgement_cpu(s: Served, body: dict[str, Any], step: str | None, runs: int) -> float:
    """The median CPU ms of the server's judgement with its facts (``aiming.aimed``, as the
    page's ``api/judge``)."""
    named = {name: f"{v[0]},{v[1]}" for name, v in body["params"].items()}
    wanted = Wanted(body["kind"], body["unit"], OrderInput(named=named))
    costs = []
    for _ in range(runs + 1):  # the first warms the caches
        started = time.process_time()
        await aimed(s.services.play.db, PLACE, PLAYERS[0], wanted, step)
        costs.append((time.process_time() - started) * 1000)
    return statistics.median(costs[1:])


async def reach_cpu(s: Served, body: dict[str, Any], step: str | None, runs: int) -> float:
    """The median CPU ms of the server's reach of the move (``aiming.reach``, as the page's)."""
    costs = []
    for _ in range(runs + 1):  # the first warms the caches
        started = time.process_time()
        await reach(s.services.play.db, PLACE, PLAYERS[0], body["unit"], body["kind"], step)
        costs.append((time.process_time() - started) * 1000)
    return statistics.median(costs[1:])


def post_judgements(s: Served, body: dict[str, Any], csrf: str, posts: int) -> None:
    """The page's judgements while a ghost is dragged, from this thread."""
    headers = {"Cookie": s.cookie, "Content-Type": "application/json", CSRF_HEADER: csrf}
    for _ in range(posts):
        request = urllib.request.Request(
            f"{s.base}/c/{s.campaign_id}/api/judge",
            data=json.dumps(body).encode(),
            headers=headers,
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 200, answer.read()


@contextmanager
def judge_threads(rules: Rules) -> Iterator[set[int]]:
    """The threads the ruleset's judge runs in while in use."""
    threads: set[int] = set()
    original: Callable[..., Any] = type(rules).judge

    def judge(self: Rules, *args: Any) -> Any:
        threads.add(threading.get_ident())
        return original(self, *args)

    setattr(type(rules), "judge", judge)  # noqa: B010 - a method, put back below
    try:
        yield threads
    finally:
        setattr(type(rules), "judge", original)  # noqa: B010


async def loop_while_judging(s: Served, body: dict[str, Any], posts: int) -> tuple[float, bool]:
    """The longest loop callback (ms) while judgements are posted, and whether the judge
    ran on the loop's thread."""
    csrf = await csrf_for(s.services, s.cookie.partition("=")[2])
    rules = registry.get(RULESET).rules  # the battle's rules are the registry's
    assert rules is not None
    settle()
    with judge_threads(rules) as threads, SlowCallbacks(asyncio.get_running_loop()) as slow:
        await asyncio.to_thread(post_judgements, s, body, csrf, posts)
    return max(slow.took_ms, default=0.0), threading.get_ident() in threads


async def measure(smoke: bool) -> list[Figure]:
    """Every figure of a judgement."""
    async with served(1 if smoke else COPIES) as s:
        body, step = await a_move(s)
        cpu = await judgement_cpu(s, body, step, 3 if smoke else RUNS)
        reach_ms = await reach_cpu(s, body, step, 1 if smoke else 5)
        longest, on_loop = await loop_while_judging(
            s, {**body, "step": step}, 4 if smoke else POSTS
        )
        units = f"{s.units} units"
        with_odds = await odds_figures(s, smoke, 3 if smoke else RUNS)
    return [
        Figure(
            f"war table judgement while dragging ({units}): server CPU p50",
            cpu,
            "ms",
            f"<= {JUDGE_MS:g} ms",
            None if smoke else cpu <= JUDGE_MS,
        ),
        Figure(
            f"war table reach of a move ({units}): server CPU p50",
            reach_ms,
            "ms",
            f"beside {JUDGE_MS:g} ms (a judgement's)",
            None,
        ),
        Figure(
            "war table judging: longest loop callback while judgements are posted",
            longest,
            "ms",
            f"<= {LOOP_MS:g} ms",
            longest <= LOOP_MS,
        ),
        Figure(
            "war table judging: the ruleset's judge ran on the loop's thread (1 yes, 0 no)",
            float(on_loop),
            "",
            "0",
            not on_loop,
        ),
        *with_odds,
    ]


def figures(smoke: bool = False) -> list[Figure]:
    """The judgement's figures (``smoke``: the sample armies once over, a few runs)."""
    return asyncio.run(measure(smoke))


def main(argv: list[str] | None = None) -> int:
    """Print a judgement's figures beside #35's targets."""
    parser = argparse.ArgumentParser(prog="python -m bench.web_judge", description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="120 units judged: 12 instead")
    print(table(asyncio.run(measure(parser.parse_args(argv).smoke))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
