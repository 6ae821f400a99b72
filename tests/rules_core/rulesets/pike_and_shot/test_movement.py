"""The Movement table as the sheet prints it, and moves costed and checked along their paths."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core.orders import Illegal, Order, Preview
from rules_core.rulesets.pike_and_shot import cohesion as co
from rules_core.rulesets.pike_and_shot import movement
from rules_core.rulesets.pike_and_shot import tables as t
from rules_core.rulesets.pike_and_shot.movement_tables import MOVEMENT, rate
from rules_core.rulesets.pike_and_shot.status import (
    ATTACKER,
    COHESION,
    DEFENDING_OBSTACLE,
    MARCH_COLUMN,
)
from rules_core.state import TerrainFeature
from tests.rules_core.rulesets.pike_and_shot.helpers import (
    RULES,
    at,
    context,
    status,
    wing_order,
)

# The sheet's Movement table, row by row: Normal, March Column, Turns up to 90°, Crossing
# linear obstacles, Difficult Terrain (and whether it disorders).
SHEET = {
    "Early Tercios": (10, 15, "Full move", "Full move", 5, False),
    "Infantry brigades": (12, 18, "½ move", "Full move", 6, False),
    "Irregular infantry": (12, 18, "Free", "½ move", 8, False),
    "Detachments": (12, 18, "Free", "½ move", 8, False),
    "Rabble": (10, "n/a", "Full move", "Crossing points", 5, True),
    "Infantry guns": (10, "n/a", "½ move", "Full move", 3, True),
    "Field Artillery": (6, "n/a", "Full move", "Crossing points", "n/a", False),
    "Heavy Artillery": (2, "n/a", "n/a", "Crossing points", "n/a", False),
    "Cavalry Brigade": (18, 27, "½ move", "Full move", 8, True),
    "Double Brigade": (16, 24, "Full move", "Full move", 6, True),
    "Irregular cavalry": (24, 36, "Free", "½ move", 8, False),
    "Commanders": (24, "n/a", "Free", "½ move", 12, False),
}
PARAMS = RULES.parameter_values()
WOOD = TerrainFeature("wood", "wood", ((20, 14), (40, 14), (40, 30), (20, 30)), "Wood")
HEDGE = TerrainFeature("hedge", "linear_obstacle", ((20, 14), (40, 14)), "Hedge")
STREAM = TerrainFeature("stream", "stream", ((0, 14), (72, 14)), "Brook")
BRIDGE = TerrainFeature("bridge", "bridge", ((28, 13), (32, 13), (32, 15), (28, 15)), "Bridge")
ROAD = TerrainFeature("road", "road", ((30, 0), (30, 48)), "Road", {"width": 3.0})


def move(unit: str, *path: tuple[float, float], **params: object) -> Order:
    return Order(unit, "move", {"path": [list(p) for p in path], **params})  # type: ignore[dict-item]


def test_the_movement_table_reads_as_the_sheet_row_by_row() -> None:
    assert list(MOVEMENT.rows) == list(SHEET)
    for row, cells in SHEET.items():
        assert tuple(MOVEMENT.rows[row]) == cells, row
    assert RULES.tables["Movement"] is MOVEMENT


def test_every_unit_type_reads_its_row_and_march_column_its_rate() -> None:
    state = at("movement", royalists3=(30, 10, 0), royalists1=(10, 10, 0), royalists2=(50, 10, 0))
    assert rate(state.unit("royalists3"), PARAMS) == 10
    assert rate(state.unit("royalists1"), PARAMS) == 18
    assert rate(state.unit("royalists2"), PARAMS) == 18  # mounted dragoons: a cavalry brigade
    dismounted = status(state, "royalists2", dismounted=True).unit("royalists2")
    assert rate(dismounted, PARAMS) == 12  # dismounted dragoons: detachments
    column = status(state, "royalists3", march_column=True).unit("royalists3")
    assert rate(column, PARAMS) == 15


def test_a_normal_move_up_to_the_rate_and_not_beyond() -> None:
    state = at("movement", royalists3=(30, 10, 0))
    ok = RULES.judge(state, move("royalists3", (30, 20)))
    assert isinstance(ok, Preview) and '10" of its 10"' in ok.summary
    far = RULES.judge(state, move("royalists3", (30, 20.5)))
    assert isinstance(far, Illegal) and 'costs 10.5" of its 10"' in far.reason


def test_a_move_to_a_point_is_a_straight_path_and_a_move_needs_somewhere_to_go() -> None:
    state = at("movement", royalists3=(30, 10, 0))
    straight = RULES.judge(state, Order("royalists3", "move", {"to": [30, 20]}))
    along = RULES.judge(state, move("royalists3", (30, 20)))
    assert isinstance(straight, Preview) and isinstance(along, Preview)
    assert straight.summary == along.summary
    ended = RULES.judge(state, Order("royalists3", "move", {"path": [[30, 15]], "to": [30, 20.5]}))
    assert isinstance(ended, Illegal) and 'costs 10.5" of its 10"' in ended.reason
    nowhere = RULES.judge(state, Order("royalists3", "move", {}))
    assert isinstance(nowhere, Illegal) and "`x` and `y`, or a `path`" in nowhere.reason


def test_turning_costs_half_a_brigades_move_and_a_whole_tercios() -> None:
    state = at("movement", royalists4=(30, 10, 0), royalists3=(50, 10, 0))
    assert isinstance(RULES.judge(state, move("royalists4", (30, 16), facing=90)), Preview)
    refused = RULES.judge(state, move("royalists4", (30, 16.5), facing=90))
    assert isinstance(refused, Illegal) and '12.5"' in refused.reason
    # A tercio's turn is its Full move: it may go no further than full_move_reach (2").
    assert isinstance(RULES.judge(state, move("royalists3", (50, 12), facing=90)), Preview)
    whole = RULES.judge(state, move("royalists3", (50, 13), facing=90))
    assert isinstance(whole, Illegal) and "Full-move" in whole.reason
    # More than 90 degrees counts as two turns: two Full moves for a tercio.
    twice = RULES.judge(state, move("royalists3", (50, 10.5), facing=180))
    assert isinstance(twice, Illegal) and "two Full-move" in twice.reason


def test_heavy_artillery_may_not_turn_and_irregulars_turn_free() -> None:
    state = at("movement", royalists6=(30, 10, 0), parliament8=(50, 30, 180))
    state = wing_order(state, "parliament_right", "attack")
    heavy = state.with_unit(replace(state.unit("royalists6"), type="heavy_artillery"))
    refused = RULES.judge(heavy, move("royalists6", (30, 11), facing=45))
    assert isinstance(refused, Illegal) and "may not turn" in refused.reason
    free = RULES.judge(state, move("parliament8", (50, 6), facing=0))
    assert isinstance(free, Preview) and '24" of its 24"' in free.summary


def test_difficult_terrain_costs_by_the_difficult_rate_but_not_a_march_column() -> None:
    state = at("movement", [WOOD], royalists4=(30, 10, 0))
    # Its front edge (1" ahead of its centre) reaches the wood after 3" in the open; the
    # other 4" its base is in the wood, at 6" for 12": 3 + 4 * 2 = 11" (#39: the base, not
    # the centre, is in the wood).
    costed = RULES.judge(state, move("royalists4", (30, 17)))
    assert isinstance(costed, Preview) and 'moves 11" of its 12"' in costed.summary
    column = status(state, "royalists4", march_column=True)
    fast = RULES.judge(column, move("royalists4", (30, 17)))
    assert isinstance(fast, Preview) and 'moves 7" of its 18"' in fast.summary


def test_field_artillery_may_not_enter_difficult_terrain() -> None:
    state = at("movement", [WOOD], royalists6=(30, 10, 0))
    refused = RULES.judge(state, move("royalists6", (30, 15)))
    assert isinstance(refused, Illegal) and "may not cross" in refused.reason


def test_linear_obstacles_cost_by_type_and_rabble_cross_only_at_crossing_points() -> None:
    state = at(
        "movement", [HEDGE], royalists4=(30, 12, 0), parliament8=(21, 10, 0),
        parliament5=(38, 12, 0),
    )  # fmt: skip
    # An infantry brigade's crossing is its Full move: no further than its depth (2") and
    # full_move_reach (2") beyond where it starts.
    assert isinstance(RULES.judge(state, move("royalists4", (30, 16))), Preview)
    too_far = RULES.judge(state, move("royalists4", (30, 17)))
    assert isinstance(too_far, Illegal) and "Full-move" in too_far.reason
    # Irregular cavalry pays half its move (12") and goes on 12".
    irregular = RULES.judge(state, move("parliament8", (21, 22)))
    assert isinstance(irregular, Preview) and '24" of its 24"' in irregular.summary
    rabble = RULES.judge(state, move("parliament5", (38, 16)))
    assert isinstance(rabble, Illegal) and "may not cross" in rabble.reason


def test_a_stream_is_crossed_by_field_artillery_only_at_the_bridge() -> None:
    state = at("movement", [STREAM, BRIDGE], royalists6=(30, 11, 0))
    assert isinstance(RULES.judge(state, move("royalists6", (30, 17))), Preview)
    moved = at("movement", [STREAM, BRIDGE], royalists6=(20, 11, 0))
    assert isinstance(RULES.judge(moved, move("royalists6", (20, 17))), Illegal)


def test_a_march_column_pays_obstacles_except_along_a_road() -> None:
    column = status(at("movement", [HEDGE], royalists4=(30, 10, 0)), "royalists4",
                    march_column=True)  # fmt: skip
    assert isinstance(RULES.judge(column, move("royalists4", (30, 20))), Illegal)
    road = status(at("movement", [HEDGE, ROAD], royalists4=(30, 10, 0)), "royalists4",
                  march_column=True)  # fmt: skip
    assert isinstance(RULES.judge(road, move("royalists4", (30, 28))), Preview)


def test_forming_march_column_costs_half_a_move_and_rabble_has_none() -> None:
    state = at("movement", royalists4=(30, 10, 0), parliament5=(50, 30, 180))
    ok = RULES.judge(state, move("royalists4", (30, 16), formation="march_column"))
    assert isinstance(ok, Preview)
    assert isinstance(RULES.judge(state, move("royalists4", (30, 17), formation="march_column")),
                      Illegal)  # fmt: skip
    rabble = RULES.judge(state, move("parliament5", (50, 29), formation="march_column"))
    assert isinstance(rabble, Illegal) and "no March Column" in rabble.reason


def test_hold_forbids_moving_toward_the_enemy_and_withdraw_only_moves_away() -> None:
    state = at("movement", royalists4=(30, 10, 0), parliament3=(30, 30, 180))
    assert isinstance(RULES.judge(state, move("royalists4", (30, 16))), Preview)  # attack
    held = wing_order(state, "royalists_centre", "hold")
    refused = RULES.judge(held, move("royalists4", (30, 16)))
    assert isinstance(refused, Illegal) and "Hold orders" in refused.reason
    assert isinstance(RULES.judge(held, move("royalists4", (36, 10))), Preview)  # sideways
    gone = wing_order(state, "royalists_centre", "withdraw")
    assert isinstance(RULES.judge(gone, move("royalists4", (30, 16))), Illegal)
    assert isinstance(RULES.judge(gone, move("royalists4", (30, 5))), Preview)
    sideways = RULES.judge(gone, move("royalists4", (36, 10)))
    assert isinstance(sideways, Illegal) and "Withdraw orders" in sideways.reason


def test_the_gm_may_rule_on_moves_against_a_wings_order() -> None:
    state = wing_order(
        at("movement", royalists4=(30, 10, 0), parliament3=(30, 30, 180)),
        "royalists_centre", "hold",
    )  # fmt: skip
    lenient = RULES.parameter_values({"wing_order_enforcement": "gm"})
    verdict = movement.preview(state, move("royalists4", (30, 16)), lenient)
    assert isinstance(verdict, Preview) and any("GM may rule" in n for n in verdict.notes)


def test_a_move_into_an_enemy_stops_in_contact_and_makes_the_attacker() -> None:
    state = at("movement", royalists1=(30, 10, 0), parliament3=(30, 22, 180))
    verdict = RULES.judge(state, move("royalists1", (30, 28)))
    assert isinstance(verdict, Preview) and any("contact" in n for n in verdict.notes)
    ctx = context(state, orders=[move("royalists1", (30, 28))])
    movement.resolve(ctx)
    horse = ctx.state.unit("royalists1")
    assert abs(horse.y - 20.0) < 1e-3 and ATTACKER.of(horse)  # its front on the enemy's
    assert not ATTACKER.of(ctx.state.unit("parliament3"))


def test_both_sides_move_at_once_and_the_first_to_arrive_is_the_attacker() -> None:
    state = at("movement", royalists4=(30, 10, 0), parliament3=(30, 30, 180))
    state = wing_order(state, "parliament_centre", "attack")
    orders = [move("royalists4", (30, 22)), move("parliament3", (30, 18))]
    ctx = context(state, orders=orders)
    movement.resolve(ctx)
    mine, theirs = ctx.state.unit("royalists4"), ctx.state.unit("parliament3")
    assert abs(mine.y - 22) < 1e-6 and abs(theirs.y - 24) < 1e-3  # stopped on contact
    assert ATTACKER.of(theirs) and not ATTACKER.of(mine)


def test_cavalry_moving_through_difficult_terrain_is_disordered() -> None:
    state = at("movement", [WOOD], royalists1=(30, 10, 0), royalists4=(10, 10, 0))
    ctx = context(state, orders=[move("royalists1", (30, 16))])
    movement.resolve(ctx)
    assert COHESION.of(ctx.state.unit("royalists1")) == "disordered"
    assert ctx.state.unit("royalists1").status.get("in_difficult") is True
    assert ctx.state.unit("royalists1").status.get("cover") == "cover"


def test_a_formation_change_is_kept() -> None:
    state = at("movement", royalists4=(30, 10, 0))
    ctx = context(state, orders=[move("royalists4", (30, 14), formation="march_column")])
    movement.resolve(ctx)
    assert MARCH_COLUMN.of(ctx.state.unit("royalists4"))


def test_engaged_or_routed_units_may_not_be_moved() -> None:
    state = at("movement", royalists4=(30, 10, 0), parliament3=(30, 12, 180))
    engaged = RULES.judge(state, move("royalists4", (30, 5)))
    assert isinstance(engaged, Illegal) and "engaged" in engaged.reason
    routed = status(at("movement", royalists4=(30, 10, 0)), "royalists4", cohesion="routed")
    assert isinstance(RULES.judge(routed, move("royalists4", (30, 5))), Illegal)


def _behind_hedge(gap: float) -> tuple[float, float]:
    """Where royalists4 (facing the hedge) ends with its front ``gap`` inches short of it."""
    depth = at("movement", royalists4=(30, 6, 0)).unit("royalists4").depth
    return 30, HEDGE.points[0][1] - depth / 2 - gap


@pytest.mark.parametrize("gap, defends", [(0.5, True), (4.0, False)])
def test_a_unit_ending_its_move_behind_a_hedge_defends_it(gap: float, defends: bool) -> None:
    state = at("movement", [HEDGE], royalists4=(30, 4, 0))
    ctx = context(state, orders=[move("royalists4", _behind_hedge(gap))])
    movement.resolve(ctx)
    unit = ctx.state.unit("royalists4")
    assert DEFENDING_OBSTACLE.of(unit) is defends
    reasons = {m.reason for m in co.disorder_modifiers(ctx.state, unit, PARAMS)}
    assert (t.sheet(t.DISORDER_MODIFIERS, "defending_obstacle") in reasons) is defends


def test_a_unit_that_crossed_the_hedge_no_longer_defends_it() -> None:
    state = at("movement", [HEDGE], royalists4=(30, 4, 0))
    state = state.with_unit(state.unit("royalists4").with_status(defending_obstacle=True))
    ctx = context(state, orders=[move("royalists4", (30, 24))])
    movement.resolve(ctx)
    assert not DEFENDING_OBSTACLE.of(ctx.state.unit("royalists4"))
