"""Ground under the whole base along a move, not under its centre line (#39 item 2)."""

from __future__ import annotations

import pytest

from rules_core.geometry import Footprint
from rules_core.orders import Illegal, Preview
from rules_core.rulesets.pike_and_shot import movement, moves
from rules_core.rulesets.pike_and_shot.movement_tables import MOVEMENT
from rules_core.rulesets.pike_and_shot.status import COHESION
from rules_core.state import BattleState, TerrainFeature
from rules_core.terrain import trace_path
from tests.rules_core.footprints import beside, laid
from tests.rules_core.rulesets.pike_and_shot.helpers import RULES, at, context
from tests.rules_core.rulesets.pike_and_shot.test_movement import move

PARAMS = RULES.parameter_values()


def brushed(key: str, kind: str, ahead: float) -> BattleState:
    """The unit at (30, 10) facing up the table, ground of ``kind`` under the right quarter of
    its front from ``ahead`` before it (its centre line clear of it)."""
    state = at("movement", **{key: (30.0, 10.0, 0.0)})
    return laid(state, beside(state.unit(key), kind, ahead))


def centre_misses(state: BattleState, key: str, to: tuple[float, float]) -> bool:
    """True if the unit's centre line to ``to`` never goes into the terrain."""
    unit = state.unit(key)
    return not trace_path([(unit.x, unit.y), to], state.terrain).inside


def test_cavalry_whose_corner_goes_into_a_wood_pays_the_difficult_rate_and_is_disordered() -> None:
    # Wilmot's Horse, a Cavalry Brigade: "18 ins ... 8 ins and disorder". 4" ahead: 1" until
    # its front corner reaches the wood, then 3" with part of its base in it.
    normal, slow = (MOVEMENT.lookup("Cavalry Brigade", c) for c in ("normal", "difficult"))
    assert isinstance(normal, int) and isinstance(slow, int)
    state = brushed("royalists1", "wood", 1.0)
    assert centre_misses(state, "royalists1", (30, 14))
    horse = state.unit("royalists1")
    costed = movement.cost(state, horse, [(30, 14)], 0.0, "keep", PARAMS)
    assert costed.used == pytest.approx(1 + 3 * normal / slow) and costed.difficult
    order = move("royalists1", (30, 14))
    found = RULES.judge(state, order)
    assert isinstance(found, Preview) and "difficult terrain will disorder it" in found.notes
    ctx = context(state, orders=[order])
    movement.resolve(ctx)
    assert COHESION.of(ctx.state.unit("royalists1")) == "disordered"
    # Up to the wood, its front touching it, is not in it: the open rate, no disorder.
    edge = movement.cost(state, horse, [(30, 11)], 0.0, "keep", PARAMS)
    assert edge.used == pytest.approx(1.0) and not edge.difficult


def test_a_base_crossing_a_hedge_at_one_corner_pays_for_the_crossing() -> None:
    # Gerard's Foot, Infantry brigades: crossing a linear obstacle is its "Full move", so it
    # goes no further than full_move_reach plus its depth (2 + 2").
    state = brushed("royalists4", "linear_obstacle", 1.0)
    assert centre_misses(state, "royalists4", (30, 15))
    assert isinstance(RULES.judge(state, move("royalists4", (30, 14))), Preview)
    too_far = RULES.judge(state, move("royalists4", (30, 15)))
    assert isinstance(too_far, Illegal) and "Full-move" in too_far.reason


def test_field_artillery_may_not_take_a_corner_into_a_wood_but_may_go_up_to_it() -> None:
    # "Field Artillery ... Difficult Terrain n/a".
    assert MOVEMENT.lookup("Field Artillery", "difficult") == "n/a"
    state = brushed("royalists6", "wood", 1.0)
    assert centre_misses(state, "royalists6", (30, 12))
    refused = RULES.judge(state, move("royalists6", (30, 12)))
    assert isinstance(refused, Illegal) and "may not cross" in refused.reason
    assert isinstance(RULES.judge(state, move("royalists6", (30, 11))), Preview)


def routed(key: str, feature: TerrainFeature | None, ahead: float) -> tuple[str, float, float]:
    """A rout of the unit at (30, 20) straight up the table, away from Essex's Foot behind it,
    with ground laid under the right of its front from ``ahead`` before it: the result, where
    its front edge started and where it ended."""
    state = at("combat", **{key: (30.0, 20.0, 0.0)}, parliament3=(30.0, 17.0, 0.0))
    unit = state.unit(key)
    state = laid(state, feature or beside(unit, "wood", ahead))
    ctx = context(state)
    result = moves.rout_move(ctx, unit, ctx.state.unit("parliament3"))
    after = ctx.state.unit(key)
    return result, unit.y + unit.depth / 2, after.y + after.depth / 2


def test_routing_field_artillery_stops_with_its_front_edge_exactly_at_a_wood() -> None:
    # It may not enter difficult terrain, and its 6" rout would take a corner 4.5" into it.
    result, front, stop = routed("royalists6", None, 1.5)
    assert result == "routed" and stop == pytest.approx(front + 1.5, abs=1e-6)


def test_a_rout_stops_at_impassable_ground_beyond_the_five_inch_strip_under_its_base() -> None:
    # The 5" gap is swept as a 5" strip, but Gerard's Foot is 6" wide: ground under only its
    # outer half inch still stops its whole base, front edge at it.
    unit = at("combat", royalists4=(30.0, 20.0, 0.0)).unit("royalists4")
    base = Footprint.of(unit)
    near, far, right = base.depth / 2 + 1.0, 20.0, base.frontage / 2
    corners = ((near, right - 0.25), (near, right + 1), (far, right + 1), (far, right - 0.25))
    ground = TerrainFeature("rocks", "impassable", tuple(base.at(f, r) for f, r in corners))
    result, front, stop = routed("royalists4", ground, 1.0)
    assert result == "blocked" and stop == pytest.approx(front + 1.0, abs=1e-6)


def test_cavalry_in_a_wood_turning_where_it_stands_does_not_move_through_it() -> None:
    # Its base stands in the wood, but it does not move through it: no cost, no disorder.
    state = at("movement", royalists1=(30.0, 10.0, 0.0))
    horse = state.unit("royalists1")
    state = laid(state, beside(horse, "wood", -1.0))
    costed = movement.cost(state, horse, [(30, 10)], 90.0, "keep", PARAMS)
    assert not costed.difficult and not any("terrain" in note for note in costed.notes)


def test_rabble_may_not_take_a_corner_over_a_hedge_but_may_leave_one_it_stands_over() -> None:
    # "Rabble ... Crossing points": a hedge or wall is not crossed at all.
    assert MOVEMENT.lookup("Rabble", "linear_obstacle") == "Crossing points"
    state = brushed("parliament5", "linear_obstacle", 1.0)
    assert centre_misses(state, "parliament5", (30, 13))
    refused = RULES.judge(state, move("parliament5", (30, 13)))
    assert isinstance(refused, Illegal) and "may not cross" in refused.reason
    # A hedge already under its base (half an inch behind its front edge) it may leave.
    astride = brushed("parliament5", "linear_obstacle", -0.5)
    assert isinstance(RULES.judge(astride, move("parliament5", (30, 13))), Preview)
