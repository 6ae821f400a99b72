"""Faults the AI fuzzer (tests/bot/test_ai_fuzz.py, seeds 3-39) found in Tree of Battles, each
rebuilt as a small state: no move leaves a base on another unit."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core import registry
from rules_core.events import UnitMoved
from rules_core.geometry import TOUCH, Footprint, penetration
from rules_core.orders import Illegal, Order
from rules_core.rulesets.tree_of_battles import after, charges, movement, tactical
from rules_core.state import BattleState
from rules_core.steps import Cursor
from tests.bot.test_ai_fuzz import fuzzed
from tests.rules_core.rulesets.tree_of_battles.test_moves_back import context, placed


def depth(state: BattleState, a: str, b: str) -> float:
    """How deep two contingents' bases overlap."""
    return penetration(Footprint.of(state.unit(a)), Footprint.of(state.unit(b)))


def test_an_evade_that_cannot_clear_the_friend_it_turns_onto_stays_unturned() -> None:
    # Seed 7: the Brigands (2 x ½ SF) beside the Genoese Crossbowmen, charged from the
    # south-east, turn away to the north-west: turned, the base overlaps the crossbowmen, and
    # an enemy 1 SF on stops it before it is clear of them. It stays where it stands.
    state = placed(f6=(15.0, 10.0, 180.0), f4=(17.758, 10.5, 180.0), e3=(14.0, 11.0, 180.0))
    ctx = context(state, [2, 2])
    charges._evade(ctx, ctx.state.unit("f6"), (16.19, 8.25))
    brigands = ctx.state.unit("f6")
    assert (brigands.x, brigands.y, brigands.facing) == (15.0, 10.0, 180.0)
    assert depth(ctx.state, "f6", "f4") <= TOUCH


def test_an_evade_clear_of_the_friend_it_turned_onto_goes_its_full_length() -> None:
    # The same evade with nothing else in the way: 3 SF (AvD 2 and 2, +½ SF a die in
    # skirmish array), clear of the crossbowmen.
    state = placed(f6=(15.0, 10.0, 180.0), f4=(17.758, 10.5, 180.0))
    ctx = context(state, [2, 2])
    charges._evade(ctx, ctx.state.unit("f6"), (16.19, 8.25))
    brigands = ctx.state.unit("f6")
    assert round(((brigands.x - 15.0) ** 2 + (brigands.y - 10.0) ** 2) ** 0.5, 2) == 3.0
    assert depth(ctx.state, "f6", "f4") == 0.0


def test_a_move_stopped_touching_a_friend_is_not_rounded_onto_it() -> None:
    # Seeds 3, 25, 26: a move's end is kept to 0.001 SF; the farthest pose touching a friend
    # (0.001 SF deep at most) rounded up onto it, 0.0013 SF deep.
    state = placed(f2=(10.0, 10.0, 0.0), f3=(13.0, 13.80065, 0.0))
    ctx = context(state, [])
    movement.go(ctx, ctx.state.unit("f2"), (13.0, 13.0), 8.0, 0.0, "moves", halt=False)
    assert ctx.state.unit("f2").y == pytest.approx(12.801, abs=0.001)
    assert depth(ctx.state, "f2", "f3") <= TOUCH


# Seed 29: The Constable's Vanguard marched 1.5 SF straight onto Vendôme's Horse, 0.5 SF deep.
HORSE, VANGUARD, ONTO_THE_HORSE = (9.191, 7.452, 0.0), (9.191, 9.452, 180.0), [9.19, 7.95]


def approach(**where: tuple[float, float, float]) -> BattleState:
    """Only the named contingents, in the approach phase."""
    state = placed(**where)
    return replace(state, cursor=Cursor(1, "main", "approach", ("english", "french")))


def test_a_march_onto_another_contingent_is_refused() -> None:
    rules = registry.get("tree_of_battles").rules
    assert rules is not None
    state = approach(f1=HORSE, f2=VANGUARD)
    found = rules.judge(state, Order("f2", "march", {"to": ONTO_THE_HORSE}))
    assert isinstance(found, Illegal)
    assert found.reason == "Vendôme's Horse stands there: a march may not end on another contingent"


def test_a_march_whose_end_was_taken_after_its_order_stops_short() -> None:
    # Ordered while the ground was free; a friend moved there first in the phase.
    ctx = context(approach(f1=HORSE, f2=VANGUARD), [])
    tactical.march(ctx, Order("f2", "march", {"to": ONTO_THE_HORSE}))
    vanguard = ctx.state.unit("f2")
    assert depth(ctx.state, "f2", "f1") <= TOUCH
    assert vanguard.y - vanguard.depth / 2 == pytest.approx(7.952, abs=0.002)


# Seed 69: Camoys' Rearward fell back base depth from the Genoese Crossbowmen (4 x ½ SF), who
# followed up straight onto the Bombards beside them, 0.09 SF deep.
FOLLOWING = {"f4": (18.0, 11.0, 180.0), "e4": (18.0, 9.75, 0.0), "f5": (20.91, 10.08, 180.0)}


def test_a_follow_up_onto_a_friend_beside_it_is_not_made() -> None:
    ctx = context(placed(**FOLLOWING), [])
    after.carry_out(ctx, "f4", "e4", "follow_up")
    crossbows = ctx.state.unit("f4")
    assert (crossbows.x, crossbows.y) == (18.0, 11.0)
    assert depth(ctx.state, "f4", "f5") <= TOUCH
    (moved,) = [e for e in ctx.events if isinstance(e, UnitMoved)]
    assert moved.notes == (
        "cannot follow up: no room to contact Camoys' Rearward: Bombards is in the way",
    )


def test_a_follow_up_with_room_reaches_the_enemy() -> None:
    ctx = context(placed(f4=FOLLOWING["f4"], e4=FOLLOWING["e4"]), [])
    after.carry_out(ctx, "f4", "e4", "follow_up")
    crossbows = ctx.state.unit("f4")
    assert (crossbows.x, crossbows.y) == (18.0, 10.5)


@pytest.mark.parametrize("seed", [3, 7, 29, 69])
def test_seeds_the_fuzzer_found_faults_in_now_play_clean(seed: int) -> None:
    rules = registry.get("tree_of_battles").rules
    assert rules is not None
    _, _, found = fuzzed(rules, seed)
    assert found == []
