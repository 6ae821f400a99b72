"""The shared toolkit: order checks, contact pairs, lookups, targets and the turn limit."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules_core import registry
from rules_core.codec import number_or
from rules_core.context import Context
from rules_core.events import OrderRejected
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import BattleState, Outcome
from rules_core.steps import Cursor
from rules_core.toolkit import (
    GONE,
    checked_orders,
    contact_pairs,
    enemies_in_contact,
    enemy_target,
    engaged,
    find_leader,
    find_unit,
    g,
    gap,
    nearest,
    nearest_enemy,
    param_number,
    turn_limit_outcome,
    zone_words,
)


@pytest.fixture
def rules() -> Rules:
    found = registry.get("skirmish").rules
    assert found is not None
    return found


def _placed(state: BattleState, unit_id: str, x: float, y: float, facing: float) -> BattleState:
    return state.with_unit(replace(state.unit(unit_id), x=x, y=y, facing=facing))


def test_orders_come_in_roster_order_with_the_gone_and_the_illegal_refused(
    rules: Rules,
) -> None:
    state = sample_battle().without_unit("r2")
    orders = [
        Order("b1", "place", {"at": [12, 31]}),
        Order("r3", "place", {"at": [36, 5]}),
        Order("r2", "place", {"at": [24, 5]}),  # destroyed earlier in the step: refused
        Order("r1", "place", {"at": [12, 20]}),  # outside Red's zone: refused
    ]
    ctx = Context(rules, state, orders, (), random.Random(1))
    legal = checked_orders(ctx, ("place",))
    assert [order.actor for order in legal] == ["r3", "b1"]
    assert ctx.events == [
        OrderRejected(
            "r1",
            "place",
            "(12, 20) is outside Red's deployment zone (y from 0 to 8 inch, the south edge): "
            "its whole base reaches y=21, past the zone's edge at y=8; move it 13 inch south, "
            "to (12, 7)",
        ),
        OrderRejected("r2", "place", GONE),  # the gone come last: they have no roster place
    ]
    assert checked_orders(ctx, ("move",)) == []


def test_each_unit_fights_once_and_a_preferred_enemy_comes_first() -> None:
    state = _placed(sample_battle(), "b1", 12, 6, 180)  # touches r1's front
    state = _placed(state, "b2", 12, 2, 0)  # touches r1's rear
    assert [e.id for e in enemies_in_contact(state, state.unit("r1"))] == ["b1", "b2"]
    assert engaged(state, state.unit("b2")) and not engaged(state, state.unit("r2"))
    assert contact_pairs(state) == [("r1", "b1")]
    assert contact_pairs(state, prefer=lambda unit, enemy: enemy.id == "b2") == [("r1", "b2")]
    assert contact_pairs(state, busy={"b1"}) == [("r1", "b2")]  # b1 fights elsewhere
    assert contact_pairs(sample_battle()) == []


def test_units_and_leaders_are_found_by_id_or_name_among_some_sides() -> None:
    state = sample_battle()
    spearmen = find_unit(state, "  red   SPEARMEN ")
    assert spearmen is not None and spearmen.id == "r1"
    assert find_unit(state, "r1", sides=("blue",)) is None
    assert find_unit(state, "Earl Aelfric") is None  # a leader, not a unit
    earl = find_leader(state, "earl aelfric")
    assert earl is not None and earl.id == "red_lord"
    jarl = find_leader(state, "BLUE_LORD", sides=("blue",))
    assert jarl is not None and jarl.name == "Jarl Sigurd"
    assert find_leader(state, "Jarl Sigurd", sides=("red",)) is None


def test_a_target_must_be_an_enemy_on_the_table() -> None:
    state = sample_battle()
    archers = state.unit("r2")
    assert enemy_target(state, archers, Order("r2", "shoot", {"target": "b2"})) == state.unit("b2")
    friendly = enemy_target(state, archers, Order("r2", "shoot", {"target": "r1"}))
    assert friendly == "Red Spearmen is a friendly unit"
    assert enemy_target(state, archers, Order("r2", "shoot", {"target": "zz"})) == (
        "no unit 'zz' on the table"
    )
    aimed = Order("r2", "shoot", {"at_unit": "b3"})
    assert enemy_target(state, archers, aimed, param="at_unit") == state.unit("b3")


def test_the_battle_is_a_draw_once_the_turn_limit_is_passed(rules: Rules) -> None:
    state = sample_battle()
    last = replace(state, cursor=Cursor(6, "main", "move", ("red", "blue")))
    assert turn_limit_outcome(rules, last) is None
    beyond = replace(last, cursor=replace(last.cursor, turn=7))
    assert turn_limit_outcome(rules, beyond) == Outcome(
        None, "6 turns played with neither army broken"
    )
    shorter = replace(beyond, parameters={"max_turns": 8})
    assert turn_limit_outcome(rules, shorter) is None


def test_numbers_from_json_and_parameters() -> None:
    assert number_or(3, 1.0) == 3.0 and number_or(2.5, 1.0) == 2.5
    assert number_or(None, 1.0) == 1.0 and number_or("4", 1.0) == 1.0
    assert number_or(True, 1.0) == 1.0  # a flag is not a number
    assert param_number({"reach": 6}, "reach") == 6.0
    with pytest.raises(AssertionError):
        param_number({"reach": "far"}, "reach")


def test_distances_are_written_with_one_decimal_at_most() -> None:
    assert (g(6), g(2.25), g(0.04)) == ("6", "2.2", "0")


def test_the_nearest_enemy_is_measured_edge_to_edge() -> None:
    state = _placed(sample_battle(), "b3", 24, 9, 180)  # 3 inches beyond Red Archers' front
    archers = state.unit("r2")
    assert gap(archers, state.unit("b3")) == pytest.approx(3.0)
    assert nearest_enemy(state, archers) == state.unit("b3")
    assert nearest([state.unit("b1"), state.unit("b2")], archers) == state.unit("b2")
    assert nearest([], archers) is None
    assert (
        nearest_enemy(state.without_unit("b1").without_unit("b2").without_unit("b3"), archers)
        is None
    )


def test_zone_words_say_where_a_zone_is_in_the_measure_and_by_edge() -> None:
    state = sample_battle()
    assert zone_words(state, "red", ((0, 0), (48, 0), (48, 8), (0, 8))) == (
        "Red's deployment zone (y from 0 to 8 inch, the south edge)"
    )
    assert zone_words(state, "blue", ((0, 28), (48, 28), (48, 36), (0, 36))).endswith(
        "(y from 28 to 36 inch, the north edge)"
    )
    assert zone_words(state, "blue", ((38, 0), (48, 0), (48, 36), (38, 36))).endswith(
        "(x from 38 to 48 inch, the east edge)"
    )
    assert zone_words(state, "blue", ((3, 3), (12, 3), (12, 6), (3, 6))).endswith(
        "(x from 3 to 12, y from 3 to 6 inch)"
    )
