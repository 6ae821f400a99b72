"""``python -m bench.orders_mine``: what ``/orders mine`` costs with a full turn's plan.

The demo's Tree of Battles battle is set up and begun offline through the services (as
``python -m bot demo`` does); then each player plans an order for every one of their units
in every later step of the turn (written straight to the database: ``/orders mine`` reads
planned orders, it does not judge them), and ``play.mine`` is called again and again. Prints
the median CPU time per call (the process's, so a busy machine inflates it little) beside
the target of at most 20 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from datetime import UTC, datetime
from typing import Any

from bench.replay import on_a_new_database
from bench.report import Figure
from bot.db.models import PlannedOrder
from bot.db.session import Database
from bot.demo import GM, PLACE, PLAYERS
from bot.services import Services
from bot.services.campaigns import Place
from rules_core import registry
from rules_core.plugin import Rules

RULESET = "tree_of_battles"
TARGET_MS = 20.0
CALLS = 30
COPIES = 10  # each sample army's units ten times over: 2 x 60 units, as the engine's bench
PER_ROW = 30  # units side by side in each line of a deployment zone (two lines fit its depth)
GAP = 5.0  # SF from one unit's centre to the next (their frontage is at most 4 SF)


async def set_up_big(
    services: Services,
    rules: Rules,
    copies: int,
    place: Place = PLACE,
    ruleset: str = RULESET,
    lines: tuple[int, float] = (PER_ROW, GAP),
) -> None:
    """The demo's campaign and battle (at ``place``, of ``ruleset``) with each sample army's
    units ``copies`` times over, deployed in lines of ``lines[0]`` units, ``lines[1]`` apart,
    across each side's zone."""
    per_row, gap = lines
    armies = rules.sample_armies()[:2]
    await services.campaigns.create(place, GM, "Bench campaign", ruleset)
    for player, army in zip(PLAYERS, armies, strict=True):
        listed_units: list[dict[str, Any]] = army["units"]  # type: ignore[assignment]
        units = [
            {**unit, "name": f"{unit['name']} {n}"}
            for n in range(1, copies + 1)
            for unit in listed_units
        ]
        roster = json.dumps({**army, "units": units}).encode()
        await services.campaigns.join(place, player, str(army["name"]))
        await services.armies.import_roster(place, player, roster, "army.json")
    names = [str(a["name"]) for a in armies]
    view = await services.battles.create(place, GM, "Bench battle", names, gap * (per_row + 1))
    listed = await services.lookups.roster_units(place, GM)
    width = view.state.battlefield.width
    for side in view.sides:
        zone = rules.deployment_zone(view.state, side.side_id) or ()
        ys = [p[1] for p in zone]
        own = [u for u in listed if u[0].startswith(side.side_id)]
        rows = -(-len(own) // per_row)
        for index, (unit_id, _, _) in enumerate(own):
            x = width * (index % per_row + 1) / (per_row + 1)
            y = min(ys) + (max(ys) - min(ys)) * (index // per_row + 1) / (rows + 1)
            await services.battles.deploy(place, GM, unit_id, f"{x:g},{y:g}", None)


async def plan_whole_turn(services: Services, db: Database) -> int:
    """Every player's units given an order in every step of the turn after the open one;
    returns how many planned orders were written."""
    battle = await services.battles.view(PLACE)
    written = 0
    async with db.write() as session:
        for user in PLAYERS:
            steps = await services.lookups.turn_steps(PLACE, user)
            sides = [s.side_id for s in battle.sides if s.owner_id == user]
            units = [u for u in battle.state.units if u.side in sides]
            for key, title in steps[1:]:
                for unit in units:
                    session.add(_planned(battle.id, user, unit.side, unit.id, key, title))
                    written += 1
    return written


def _planned(battle: int, user: int, side: str, unit: str, key: str, title: str) -> PlannedOrder:
    """A planned hold order for ``unit`` in the step ``key``."""
    return PlannedOrder(
        battle_id=battle,
        turn=1,
        step_key=key,
        step_title=title,
        side_id=side,
        user_id=user,
        actor=unit,
        kind="hold",
        params={},
        summary=f"{unit} holds its ground",
        submitted_at=datetime(2026, 1, 1, tzinfo=UTC),
    )


async def measure(calls: int = CALLS, copies: int = COPIES) -> tuple[int, list[float]]:
    """The planned orders written and the CPU milliseconds of each ``play.mine`` call."""
    rules = registry.get(RULESET).rules
    assert rules is not None
    async with on_a_new_database() as (services, db, _):
        await set_up_big(services, rules, copies)
        await services.play.start(PLACE, GM)
        planned = await plan_whole_turn(services, db)
        costs = []
        for _ in range(calls + 1):  # the first call warms the caches
            started = time.process_time()
            views = await services.play.mine(PLACE, PLAYERS[0])
            costs.append((time.process_time() - started) * 1000)
        assert views, "the player's plan is missing"
        return planned, costs[1:]


def figures(smoke: bool = False) -> list[Figure]:
    """The median CPU of ``/orders mine`` with a full turn's plan, beside its target
    (``smoke``: the sample armies once over, a few calls, no target judged)."""
    planned, costs = asyncio.run(measure(3, 1) if smoke else measure())
    median = statistics.median(costs)
    name = f"/orders mine with a full turn's plan ({planned} planned orders): CPU p50"
    target = f"<= {TARGET_MS:g} ms"
    if smoke:  # a smaller plan: the target shown, not judged
        return [Figure(name, median, "ms", target)]
    return [Figure(name, median, "ms", target, median <= TARGET_MS)]


def main(argv: list[str] | None = None) -> int:
    """Print the median and largest CPU time of ``/orders mine`` beside the target."""
    parser = argparse.ArgumentParser(prog="python -m bench.orders_mine", description=__doc__)
    parser.add_argument("--calls", type=int, default=CALLS, help=f"calls timed (default {CALLS})")
    args = parser.parse_args(argv)
    planned, costs = asyncio.run(measure(args.calls))
    print(f"/orders mine with {planned} planned orders, {len(costs)} calls")
    print(f"  CPU p50 {statistics.median(costs):.1f} ms (target <= {TARGET_MS:g} ms)")
    print(f"  CPU max {max(costs):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
