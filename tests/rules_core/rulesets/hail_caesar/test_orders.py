"""Hail Caesar orders: previews and refusals with the numbers behind them; rosters."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core import engine
from rules_core.events import OrderRejected
from rules_core.orders import Illegal, Order, Preview
from rules_core.rulesets.hail_caesar import RULESET, measure
from rules_core.rulesets.hail_caesar.profiles import SCHEMA, load_army
from rules_core.rulesets.hail_caesar.rules import HailCaesarRules
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.state import BattleState
from rules_core.steps import Cursor, Subject

RULES = HailCaesarRules()


def at(
    step: str, division: str = "", side: str = "rom", **moves: tuple[float, float, float]
) -> BattleState:
    """The sample battle at a step of a side's player turn, some units moved (x, y, facing)."""
    subjects = (Subject(division, side),) if division else ()
    turn = 0 if side == "rom" else 1
    state = replace(sample_battle(), cursor=Cursor(1, "main", step, ("rom", "gau"), turn, subjects))
    for key, (x, y, facing) in moves.items():
        state = state.with_unit(replace(state.unit(key), x=x, y=y, facing=facing))
    return state


def judge(state: BattleState, actor: str, kind: str, **params: object) -> Preview | Illegal:
    return RULES.judge(state, Order(actor, kind, params))  # type: ignore[arg-type]


def test_an_ordered_move_needs_an_order_test() -> None:
    clear = at("orders", "rom_legio", r4=(8, 14, 0))  # the archers out of the way
    found = judge(clear, "r1", "move", to=[20, 16])
    assert isinstance(found, Preview)
    assert (
        found.summary
        == 'moves 8" to (20, 16): needs 2 moves, order test by Legate Quintus (Leadership 8)'
    )
    far = judge(clear, "r1", "move", to=[20, 27])
    assert far == Illegal(far.order, '19" needs 4 moves; it may make at most 3 moves of 6"')


def test_units_are_ordered_in_their_own_division_turn() -> None:
    found = judge(at("orders", "rom_equites"), "r1", "move", to=[20, 12])
    assert found == Illegal(
        found.order, "First Cohort belongs to another division: order it in that division's turn"
    )


def test_the_proximity_rule_supersedes_orders() -> None:
    # Second Cohort 10" from the Arverni Warband: it may only use its initiative, one move.
    state = at("orders", "rom_legio", r1=(20, 27, 0))
    found = judge(state, "r1", "move", to=[20, 31])
    assert isinstance(found, Preview) and found.summary.endswith(
        "on its initiative (no order test)"
    )
    refused = judge(state, "r1", "move", to=[20, 31], option="order")
    assert refused == Illegal(
        refused.order,
        "Slingers is within proximity, so First Cohort may only use its initiative",
    )
    too_far = judge(state, "r1", "move", to=[14, 20])
    assert isinstance(too_far, Illegal) and "at most 1 move" in too_far.reason


def test_open_order_units_may_choose_initiative_when_they_see_an_enemy() -> None:
    # Cretan Archers (open order) 8" from the Slingers: beyond 6", so orders still allowed.
    state = at("orders", "rom_legio", r4=(24, 25, 0))
    assert isinstance(judge(state, "r4", "move", to=[24, 21], option="order"), Preview)
    assert isinstance(judge(state, "r4", "move", to=[24, 21], option="initiative"), Preview)
    behind = at("orders", "rom_legio")
    refused = judge(behind, "r4", "move", to=[24, 18], option="initiative")
    assert refused == Illegal(
        refused.order, "Cretan Archers is not close enough to the enemy to use its initiative"
    )


