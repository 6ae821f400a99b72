"""Groups: who forms a group with whom (lines, columns; types that can group; one command;
touching), the group move order (rigid forward and wheel, the Group Move row, the slowest
member, a blocked member, the group's further-move DT), and the modifiers that read groups
(the DT's general with the group, fragmented frenzy, artillery against a column)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from rules_core import engine, planning
from rules_core.context import Suspended
from rules_core.dice import Modifier
from rules_core.events import OrderRejected, TestResolved, UnitMoved
from rules_core.geometry import Footprint
from rules_core.orders import Illegal, Order, Preview
from rules_core.rulesets.impetus import actions, discipline, groups, shooting
from rules_core.rulesets.impetus import orders as unit_orders
from rules_core.rulesets.impetus.status import CHARGED, DISORDERED, FORMED_GROUPS, GROUP_NO, MOVES
from rules_core.state import BattleState
from rules_core.steps import Cursor, Subject
from tests.rules_core.rulesets.impetus.combat_helpers import (
    PARAMS,
    RULES,
    add,
    at,
    context,
    detach,
    logged_tests,
    status,
    terrain,
)
from tests.rules_core.rulesets.impetus.helpers import SEED, stopped_at, unit_named

# romans1 Legio X (FP, Caesar), romans2 Legio IX (FP), romans3 Cretan Archers (T): Caesar's
# command; romans4 Gallic Horse (CM, Labienus), romans5 Numidian Horse (CL), romans6 Balearic
# Slingers (S): Labienus's command. Bases are 2H wide; foot 1H deep, horse 1.5H.


def _active(state: BattleState, command: str = "romans_caesar") -> BattleState:
    """The state in the movement step of ``command``'s activation."""
    cursor = Cursor(1, "main", "move", ("romans", "gauls"), subjects=(Subject(command, "romans"),))
    return replace(state, cursor=cursor)


def _members(state: BattleState) -> list[tuple[str, ...]]:
    return [g.members for g in groups.groups_of(state, PARAMS)]


def _group_move(actor: str, manoeuvre: str, distance: float, side: str | None = None) -> Order:
    params: dict[str, object] = {"manoeuvre": manoeuvre, "distance": distance}
    if side is not None:
        params["side"] = side
    return Order(actor, "group_move", params)  # type: ignore[arg-type]


def _reason(state: BattleState, order: Order) -> str:
    verdict = RULES.judge(state, order)
    assert isinstance(verdict, Illegal), verdict
    return verdict.reason


# -- formation ----------------------------------------------------------------------------------


def test_two_legions_side_by_side_form_a_line() -> None:
    state = at("move", romans1=(10, 5, 0), romans2=(12, 5, 0))
    (group,) = groups.groups_of(state, PARAMS)
    assert group.members == ("romans1", "romans2")
    assert (group.formation, group.label, group.command) == ("line", "G1", "romans_caesar")
    assert groups.describe(state, group) == "G1 line: Legio X, Legio IX"


def test_one_behind_the_other_is_a_column() -> None:
    state = at("move", romans1=(10, 5, 0), romans2=(10, 4, 0))
    (group,) = groups.groups_of(state, PARAMS)
    assert group.formation == "column"
    assert groups.in_column(state, state.unit("romans2"), PARAMS)


def test_units_not_touching_or_not_level_or_turned_form_no_group() -> None:
    assert _members(at("move", romans1=(10, 5, 0), romans2=(12.5, 5, 0))) == []  # a gap
    assert _members(at("move", romans1=(10, 5, 0), romans2=(12, 5.6, 0))) == []  # not level
    assert _members(at("move", romans1=(10, 5, 0), romans2=(12, 5, 90))) == []  # turned


def test_foot_of_different_types_and_skirmishers_do_not_group_but_mounted_types_do() -> None:
    # FP beside T: different foot types; S never groups
    assert _members(at("move", romans1=(10, 5, 0), romans3=(12, 5, 0))) == []
    assert _members(at("move", romans5=(10, 5, 0), romans6=(12, 5, 0))) == []
    # CM beside CL (one command): mounted with mounted
    assert _members(at("move", romans4=(10, 5, 0), romans5=(12, 5, 0))) == [("romans4", "romans5")]
    # "kind": any foot with any foot
    kind = {**PARAMS, "group_mix": "kind"}
    state = at("move", romans1=(10, 5, 0), romans3=(12, 5, 0))
    assert [g.members for g in groups.groups_of(state, kind)] == [("romans1", "romans3")]


