"""Skirmish measurements kept for speed (#37) still follow the battle: a unit or terrain put in
the way, or a target that moved, gives a new answer, not the one kept for the old ground."""

from __future__ import annotations

from dataclasses import replace

from rules_core.geometry import Footprint, facing_towards, range_from_front
from rules_core.rulesets.skirmish import measure
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import BattleState, TerrainFeature


def placed(state: BattleState, key: str, x: float, y: float) -> BattleState:
    """The state with one unit moved to (x, y), its facing kept."""
    return state.with_unit(replace(state.unit(key), x=x, y=y))


def test_sight_is_blocked_by_a_unit_moved_into_the_line() -> None:
    # r3 (36, 4) looks up the road at b3 (36, 32): nothing blocking sight lies between.
    state = sample_battle()
    viewer, target = state.unit("r3"), state.unit("b3")
    assert measure.sight(state, viewer, target).blocked_by == ()
    # The same two bases (the very same unit objects), r2 now standing between them.
    moved = placed(state, "r2", 36, 18)
    assert moved.unit("r3") is viewer and moved.unit("b3") is target
    assert measure.sight(moved, viewer, target).blocked_by == ("r2",)


def test_sight_is_blocked_by_terrain_added_to_the_line() -> None:
    state = sample_battle()
    viewer, target = state.unit("r3"), state.unit("b3")
    assert measure.sight(state, viewer, target).clear
    wood = TerrainFeature("wood9", "wood", ((30, 16), (42, 16), (42, 20), (30, 20)))
    wooded = replace(state, terrain=(*state.terrain, wood))
    found = measure.sight(wooded, viewer, target)
    assert not found.clear and found.blocked_by == ("wood9",)


def test_a_charge_line_follows_a_target_that_moved() -> None:
    state = sample_battle()
    charger = state.unit("r3")
    _, gap = measure.charge_line(charger, state.unit("b3"))
    assert gap == 26.0  # front edge at y 5 to the enemy's front edge at y 31
    target = placed(state, "b3", 40, 20).unit("b3")
    turned, moved_gap = measure.charge_line(charger, target)
    facing = facing_towards((charger.x, charger.y), (target.x, target.y))
    assert turned.facing == facing
    assert moved_gap == range_from_front(turned, Footprint.of(target)) != gap
