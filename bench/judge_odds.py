"""The war table's judgement of a charge with its odds (#35): what ``POST api/judge`` costs the
server when the order aimed is one ``/odds`` answers, on ``bench.web``'s 120-unit battle.

A player's contingent charges the nearest enemy one (planned for the turn's charges step, as
the page sends it); each run is ``aiming.aimed`` as ``Api.judge`` calls it: one read, the rules'
judge (a refusal counts: the page shows it, with its way forward), the facts and the odds on
the player's view.
"""

from __future__ import annotations

import math
import statistics
import time

from bench.report import Figure
from bench.web import Served
from bot.demo import PLACE, PLAYERS
from bot.services.aiming import aimed
from bot.services.intake import Wanted
from bot.services.order_choices import ActorChoices
from bot.services.order_params import OrderInput
from rules_core.state import Unit

JUDGE_MS = 50.0


def _charge_step(choices: ActorChoices) -> str | None:
    """The first step of the turn whose orders include a charge at a unit."""
    for step in choices.steps:
        for kind in step.kinds:
            if kind.id == "charge" and any(p.kind == "unit" for p in kind.params):
                return step.key
    return None


async def a_charge(s: Served) -> tuple[Wanted, str]:
    """A player's contingent charging the nearest enemy one, and the step it is given for."""
    battle = await s.services.battles.view(PLACE)
    sides = {side.side_id for side in battle.sides if side.owner_id == PLAYERS[0]}
    units = battle.state.units_on_table
    for unit in (u for u in units if u.side in sides):
        choices = await s.services.lookups.order_choices(PLACE, PLAYERS[0], unit.id)
        step = _charge_step(choices)
        if step is None:
            continue
        enemies = [u for u in units if u.side not in sides]
        target = min(enemies, key=lambda e: _apart(unit, e))
        given = OrderInput(named={"target": target.id})
        return Wanted("charge", unit.id, given), step
    raise AssertionError("no charge is open to the player's contingents this turn")


def _apart(one: Unit, other: Unit) -> float:
    return math.hypot(one.x - other.x, one.y - other.y)


async def judged_with_odds_cpu(s: Served, runs: int) -> tuple[float, float]:
    """The median CPU ms of a charge's judgement with its facts and odds, as ``Api.judge``
    makes it (one read), and of its odds asked alone (``/odds``'s service, its own read)."""
    wanted, step = await a_charge(s)
    totals, odds_only = [], []
    for _ in range(runs + 1):  # the first warms the caches
        started = time.process_time()
        found = await aimed(s.services.play.db, PLACE, PLAYERS[0], wanted, step)
        judged = time.process_time()
        alone = await s.services.odds.aimed(PLACE, PLAYERS[0], wanted)
        totals.append((judged - started) * 1000)
        odds_only.append((time.process_time() - judged) * 1000)
    assert found.odds is not None and alone is not None, "the charge came without its odds"
    return statistics.median(totals[1:]), statistics.median(odds_only[1:])


async def odds_figures(s: Served, smoke: bool, runs: int) -> list[Figure]:
    """A charge judged with its odds, server CPU p50, beside #35's 50 ms; the odds' share."""
    total, odds = await judged_with_odds_cpu(s, runs)
    name = f"war table judgement of a charge with its odds ({s.units} units): server CPU p50"
    return [
        Figure(name, total, "ms", f"<= {JUDGE_MS:g} ms", None if smoke else total <= JUDGE_MS),
        Figure(f"{name}: the odds asked alone (their own read)", odds, "ms", "", None),
    ]
