"""Retire, rout, evade and fall back checked along their path, with the sheet's numbers.

Fast moves are 2 AvD x ½ SF (mounted + D6); fall back is one base depth (a stand, ½ SF for
these foot). Friends take DPs from a contingent retiring or routing within 3 SF of where it
began to move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest

from rules_core import registry
from rules_core.context import Context
from rules_core.events import UnitDestroyed
from rules_core.rulesets.tree_of_battles import charges, retreats
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.sample import sample_battle
from rules_core.state import BattleState, TerrainFeature
from rules_core.steps import Cursor


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


def placed(
    terrain: tuple[TerrainFeature, ...] = (), **where: tuple[float, float, float]
) -> BattleState:
    """Only the named contingents of the sample battle, at (x, y, facing), and no leaders."""
    state = replace(sample_battle(), cursor=Cursor(1, "main", "after", ("english", "french")))
    units = tuple(
        replace(state.unit(key), x=x, y=y, facing=facing) for key, (x, y, facing) in where.items()
    )
    return replace(state, units=units, leaders=(), terrain=terrain)


def context(state: BattleState, faces: Sequence[int]) -> Context:
    rules = registry.get("tob").rules
    assert rules is not None
    return Context(rules, state, (), (), Loaded(faces))


def centre(ctx: Context, key: str) -> tuple[float, float]:
    unit = ctx.state.unit(key)
    return (round(unit.x, 2), round(unit.y, 2))


# Camoys' Rearward (billmen, B, 2 x 1 SF) at (12, 10) facing north, the threat to the north:
# it retires and routs south. AvD 5 and 5 = 10 halves = 5 SF.
BILLS = (12.0, 10.0, 0.0)
THREAT = (12.0, 11.5)
FIVE_SF = (5, 5)


def test_a_retire_through_an_enemy_is_unable_to_retire_and_takes_1_dp() -> None:
    # The enemy stands 2 SF behind; 5 SF would end clear beyond it, but the path crosses it.
    ctx = context(placed(e4=BILLS, f2=(12.0, 7.0, 180.0)), FIVE_SF)
    retreats.retire(ctx, ctx.state.unit("e4"), THREAT, "test")
    bills = ctx.state.unit("e4")
    assert centre(ctx, "e4") == (12.0, 10.0)
    assert u.dps(bills) == 1 and u.array(bills) == "disarray"


def test_a_retire_to_the_table_edge_stays_in_place_with_1_dp_not_destroyed() -> None:
    ctx = context(placed(e4=(12.0, 2.0, 0.0), f3=(12.0, 3.5, 180.0)), FIVE_SF)
    retreats.retire(ctx, ctx.state.unit("e4"), (12.0, 3.5), "test")
    assert u.alive(ctx.state, "e4")
    assert centre(ctx, "e4") == (12.0, 2.0) and u.dps(ctx.state.unit("e4")) == 1


def test_a_retire_passes_through_friends_with_passage_of_lines() -> None:
    # Left-wing Archers (B, 4 x ½ SF) 2.5 SF behind: passed through, 1 DP each, none stationary.
    state = placed(e4=BILLS, e5=(12.0, 7.0, 0.0))
    state = state.with_unit(state.unit("e5").with_status(stationary=False))
    ctx = context(state, FIVE_SF)
    retreats.retire(ctx, ctx.state.unit("e4"), THREAT, "test")
    assert centre(ctx, "e4") == (12.0, 5.0)
    assert u.dps(ctx.state.unit("e4")) == 1 and u.dps(ctx.state.unit("e5")) == 1


def test_a_retire_ending_on_friends_stops_short_of_them_without_a_dp() -> None:
    # The archers' far edge is at 6.75; a 4 SF retire would end on them, so it stops at 2.75.
    ctx = context(placed(e4=BILLS, e5=(12.0, 6.5, 0.0)), (4, 4))
    retreats.retire(ctx, ctx.state.unit("e4"), THREAT, "test")
    assert ctx.state.unit("e4").y == pytest.approx(7.25, abs=0.003)
    assert u.dps(ctx.state.unit("e4")) == 0


def test_mounted_retiring_stop_short_at_dense_woods() -> None:
    # Vendôme's Horse (4 x 1 SF) retires north: 2 AvD + D6 = 4 + 4 + 4 halves = 6 SF, but
    # the dense wood begins 1.5 SF behind it and mounted may not enter dense woods.
    wood = TerrainFeature("w", "dense_wood", ((8, 12), (16, 12), (16, 16), (8, 16)))
    ctx = context(placed((wood,), f1=(12.0, 10.0, 180.0), e3=(12.0, 8.5, 0.0)), (4, 4, 4))
    retreats.retire(ctx, ctx.state.unit("f1"), (12.0, 8.5), "test")
    assert ctx.state.unit("f1").y == pytest.approx(11.5, abs=0.003)
    assert u.dps(ctx.state.unit("f1")) == 0


def test_a_rout_into_an_enemy_stays_in_place_with_1_casualty() -> None:
    ctx = context(placed(e4=BILLS, f2=(12.0, 7.0, 180.0)), FIVE_SF)
    assert retreats.rout(ctx, ctx.state.unit("e4"), THREAT, "test")
    assert centre(ctx, "e4") == (12.0, 10.0) and u.casualties(ctx.state.unit("e4")) == 1


def test_a_rout_runs_off_the_table() -> None:
    ctx = context(placed(e4=(12.0, 2.0, 0.0), f3=(12.0, 3.5, 180.0)), FIVE_SF)
    assert not retreats.rout(ctx, ctx.state.unit("e4"), (12.0, 3.5), "test")
    gone = [e for e in ctx.events if isinstance(e, UnitDestroyed)]
    assert [e.reason for e in gone] == ["routs off the table"]


def test_an_evade_stops_short_of_an_enemy_in_its_way() -> None:
    # Brigands (2 x ½ SF) evade a charge from the south; an enemy stands 2.25 SF behind them.
    ctx = context(
        placed(f6=(12.0, 10.0, 180.0), e3=(12.0, 8.5, 0.0), e4=(12.0, 13.0, 0.0)), FIVE_SF
    )
    charges._evade(ctx, ctx.state.unit("f6"), (12.0, 8.5))
    assert ctx.state.unit("f6").y == pytest.approx(12.25, abs=0.003)
    assert u.alive(ctx.state, "e4") and u.dps(ctx.state.unit("f6")) == 0


@pytest.mark.parametrize(
    ("behind", "blocked"),
    [
        ({"f2": (12.0, 9.0, 180.0)}, True),  # an enemy touching its rear
        ({"e1": (12.0, 9.25, 0.0)}, True),  # friends touching its rear: only its own rank
        ({}, False),
    ],
)
def test_fall_back_is_base_depth_or_1_dp_in_place(
    behind: dict[str, tuple[float, float, float]], blocked: bool
) -> None:
    ctx = context(placed(e4=BILLS, f3=(12.0, 11.5, 180.0), **behind), ())
    retreats.fall_back(ctx, ctx.state.unit("e4"), THREAT)
    assert centre(ctx, "e4") == ((12.0, 10.0) if blocked else (12.0, 9.5))
    assert u.dps(ctx.state.unit("e4")) == (1 if blocked else 0)


def test_fall_back_at_the_table_edge_is_1_dp_in_place() -> None:
    ctx = context(placed(e4=(12.0, 0.75, 0.0), f3=(12.0, 2.25, 180.0)), ())
    retreats.fall_back(ctx, ctx.state.unit("e4"), (12.0, 2.25))
    assert centre(ctx, "e4") == (12.0, 0.75) and u.dps(ctx.state.unit("e4")) == 1


def test_friends_take_dps_from_where_a_higher_grade_contingent_began_to_retire() -> None:
    # York's Vaward (A) retires 5 SF south. Camoys' billmen (B) are 1.5 SF from its start and
    # 4 SF from its end: 1 DP. The Left-wing Archers (B) are 4.5 SF from its start and touch
    # its end: none.
    state = placed(e2=BILLS, f3=(12.0, 11.5, 180.0), e4=(15.5, 10.0, 0.0), e5=(16.5, 5.0, 0.0))
    ctx = context(state, FIVE_SF)
    retreats.retire(ctx, ctx.state.unit("e2"), THREAT, "test")
    assert centre(ctx, "e2") == (12.0, 5.0)
    assert u.dps(ctx.state.unit("e4")) == 1 and u.dps(ctx.state.unit("e5")) == 0


def test_friends_take_dps_from_where_a_contingent_began_to_rout() -> None:
    # Equal or higher grade routs within 3 SF: 2 DPs to non-chivalrous friends.
    state = placed(e2=BILLS, f3=(12.0, 11.5, 180.0), e4=(15.5, 10.0, 0.0), e5=(16.5, 5.0, 0.0))
    ctx = context(state, FIVE_SF)
    retreats.rout(ctx, ctx.state.unit("e2"), THREAT, "test")
    assert centre(ctx, "e2") == (12.0, 5.0)
    assert u.dps(ctx.state.unit("e4")) == 2 and u.dps(ctx.state.unit("e5")) == 0


def test_an_evade_may_run_off_the_table() -> None:
    # Brigands 1 SF from the north edge evade a charge from the south: 5 SF takes them off.
    ctx = context(placed(f6=(12.0, 19.0, 180.0), e3=(12.0, 17.5, 0.0)), FIVE_SF)
    charges._evade(ctx, ctx.state.unit("f6"), (12.0, 17.5))
    assert not u.alive(ctx.state, "f6")
    assert [e.reason for e in ctx.events if isinstance(e, UnitDestroyed)] == [
        "evades off the table"
    ]