def test_units_of_different_commands_do_not_group() -> None:
    state = at("move", romans1=(10, 5, 0))
    state = add(state, "legio_ii", "romans", "romans_labienus", (12, 5, 0), type="FP")
    assert _members(state) == []
    state = add(state, "legio_iii", "romans", "romans_caesar", (8, 5, 0), type="FP")
    assert _members(state) == [("romans1", "legio_iii")]


def test_a_block_of_lines_and_columns_is_one_group() -> None:
    state = at("move", romans1=(10, 5, 0), romans2=(12, 5, 0))
    state = add(state, "legio_iii", "romans", "romans_caesar", (10, 4, 0), type="FP")
    (group,) = groups.groups_of(state, PARAMS)
    assert group.formation == "block" and len(group.members) == 3


# -- the group move -------------------------------------------------------------------------


def test_a_group_moves_forward_as_one_body() -> None:
    state = _active(detach(at("move", romans1=(10, 5, 0), romans2=(12, 5, 0))))
    order = _group_move("romans2", "forward", 2.0)
    verdict = RULES.judge(state, order)
    assert isinstance(verdict, Preview)
    assert verdict.summary == "group G1 line: Legio X, Legio IX: forward 2H"
    ctx = context(state, orders=[order])
    actions.move(ctx)
    one, two = ctx.state.unit("romans1"), ctx.state.unit("romans2")
    assert (one.x, one.y, two.x, two.y) == pytest.approx((10, 7, 12, 7))
    assert MOVES.of(one) == MOVES.of(two) == 1
    moved = [e for e in ctx.events if isinstance(e, UnitMoved)]
    assert {e.unit for e in moved} == {"romans1", "romans2"}
    # members made the group's move: no moves of their own this activation
    own = Order("romans1", "move", {"manoeuvre": "forward", "distance": 1.0})
    assert "moved with its group" in _reason(ctx.state, own)


def _turned_clockwise(point: tuple[float, float], pivot: tuple[float, float],
                     angle: float) -> tuple[float, float]:  # fmt: skip
    dx, dy = point[0] - pivot[0], point[1] - pivot[1]
    c, s = math.cos(angle), math.sin(angle)
    return (pivot[0] + dx * c + dy * s, pivot[1] - dx * s + dy * c)


def test_a_group_wheels_on_the_front_corner_of_its_inner_end() -> None:
    state = _active(detach(at("move", romans1=(10, 5, 0), romans2=(12, 5, 0))))
    # the outer end of the 4H front travels 2H: half a radian
    ctx = context(state, orders=[_group_move("romans1", "wheel", 2.0, "right")])
    actions.move(ctx)
    one, two = ctx.state.unit("romans1"), ctx.state.unit("romans2")
    pivot = (13.0, 5.5)  # Legio IX's right front corner stays put
    assert Footprint.of(two).corners()[1] == pytest.approx(pivot)
    assert (two.x, two.y) == pytest.approx(_turned_clockwise((12, 5), pivot, 0.5))
    assert (one.x, one.y) == pytest.approx(_turned_clockwise((10, 5), pivot, 0.5))
    assert one.facing == pytest.approx(two.facing) == pytest.approx(math.degrees(0.5))
    outer = Footprint.of(one).corners()[0]  # Legio X's left front corner went round 2H of arc
    assert math.dist(outer, (9.0, 5.5)) == pytest.approx(2 * 4 * math.sin(0.25))
    assert groups.group_of(ctx.state, one, PARAMS) is not None  # still a line
    # a wheel the slowest member could not make
    assert "at most 2H" in _reason(state, _group_move("romans1", "wheel", 2.5, "left"))


def test_a_single_unit_wheels_on_its_inner_front_corner() -> None:
    state = _active(detach(at("move", romans1=(10, 5, 0))))
    order = Order("romans1", "move", {"manoeuvre": "wheel", "distance": 1.0, "side": "left"})
    ctx = context(state, orders=[order])
    actions.move(ctx)
    one = ctx.state.unit("romans1")
    assert Footprint.of(one).corners()[0] == pytest.approx((9.0, 5.5))  # its left front corner
    assert one.facing == pytest.approx(360 - math.degrees(0.5))


