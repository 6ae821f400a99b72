"""Impassable ground and crossing points in the moves players choose (Tree of Battles).

Ground of the ``impassable`` kind (a lake, cliffs) bars a chosen move along its whole path, not
only where it ends: the judge refuses it, and a move that reaches the resolver anyway stops
short of it. A river is a major obstacle ("Cross major obstacle 1 DP, or 2 DPs if in full
harness"), and a river crossed at a bridge or ford is not an obstacle there. A gentle hill is
open ground for movement.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest
from shapely import Polygon

from rules_core import registry
from rules_core.context import Context
from rules_core.events import UnitMoved
from rules_core.geometry import Footprint
from rules_core.orders import Illegal, Order, Preview
from rules_core.plugin import Rules
from rules_core.rulesets.tree_of_battles import charges, tactical
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.sample import sample_battle
from rules_core.state import BattleState, TerrainFeature
from rules_core.steps import Cursor

MERE = TerrainFeature("mere", "impassable", ((10.5, 8), (13.5, 8), (13.5, 9), (10.5, 9)), "Mere")
RIVER = TerrainFeature("ternoise", "river", ((0, 9.5), (24, 9.5)), "Ternoise")


def crossing(kind: str) -> TerrainFeature:
    """A bridge or ford over the Ternoise at x 11-13."""
    return TerrainFeature(kind, kind, ((11, 8.5), (13, 8.5), (13, 10.5), (11, 10.5)), kind.title())


class Loaded(random.Random):
    """A random stream that deals the given faces in order (AvD and D6 alike)."""

    def __init__(self, faces: Sequence[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)

    def choice(self, seq: Sequence[int]) -> int:  # type: ignore[override]
        face = self.faces.pop(0)
        assert face in seq
        return face


@pytest.fixture
def rules() -> Rules:
    found = registry.get("tob").rules
    assert found is not None
    return found


def placed(
    step: str, terrain: tuple[TerrainFeature, ...], **where: tuple[float, float, float]
) -> BattleState:
    """Only the named contingents of the sample battle, at (x, y, facing), no leaders."""
    state = replace(sample_battle(), cursor=Cursor(1, "main", step, ("english", "french")))
    units = tuple(
        replace(state.unit(key), x=x, y=y, facing=facing) for key, (x, y, facing) in where.items()
    )
    return replace(state, units=units, leaders=(), terrain=terrain)


def judge(
    rules: Rules, state: BattleState, actor: str, kind: str, **params: object
) -> Preview | Illegal:
    return rules.judge(state, Order(actor, kind, params))  # type: ignore[arg-type]


def context(rules: Rules, state: BattleState, faces: Sequence[int]) -> Context:
    return Context(rules, state, (), (), Loaded(faces))


def moved(ctx: Context, key: str) -> UnitMoved:
    return next(e for e in ctx.events if isinstance(e, UnitMoved) and e.unit == key)


# The Constable's Vanguard (foot) at (12, 12) facing south; the Mere lies across its way at
# y 8-9, so a move to (12, 6) ends clear of it but would wade through it.
VANGUARD = (12.0, 12.0, 180.0)


def test_a_move_whose_path_crosses_impassable_ground_is_refused(rules: Rules) -> None:
    state = placed("tactical", (MERE,), f2=VANGUARD)
    through = judge(rules, state, "f2", "move", to=[12, 6])
    assert through == Illegal(through.order, "the path crosses Mere, impassable ground")
    near = placed("approach", (MERE,), f2=(12.0, 11.0, 180.0))
    march = judge(rules, near, "f2", "march", to=[12, 7.4])  # 3.6 SF, ending clear of it
    assert isinstance(march, Illegal) and march.reason == "the path crosses Mere, impassable ground"
    half = judge(rules, state, "f2", "manoeuvre", option="about_face", to=[12, 6])
    assert isinstance(half, Illegal) and half.reason == "the path crosses Mere, impassable ground"
    # Without the Mere the same move is allowed: only the impassable ground refused it.
    assert isinstance(judge(rules, placed("tactical", (), f2=VANGUARD), "f2", "move", to=[12, 6]),
                      Preview)  # fmt: skip


def test_a_move_around_impassable_ground_is_allowed_and_made(rules: Rules) -> None:
    state = placed("tactical", (MERE,), f2=VANGUARD)
    around = judge(rules, state, "f2", "move", to=[16, 9], facing=180)
    assert isinstance(around, Preview)
    ctx = context(rules, state, (5, 5))  # 2 AvD: 10 x ½ SF = 5 SF, the whole way
    tactical.move(ctx, Order("f2", "move", {"to": [16, 9], "facing": 180}))
    vanguard = ctx.state.unit("f2")
    assert (round(vanguard.x, 3), round(vanguard.y, 3)) == (16.0, 9.0)
    assert not any("impassable" in note for note in moved(ctx, "f2").notes)


def test_a_move_through_impassable_ground_that_reaches_the_resolver_stops_short(
    rules: Rules,
) -> None:
    state = placed("tactical", (MERE,), f2=VANGUARD)
    ctx = context(rules, state, (5, 5))  # 5 SF: far enough to reach y 7 beyond the Mere
    tactical.move(ctx, Order("f2", "move", {"to": [12, 6], "facing": 180}))
    vanguard = ctx.state.unit("f2")
    front = vanguard.y - vanguard.depth / 2
    assert vanguard.x == 12.0 and 9.0 <= front < 9.01  # its front stops at the Mere's edge
    assert "stops short of Mere, impassable ground" in moved(ctx, "f2").notes
    assert Footprint.of(vanguard).polygon.intersection(Polygon(MERE.points)).area < 1e-6
    # A march move (no dice) to beyond the Mere stops short of it the same way.
    ctx = context(rules, placed("approach", (MERE,), f2=(12.0, 11.0, 180.0)), ())
    tactical.march(ctx, Order("f2", "march", {"to": [12, 7.4]}))
    vanguard = ctx.state.unit("f2")
    assert 9.0 <= vanguard.y - vanguard.depth / 2 < 9.01
    assert "stops short of Mere, impassable ground" in moved(ctx, "f2").notes


def test_a_charge_across_impassable_ground_is_refused_and_falls_short(rules: Rules) -> None:
    # Vendôme's Horse charges York's Vaward across the Mere.
    state = placed("charges", (MERE,), f1=VANGUARD, e2=(12.0, 5.0, 0.0))
    found = judge(rules, state, "f1", "charge", target="e2")
    assert found == Illegal(found.order, "the path crosses Mere, impassable ground")
    clear = judge(rules, placed("charges", (), f1=VANGUARD, e2=(12.0, 5.0, 0.0)), "f1", "charge",
                  target="e2")  # fmt: skip
    assert isinstance(clear, Preview)
    # Should it reach the resolver (the Mere put down after the charge was declared), the
    # charge dice would carry it home, but it stops short of the Mere instead.
    ctx = context(rules, state, (5, 5, 6))  # 2 AvD + D6: 16 x ½ SF = 8 SF
    home = charges._close(ctx, ctx.state.unit("f1"), ctx.state.unit("e2"))
    horse = ctx.state.unit("f1")
    assert home is False
    assert 9.0 <= horse.y - horse.depth / 2 < 9.01
    assert "stops short of Mere, impassable ground" in moved(ctx, "f1").notes


@pytest.mark.parametrize("kind", ["bridge", "ford"])
def test_a_river_crossed_at_a_bridge_or_ford_is_no_obstacle(rules: Rules, kind: str) -> None:
    terrain = (RIVER, crossing(kind))
    at_it = placed("tactical", terrain, f2=(12.0, 11.0, 180.0))
    found = judge(rules, at_it, "f2", "move", to=[12, 8])
    assert isinstance(found, Preview) and found.notes == ()
    ctx = context(rules, at_it, (5, 5))
    tactical.move(ctx, Order("f2", "move", {"to": [12, 8]}))
    assert ctx.state.unit("f2").y == 8.0 and u.dps(ctx.state.unit("f2")) == 0


def test_a_river_crossed_away_from_a_crossing_point_is_a_major_obstacle(rules: Rules) -> None:
    terrain = (RIVER, crossing("bridge"))
    elsewhere = placed("tactical", terrain, f2=(5.0, 11.0, 180.0))
    found = judge(rules, elsewhere, "f2", "move", to=[5, 8])
    assert isinstance(found, Preview) and found.notes == ("crosses a major obstacle",)
    ctx = context(rules, elsewhere, (5, 5))
    tactical.move(ctx, Order("f2", "move", {"to": [5, 8]}))
    vanguard = ctx.state.unit("f2")
    assert vanguard.y == 8.0 and u.dps(vanguard) == (2 if u.armour(vanguard) == 2 else 1)


def test_a_gentle_hill_is_open_ground(rules: Rules) -> None:
    hill = TerrainFeature("rise", "gentle_hill", ((10, 7), (14, 7), (14, 10), (10, 10)), "Rise")
    found = judge(rules, placed("tactical", (hill,), f2=VANGUARD), "f2", "move", to=[12, 8])
    plain = judge(rules, placed("tactical", (), f2=VANGUARD), "f2", "move", to=[12, 8])
    assert isinstance(found, Preview) and isinstance(plain, Preview)
    assert (found.summary, found.notes) == (plain.summary, plain.notes)
    assert "rough" not in found.summary