def test_a_charge_names_the_edge_struck_and_the_moves_needed() -> None:
    state = at("orders", "rom_equites", r5=(40, 29, 0))
    found = judge(state, "r5", "charge", target="g4")
    assert isinstance(found, Preview)
    assert found.summary == (
        'charges the front of Noble Horse, 8" away: needs 1 move on its initiative (no order test)'
    )
    far = judge(at("orders", "rom_equites", r5=(40, 27, 0)), "r5", "charge", target="g4")
    assert far == Illegal(far.order, 'Noble Horse is 10" away: needs 2 moves, too many')


def test_shooting_needs_range_the_front_and_the_closest_target() -> None:
    state = at("shooting", r4=(24, 20, 0))
    found = judge(state, "r4", "shoot", target="g3")
    assert found == Preview(found.order, 'shoots at Slingers, 12" away: long range')
    beyond = at("shooting", r4=(24, 13, 0))
    refused = judge(beyond, "r4", "shoot", target="g3")
    assert refused == Illegal(refused.order, 'Slingers is 19" away, beyond 18" range')
    closer = judge(state, "r4", "shoot", target="g1")
    assert closer == Illegal(
        closer.order, "Slingers is closer: a unit shoots at the closest enemy it sees"
    )
    no_bows = judge(state, "r1", "shoot", target="g3")
    assert no_bows == Illegal(no_bows.order, "First Cohort has no ranged attack")


def test_blocked_sight_is_left_to_the_gm() -> None:
    # The Third Cohort stands between the archers and the slingers.
    state = at("shooting", r4=(24, 20, 0), r3=(24, 26, 0))
    found = judge(state, "r4", "shoot", target="g3")
    assert isinstance(found, Preview)
    assert found.notes == ("no line of sight by the geometry: the GM will rule",)


def test_general_orders_and_joining() -> None:
    state = at("orders", "rom_legio")
    units = judge(state, "rom_legate", "command", option="division")
    assert isinstance(units, Preview) and "one test for all" in units.summary
    follow = judge(state, "rom_legate", "command", option="follow_me", target="r1")
    assert isinstance(follow, Preview) and "Follow me!" in follow.summary
    far = judge(state, "rom_legate", "command", option="follow_me", target="r5")
    assert isinstance(far, Illegal)
    rally = judge(state, "rom_legate", "command", option="rally", target="r1")
    assert rally == Illegal(rally.order, "First Cohort has not received 2 hits")
    courage = judge(state, "rom_legate", "command", option="courage", target="r2")
    assert courage == Illegal(courage.order, "Second Cohort's division is not broken")
    other = judge(at("orders", "rom_equites"), "rom_legate", "command")
    assert other == Illegal(other.order, "Legate Quintus does not command this division")


def test_only_the_army_commander_orders_a_general_advance() -> None:
    state = at("army")
    assert isinstance(judge(state, "rom_legate", "general_advance"), Preview)
    refused = judge(state, "rom_praefect", "general_advance")
    assert refused == Illegal(refused.order, "only the army commander may order a General Advance")


def test_retirement_only_for_a_broken_division() -> None:
    state = at("orders", "rom_legio")
    refused = judge(state, "r1", "retire", to=[20, 4])
    assert refused == Illegal(refused.order, "First Cohort's division is not broken")
    broken = state.with_side(replace(state.side("rom"), status={"broken_divisions": ["rom_legio"]}))
    assert judge(broken, "r1", "retire", to=[16, 4]) == Preview(
        Order("r1", "retire", {"to": [16, 4]}), 'retires 5.7" to (16, 4), no order test'
    )
    nearer = judge(broken, "r1", "retire", to=[20, 13])
    assert nearer == Illegal(nearer.order, "a retirement may not go nearer to Slingers")


def test_the_sample_armies_fit_the_roster_schema_and_load_through_the_hook() -> None:
    for name in ("romans", "gauls"):
        army = load_army(name)
        assert SCHEMA.validate(army) == []
        entry = army["units"][0]
        unit = RULES.unit_from_roster(entry, "u1", "a", "a_main")
        assert unit.get("stamina") and unit.group == f"a_{entry['division']}"
    warband = RULES.unit_from_roster(load_army("gauls")["units"][0], "u1", "a", "a_main")
    assert warband.get("clash") == 7 and warband.get("size") == "large"
    assert SCHEMA.validate({"name": "x", "units": [{"name": "y", "size": "huge"}]}) == [
        "units[0].size: must be one of large, standard, small, tiny"
    ]
    assert RULESET.roster_schema is SCHEMA