def test_sideways_is_not_a_group_move_for_foot_but_is_for_light_horse() -> None:
    foot = _active(detach(at("move", romans1=(10, 5, 0), romans2=(12, 5, 0))))
    why = _reason(foot, _group_move("romans1", "sideways", 1.0, "left"))
    assert why == "a sideways is not a group move for Legio X (FP) (only S, CL, CM)"
    assert groups.manoeuvres_for(foot, foot.unit("romans1"), PARAMS) == ["forward", "wheel"]
    horse = detach(at("move", romans5=(10, 5, 0)))
    horse = add(horse, "cl2", "romans", "romans_labienus", (12, 5, 0), type="CL")
    horse = _active(horse, "romans_labienus")
    assert isinstance(RULES.judge(horse, _group_move("cl2", "sideways", 2.0, "left")), Preview)
    assert groups.manoeuvres_for(horse, horse.unit("cl2"), PARAMS) == [
        "forward", "wheel", "sideways", "oblique", "backwards",
    ]  # fmt: skip
    assert "must be one of" in _reason(horse, _group_move("cl2", "about_face", 1.0))


def test_a_unit_alone_is_refused_a_group_move() -> None:
    state = _active(detach(at("move", romans1=(10, 5, 0), romans2=(13, 5, 0))))
    assert "not formed in a group" in _reason(state, _group_move("romans1", "forward", 1.0))


def test_the_slowest_member_limits_the_distance() -> None:
    state = detach(at("move", romans4=(10, 5, 0), romans5=(12, 5, 0)))  # CM 3H, CL 4H
    state = _active(state, "romans_labienus")
    assert isinstance(RULES.judge(state, _group_move("romans5", "forward", 3.0)), Preview)
    why = _reason(state, _group_move("romans5", "forward", 3.5))
    assert why == "the group's forward is at most 3H: Gallic Horse is its slowest (normal ground)"
    # ground slows one member: difficult ground ahead of the CL only
    rough = terrain(state, "wood", 11.2, 6, 14, 8)
    assert "at most 1H: Numidian Horse" in _reason(rough, _group_move("romans4", "forward", 2.0))


def test_a_member_that_cannot_go_stops_the_whole_group() -> None:
    state = detach(at("move", romans1=(10, 5, 0), romans2=(12, 5, 0), romans3=(12, 7.5, 0)))
    state = _active(state)
    why = _reason(state, _group_move("romans1", "forward", 2.0))
    assert why == "Legio IX cannot go: the move would end on Cretan Archers"
    ctx = context(state, orders=[_group_move("romans1", "forward", 2.0)])
    actions.move(ctx)
    assert ctx.state.unit("romans1").y == 5 and ctx.state.unit("romans2").y == 5
    assert any(isinstance(e, OrderRejected) for e in ctx.events)
    # a member in melee: the group does not go either
    locked = status(state, "romans2", melee_with=["gauls1"])
    assert "Legio IX of the group is in melee" in _reason(
        locked, _group_move("romans1", "wheel", 1.0, "left")
    )


def test_a_second_group_move_takes_one_test_with_the_worst_member() -> None:
    # Legio X is class A (+1): Legio IX, class B, takes the group's test
    state = _active(detach(at("move", romans1=(10, 5, 0), romans2=(12, 5, 0))))
    orders = [_group_move("romans1", "forward", 1.0), _group_move("romans1", "forward", 1.0)]
    ctx = context(state, faces=[6], orders=orders)  # the test fails
    actions.move(ctx)
    (test,) = [t for t in logged_tests(ctx.events) if "discipline" in t.test]
    assert test.subject == "romans2" and "second or further move" in test.test
    one, two = ctx.state.unit("romans1"), ctx.state.unit("romans2")
    assert DISORDERED.of(one) and DISORDERED.of(two)  # the group is disordered and stops
    assert one.y == two.y == 6
    # "ordered": the unit the order names takes it
    ctx = context(state, faces=[1], orders=orders, group_dt_unit="ordered")
    actions.move(ctx)
    (test,) = [t for t in logged_tests(ctx.events) if "discipline" in t.test]
    assert test.subject == "romans1"
    assert ctx.state.unit("romans2").y == 7


def test_a_disordered_member_stops_the_groups_further_moves() -> None:
    state = _active(detach(at("move", romans1=(10, 5, 0), romans2=(12, 5, 0))))
    state = status(state, "romans2", disordered=True, moves=1, last_manoeuvre="group_forward")
    state = status(state, "romans1", moves=1, last_manoeuvre="group_forward")
    why = _reason(state, _group_move("romans1", "forward", 1.0))
    assert why == "a forward may not be a further move for Legio IX (it is disordered)"


