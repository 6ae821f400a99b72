"""Impassable ground in the moves players choose (Hail Caesar).

Ground of the ``impassable`` kind (a lake, cliffs) bars a chosen move along its whole path, not
only where it ends: the judge refuses it, and a move that reaches the resolver anyway stops
short of it. The sheet has no river rule, so rivers, bridges and fords are open ground for
movement, and so is a gentle hill.
"""

from __future__ import annotations

import random
from dataclasses import replace

from shapely import Polygon

from rules_core.context import Context
from rules_core.events import UnitMoved
from rules_core.geometry import Footprint
from rules_core.orders import Illegal, Order, Preview
from rules_core.rulesets.hail_caesar import movement
from rules_core.rulesets.hail_caesar.rules import HailCaesarRules
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.state import BattleState, TerrainFeature
from rules_core.steps import Cursor, Subject

RULES = HailCaesarRules()
LAKE = TerrainFeature("lake", "impassable", ((14, 13), (26, 13), (26, 15), (14, 15)), "Black Lake")
POOL = TerrainFeature("pool", "impassable", ((14, 11), (26, 11), (26, 13), (14, 13)), "Pool")


def placed(terrain: tuple[TerrainFeature, ...], **where: tuple[float, float, float]) -> BattleState:
    """The Romans' orders step for Legio IX with only the named units, at (x, y, facing)."""
    cursor = Cursor(1, "main", "orders", ("rom", "gau"), 0, (Subject("rom_legio", "rom"),))
    state = replace(sample_battle(), cursor=cursor)
    units = tuple(
        replace(state.unit(key), x=x, y=y, facing=facing) for key, (x, y, facing) in where.items()
    )
    return replace(state, units=units, terrain=terrain)


def judge(state: BattleState, actor: str, kind: str, **params: object) -> Preview | Illegal:
    return RULES.judge(state, Order(actor, kind, params))  # type: ignore[arg-type]


def context(state: BattleState) -> Context:
    return Context(RULES, state, (), (), random.Random(0))


def moved(ctx: Context, key: str) -> UnitMoved:
    return next(e for e in ctx.events if isinstance(e, UnitMoved) and e.unit == key)


# The First Cohort (6" by 2") at (20, 8) facing north; the Black Lake lies across its way at
# y 13-15, so a move to (20, 18) ends clear of it but would wade through it.
COHORT = (20.0, 8.0, 0.0)
THROUGH = "the path crosses Black Lake, impassable ground"


def test_a_move_whose_path_crosses_impassable_ground_is_refused() -> None:
    found = judge(placed((LAKE,), r1=COHORT), "r1", "move", to=[20, 18])
    assert found == Illegal(found.order, THROUGH)
    assert isinstance(judge(placed((), r1=COHORT), "r1", "move", to=[20, 18]), Preview)


def test_a_move_around_impassable_ground_is_allowed_and_made() -> None:
    state = placed((LAKE,), r1=COHORT)
    found = judge(state, "r1", "move", to=[36, 14], facing=0)
    assert isinstance(found, Preview) and "needs 3 moves" in found.summary
    ctx = context(state)
    movement.move_to(ctx, ctx.state.unit("r1"), (36.0, 14.0), 3, 0.0, "ordered")
    cohort = ctx.state.unit("r1")
    assert (cohort.x, cohort.y, cohort.facing) == (36.0, 14.0, 0.0)
    assert not any("impassable" in note for note in moved(ctx, "r1").notes)


def test_a_move_through_impassable_ground_that_reaches_the_resolver_stops_short() -> None:
    ctx = context(placed((LAKE,), r1=COHORT))
    movement.move_to(ctx, ctx.state.unit("r1"), (20.0, 18.0), 2, None, "ordered")
    cohort = ctx.state.unit("r1")
    assert cohort.x == 20.0 and 12.99 < cohort.y + cohort.depth / 2 <= 13.0
    assert "stops short of Black Lake, impassable ground" in moved(ctx, "r1").notes
    assert Footprint.of(cohort).polygon.intersection(Polygon(LAKE.points)).area < 1e-6


def test_a_charge_across_impassable_ground_is_refused_and_falls_short() -> None:
    # The Arverni Warband 6" away, the Pool between: one move on initiative would reach it.
    state = placed((POOL,), r1=COHORT, g1=(20.0, 16.0, 180.0))
    found = judge(state, "r1", "charge", target="g1")
    assert found == Illegal(found.order, "the path crosses Pool, impassable ground")
    clear = judge(placed((), r1=COHORT, g1=(20.0, 16.0, 180.0)), "r1", "charge", target="g1")
    assert isinstance(clear, Preview) and clear.summary.startswith("charges the front of")
    ctx = context(state)
    movement.charge(ctx, ctx.state.unit("r1"), ctx.state.unit("g1"), 1, "charge")
    cohort = ctx.state.unit("r1")
    assert 10.99 < cohort.y + cohort.depth / 2 <= 11.0
    notes = moved(ctx, "r1").notes
    assert "the charge falls short" in notes and "stops short of Pool, impassable ground" in notes
    assert not ctx.state.unit("r1").get("charged")


def test_rivers_fords_bridges_and_gentle_hills_are_open_ground() -> None:
    river = TerrainFeature("river", "river", ((0, 14), (60, 14)), "Elaver")
    ford = TerrainFeature("ford", "ford", ((30, 13), (34, 13), (34, 15), (30, 15)), "Ford")
    hill = TerrainFeature("rise", "gentle_hill", ((14, 11), (26, 11), (26, 13), (14, 13)), "Rise")
    plain = judge(placed((), r1=COHORT), "r1", "move", to=[20, 18])
    for terrain in ((river,), (river, ford), (hill,)):
        found = judge(placed(terrain, r1=COHORT), "r1", "move", to=[20, 18])
        assert isinstance(found, Preview) and isinstance(plain, Preview)
        assert (found.summary, found.notes) == (plain.summary, plain.notes)