@pytest.mark.parametrize("side", ["rom", "gau"])
def test_the_battle_waits_for_the_active_side_only(side: str) -> None:
    state = engine.begin(RULES, sample_battle())
    assert engine.waiting(RULES, state).sides == ("rom", "gau")
    played = engine.run(RULES, b"s" * 32, state, []).state
    assert engine.waiting(RULES, played).sides == ("rom",)
    assert side in ("rom", "gau")


def test_a_placement_outside_the_zone_names_the_side_and_where_its_zone_is() -> None:
    deploying = replace(sample_battle(), cursor=Cursor(0, "setup", "deploy", ("rom", "gau")))
    found = judge(deploying, "r1", "place", to=[20, 30])
    assert isinstance(found, Illegal)
    assert found.reason == (
        "(20, 30) is outside Legio IX's deployment zone (y from 0 to 16 inch, the south edge): "
        "its whole base reaches y=31, past the zone's edge at y=16; move it 15 inch south, "
        "to (20, 15)"
    )


def broken(state: BattleState, *divisions: str) -> BattleState:
    """The state with these Roman divisions marked broken."""
    marked = {"broken_divisions": list(divisions)}
    return state.with_side(replace(state.side("rom"), status=marked))


def test_an_ordered_move_in_a_broken_division_is_refused_unless_courage_can_reach_it() -> None:
    # The Equites' general is no army commander: no Where Is Your Courage? can move them.
    state = broken(at("orders", "rom_equites"), "rom_equites")
    unit = state.unit("r5")
    to = [unit.x, unit.y + measure.rate(unit)]
    why = (
        f"{unit.name}'s division is broken: it may only retire (Where Is Your Courage? is the "
        "army commander's, and he does not lead this division)"
    )
    for kind, params in (("move", {"to": to}), ("form", {"option": "column"})):
        refused = judge(state, "r5", kind, **params)
        assert refused == Illegal(refused.order, why)
    # The Legio's general is the army commander: the order stands, with the warning.
    legio = broken(at("orders", "rom_legio", r4=(8, 14, 0)), "rom_legio")
    found = judge(legio, "r1", "move", to=[20, 16])
    assert isinstance(found, Preview)
    assert found.notes == ("its division is broken: it moves only under Where Is Your Courage",)


def test_an_ordered_move_no_courage_carried_is_rejected_in_the_result() -> None:
    state = broken(at("orders", "rom_legio", r4=(8, 14, 0)), "rom_legio")
    order = Order("r1", "move", {"to": [20, 16]})
    result = engine.resolve(RULES, b"c" * 32, state, [order])
    rejected = [e for e in result.events if isinstance(e, OrderRejected)]
    why = "First Cohort's division is broken and no Where Is Your Courage? gave it moves"
    assert rejected == [OrderRejected("r1", "move", why)]
    assert result.state.unit("r1") == state.unit("r1")


def test_a_second_order_to_a_unit_that_does_not_combine_is_rejected() -> None:
    state = at("orders", "rom_legio", r4=(8, 14, 0))
    orders = [Order("r1", "move", {"to": [20, 16]}), Order("r1", "hold")]
    result = engine.resolve(RULES, b"c" * 32, state, orders)
    rejected = [e for e in result.events if isinstance(e, OrderRejected)]
    move, hold = RULES.order_kind("move").title, RULES.order_kind("hold").title
    why = f"it already has a {move} order this step; {hold} does not combine with it"
    assert rejected == [OrderRejected("r1", "hold", why)]