def test_a_planned_group_move_is_carried_out_in_the_commands_activation() -> None:
    played = stopped_at("move", "romans_caesar")
    legio_x, legio_ix = unit_named(played, "Legio X"), unit_named(played, "Legio IX")
    assert groups.group_of(played, legio_x, PARAMS) is not None
    orders = [_group_move(legio_x.id, "forward", 2.0), _group_move(legio_x.id, "forward", 2.0)]
    # the rough ground ahead disorders Legio IX on the first move: the group goes no further
    result = engine.run(RULES, SEED, played, orders)
    (refused,) = [e for e in result.events if isinstance(e, OrderRejected)]
    assert refused.reason == "a forward may not be a further move for Legio IX (it is disordered)"
    # on open ground both moves are made, the second after one test for the group
    state = replace(played, terrain=())
    result = engine.run(RULES, SEED, state, orders)
    events = result.events
    moved = [e for e in events if isinstance(e, UnitMoved)]
    assert {e.unit for e in moved} >= {legio_x.id, legio_ix.id}
    tests = [e for e in events if isinstance(e, TestResolved) and "further move" in e.test]
    assert [t.subject for t in tests] == [legio_ix.id]  # one test for the group, the worst
    after = {u.id: u for u in result.state.units}
    gone = after[legio_x.id].y - legio_x.y
    assert gone == pytest.approx(after[legio_ix.id].y - legio_ix.y)
    passed = tests[0].passed
    assert gone == pytest.approx(4.0 if passed else 2.0)


# -- modifiers that read groups ---------------------------------------------------------------


def _reasons(mods: list[Modifier]) -> dict[str, int]:
    return {m.reason: m.value for m in mods}


def test_a_general_with_one_member_counts_for_the_groups_tests() -> None:
    state = at("move", romans1=(10, 5, 0), romans2=(12, 5, 0))  # Caesar with Legio X
    _, mods = discipline.target_of(state, state.unit("romans2"), "second_move", PARAMS, moves=3)
    reasons = _reasons(mods)
    key = "Caesar: General attached to Unit/Group (with Legio X of its group)"
    assert key in reasons and reasons[key] > 0
    apart = at("move", romans1=(10, 5, 0), romans2=(13, 5, 0))
    _, mods = discipline.target_of(apart, apart.unit("romans2"), "second_move", PARAMS)
    assert not any("General attached" in r for r in _reasons(mods))


def test_a_fragmented_group_charging_tests_frenzy_at_minus_one() -> None:
    # the warbands (impetuous FL) in a line; only one has an enemy within its charge reach
    state = detach(at("charge", gauls1=(10, 10, 180), gauls2=(12, 9.5, 180)))
    state = add(state, "hastati", "romans", "romans_caesar", (8, 6.5, 0), type="FP")
    cursor = Cursor(1, "main", "charge", ("gauls", "romans"),
                    subjects=(Subject("gauls_vercingetorix", "gauls"),))  # fmt: skip
    state = replace(state, cursor=cursor)
    assert _members(state) == [("gauls1", "gauls2")]
    ctx = context(state, faces=[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    actions.charge(ctx)
    frenzy = [t for t in logged_tests(ctx.events) if "frenzy" in t.test]
    assert frenzy and frenzy[0].subject == "gauls1"
    assert "-1 Frenzy: Group charging is Fragmented (Carnutes Warband cannot reach)" in (
        frenzy[0].row
    )


def test_artillery_shoots_at_a_group_in_column_with_plus_two() -> None:
    # Carnutes Warband (not large) in front, Arverni Warband behind
    state = detach(at("shoot", gauls2=(10, 12, 180), gauls1=(10, 13.5, 180)))
    state = add(state, "gun", "romans", "romans_caesar", (10, 5, 0), type="ART",
                missile="artillery", missile_class="B")  # fmt: skip
    (group,) = groups.groups_of(state, PARAMS)
    assert group.formation == "column"
    _, mods, _, _ = shooting.dice_modifiers(state, state.unit("gun"), state.unit("gauls2"))
    plus = [m for m in mods if "Groups in column" in m.reason]
    assert [m.value for m in plus] == [2]
    assert "(Carnutes Warband is in G1 column: Arverni Warband, Carnutes Warband)" in (
        plus[0].reason
    )
    side_by_side = detach(at("shoot", gauls2=(10, 12, 180), gauls3=(12, 12, 180)))
    side_by_side = add(side_by_side, "gun", "romans", "romans_caesar", (10, 5, 0), type="ART",
                       missile="artillery", missile_class="B")  # fmt: skip
    _, mods, _, _ = shooting.dice_modifiers(
        side_by_side, side_by_side.unit("gun"), side_by_side.unit("gauls2")
    )
    assert not any("Groups in column" in m.reason for m in mods)


# -- shown ------------------------------------------------------------------------------------


def test_groups_are_marked_for_the_map_and_the_battle_status() -> None:
    state = stopped_at("move", "romans_caesar")
    legio_x = unit_named(state, "Legio X")
    assert GROUP_NO.of(legio_x) == 1
    caesar = state.group("romans_caesar")
    assert FORMED_GROUPS.of(caesar) == ["G1 line: Legio X, Legio IX"]
    assert GROUP_NO.of(unit_named(state, "Cretan Archers")) == 0
    lines = RULES.statuses.describe(FORMED_GROUPS.scope, caesar.status, {})
    assert "groups: G1 line: Legio X, Legio IX" in lines


def test_a_group_move_planned_ahead_is_judged_now_and_carried_out_at_its_step() -> None:
    now = stopped_at("move", "romans_caesar")  # turn 1: Caesar's command moves first
    # Labienus's horse formed in a line (the slingers out of the way): plan its move now
    horse, numidians = unit_named(now, "Gallic Horse"), unit_named(now, "Numidian Horse")
    earlier = now.without_unit(unit_named(now, "Balearic Slingers").id)
    earlier = earlier.with_unit(replace(numidians, x=horse.x - 2, y=horse.y))
    (later,) = [
        t
        for t in planning.side_steps(RULES, earlier, "romans")
        if t.step == "move" and t.subject == "romans_labienus"
    ]
    ride = _group_move(numidians.id, "forward", 2.0)
    assert isinstance(planning.preview(RULES, earlier, later, ride), Preview)
    too_far = _group_move(numidians.id, "forward", 2.5)  # the CM in broken ground: 2H
    verdict = planning.preview(RULES, earlier, later, too_far)
    assert isinstance(verdict, Illegal)
    assert verdict.reason.endswith("at most 2H: Gallic Horse is its slowest (broken ground)")
    # a planned group move for Caesar's step, carried out when it comes
    (here,) = [
        t
        for t in planning.side_steps(RULES, now, "romans")
        if t.step == "move" and t.subject == "romans_caesar"
    ]
    legio_x = unit_named(now, "Legio X")
    order = _group_move(legio_x.id, "forward", 1.0)
    carried = planning.carry_out(RULES, now, [planning.Planned(here.key, "romans", order)])
    assert carried.orders == (order,) and not carried.fallbacks
    done = planning.run_planned(RULES, SEED, now, carried)
    moved = {e.unit for e in done.events if isinstance(e, UnitMoved)}
    assert {legio_x.id, unit_named(now, "Legio IX").id} <= moved


def test_the_enemy_may_react_to_a_group_that_moved() -> None:
    state = detach(at("move", romans1=(10, 5, 0), romans2=(12, 5, 0), gauls3=(11, 11, 180)))
    ctx = context(_active(state), orders=[_group_move("romans1", "forward", 2.0)])
    with pytest.raises(Suspended) as stop:
        actions.move(ctx)
    asked = stop.value.decision
    assert asked.topic == "opportunity" and asked.who == "gauls"
    assert ctx.state.unit("romans1").y == ctx.state.unit("romans2").y == 7  # both moved first


def test_the_options_of_a_group_move_are_those_the_row_allows_its_group() -> None:
    state = _active(detach(at("move", romans1=(10, 5, 0), romans2=(12, 5, 0), romans3=(16, 5, 0))))
    assert unit_orders.group_move_options(state, "romans1") == ["forward", "wheel"]
    assert unit_orders.group_move_options(state, "romans3") == []  # alone
    assert unit_orders.group_move_options(state, None, "romans") == ["forward", "wheel"]
    assert unit_orders.group_move_options(state, None, "gauls") == []


def test_backwards_is_a_group_move_for_light_horse_only_and_ground_disorders_each_member() -> None:
    horse = detach(at("move", romans4=(10, 5, 0), romans5=(12, 5, 0)))  # CM beside CL
    horse = _active(horse, "romans_labienus")
    why = _reason(horse, _group_move("romans5", "backwards", 1.0))
    assert why == "a backwards is not a group move for Gallic Horse (CM) (only S, CL)"
    light = detach(at("move", romans5=(10, 8, 0)))
    light = add(light, "cl2", "romans", "romans_labienus", (12, 8, 0), type="CL")
    light = terrain(_active(light, "romans_labienus"), "rough", 11.2, 4, 14, 7)
    ctx = context(light, orders=[_group_move("cl2", "backwards", 2.0)])
    actions.move(ctx)
    back, other = ctx.state.unit("romans5"), ctx.state.unit("cl2")
    assert back.y == other.y == 6 and back.facing == other.facing == 0  # still facing ahead
    # backwards does not disorder mounted; the rough ground behind one of them does (+D)
    assert not DISORDERED.of(back) and DISORDERED.of(other)


# -- group charges --------------------------------------------------------------------------------


def _charging(state: BattleState) -> BattleState:
    cursor = Cursor(1, "main", "charge", ("romans", "gauls"),
                    subjects=(Subject("romans_caesar", "romans"),))  # fmt: skip
    return replace(state, cursor=cursor)


def test_a_group_charges_as_one_each_member_at_its_enemy() -> None:
    # the legions in a line; two warbands ahead, each in front of one legion
    state = _charging(detach(at("charge", romans1=(10, 5, 0), romans2=(12, 5, 0),
                                gauls1=(10, 7.5, 180), gauls2=(12, 7.5, 180))))  # fmt: skip
    order = Order("romans1", "group_charge", {"target": "gauls1"})
    pairs = unit_orders.group_charge_targets(state, state.unit("romans1"),
                                             state.unit("gauls1"), PARAMS)  # fmt: skip
    assert [(m.id, t.id if t else None) for m, t in pairs] == [
        ("romans1", "gauls1"),
        ("romans2", "gauls2"),  # Legio IX the warband in front of it
    ]
    verdict = RULES.judge(state, order)
    assert isinstance(verdict, Preview), verdict
    assert "group G1 line: Legio X, Legio IX charges:" in verdict.summary
    ctx = context(state, faces=[3] * 60, orders=[order])
    actions.charge(ctx)
    moved = {e.unit for e in ctx.events if isinstance(e, UnitMoved)}
    assert {"romans1", "romans2"} <= moved
    assert CHARGED.of(ctx.state.unit("romans1")) and CHARGED.of(ctx.state.unit("romans2"))


def test_a_member_that_can_reach_no_enemy_stays_and_the_charge_is_fragmented() -> None:
    # one warband ahead of Legio X only, far beyond Legio IX's 45 degrees ahead
    state = _charging(detach(at("charge", romans1=(10, 5, 0), romans2=(12, 5, 0),
                                gauls1=(9, 7.5, 180))))  # fmt: skip
    pairs = unit_orders.group_charge_targets(state, state.unit("romans1"),
                                             state.unit("gauls1"), PARAMS)  # fmt: skip
    assert [(m.id, t.id if t else None) for m, t in pairs] == [
        ("romans1", "gauls1"),
        ("romans2", None),
    ]
    verdict = RULES.judge(state, Order("romans1", "group_charge", {"target": "gauls1"}))
    assert isinstance(verdict, Preview) and "Legio IX cannot charge" in verdict.summary
    ctx = context(state, faces=[3] * 60,
                  orders=[Order("romans1", "group_charge", {"target": "gauls1"})])  # fmt: skip
    actions.charge(ctx)
    refused = [e for e in ctx.events if isinstance(e, OrderRejected)]
    assert [e.reason for e in refused] == [
        "Legio IX can charge no enemy: the group's charge is fragmented"
    ]
    assert CHARGED.of(ctx.state.unit("romans1")) and not CHARGED.of(ctx.state.unit("romans2"))


def test_a_group_charge_is_refused_to_a_unit_alone() -> None:
    state = _charging(detach(at("charge", romans1=(10, 5, 0), gauls1=(10, 7.5, 180))))
    reason = _reason(state, Order("romans1", "group_charge", {"target": "gauls1"}))
    assert "is not formed in a group" in reason
