"""The heroic-age rules at work: each test builds the state a rule needs and deals the dice."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core.context import Suspended
from rules_core.decisions import Answer
from rules_core.dice import Modifier
from rules_core.events import TestResolved
from rules_core.orders import Illegal, Order, Preview
from rules_core.rulesets.heroic_age import (
    after,
    charges,
    combat,
    ending,
    initiative,
    missiles,
    movement,
    tables,
)
from rules_core.rulesets.heroic_age import units as u
from rules_core.rulesets.heroic_age.sample import sample_battle
from rules_core.rulesets.heroic_age.status import AGGRESSION, CASUALTIES, DPS, UNFORMED
from rules_core.steps import Cursor
from rules_core.tables import GridTable
from tests.rules_core.rulesets.heroic_age.helpers import RULES, at, context, status


# -- initiative ---------------------------------------------------------------------------------
def test_initiative_gives_the_cinc_with_more_lps_plus_one_and_asks_the_winner() -> None:
    state = at("gods")
    ctx = context(state, [3, 3])  # Alfred has 6 LPs to Guthrum's 5: 3+1 beats 3
    with pytest.raises(Suspended) as stopped:
        initiative.resolve(ctx)
    assert stopped.value.decision.who == "saxons"
    ctx = context(state, [3, 3], answers=[Answer("initiative", "second", "saxons")])
    initiative.resolve(ctx)
    assert ctx.state.cursor.side_order == ("danes", "saxons")


def test_an_initiative_tie_is_rerolled_by_default_or_keeps_the_order() -> None:
    state = at("gods")
    alfred = next(ld for ld in state.leaders if ld.id == "saxons_alfred")
    state = state.with_leader(replace(alfred, points=5))  # no bonus
    ctx = context(state, [2, 2, 1, 4], answers=[Answer("initiative", "first", "danes")])
    initiative.resolve(ctx)
    assert ctx.state.cursor.side_order == ("danes", "saxons")
    kept = replace(state, parameters={**state.parameters, "initiative_ties": "keep_order"})
    ctx = context(kept, [2, 2])
    initiative.resolve(ctx)
    assert ctx.state.cursor.side_order == ("saxons", "danes")


# -- DPs, the 4-DP rule, aggression and casualties ---------------------------------------------
def test_the_4_dp_rule_turns_combat_dps_into_levels_but_not_fatigue() -> None:
    state = status(at("combat", saxons2=(10, 10, 0)), "saxons2", dps=3, aggression="present")
    ctx = context(state)
    u.add_dps(ctx, "saxons2", 2, "combat", "combat")
    unit = ctx.state.unit("saxons2")
    assert DPS.of(unit) == 4 and AGGRESSION.of(unit) == "shaken"
    u.add_dps(ctx, "saxons2", 1, "combat", "combat")  # below Shaken: a stand instead
    assert CASUALTIES.of(ctx.state.unit("saxons2")) == 1
    u.add_dps(ctx, "saxons2", 1, "tired", "fatigue")
    assert DPS.of(ctx.state.unit("saxons2")) == 5


def test_a_unit_with_no_stands_left_is_destroyed_and_costs_friends_nearby_a_level() -> None:
    state = at("combat", saxons3=(10, 10, 0), saxons4=(14, 10, 0))  # A grade lost beside C
    state = status(state, "saxons3", casualties=3)
    ctx = context(state)
    u.casualties(ctx, "saxons3", 1, "hacked")
    assert not u.alive(ctx.state, "saxons3")
    assert AGGRESSION.of(ctx.state.unit("saxons4")) == "shaken"  # present -1


def test_risk_to_leader_severe_wound_then_killed_at_zero_lps() -> None:
    state = at("combat", danes1=(10, 10, 0))
    ctx = context(state, [1, 2])  # hit, severe: -2 LPs
    u.risk_to_leaders(ctx, ctx.state.unit("danes1"), "combat")
    ubba = ctx.state.leader("danes_ubba")
    assert ubba.points == 2
    ctx = context(ctx.state, [1, 3])
    u.risk_to_leaders(ctx, ctx.state.unit("danes1"), "combat")
    assert not any(ld.id == "danes_ubba" for ld in ctx.state.leaders)
    assert AGGRESSION.of(ctx.state.unit("danes1")) == "ready for battle"  # blood lust -1


def test_a_killed_cinc_with_no_leader_left_loses_the_battle() -> None:
    state = replace(sample_battle(), cursor=Cursor(1, "main", "combat", ("saxons", "danes")))
    ctx = context(state)
    for leader in [ld for ld in ctx.state.leaders if ld.side == "danes"]:
        u.kill_leader(ctx, leader.id, "test")
    assert ending.army_lost(ctx.state, "danes", ctx.params)
    assert not ending.army_lost(ctx.state, "saxons", ctx.params)


def test_an_army_all_shaken_or_broken_loses() -> None:
    state = sample_battle()
    for unit in state.units_of("saxons"):
        state = status(state, unit.id, aggression="shaken")
    assert RULES.army_broken(state, "saxons") and not RULES.army_broken(state, "danes")


# -- movement -----------------------------------------------------------------------------------
def test_control_test_modifiers_and_a_shaken_halt_retires() -> None:
    state = at("movement", danes1=(10, 10, 0))
    unit = state.unit("danes1")  # A grade, Blood Lust: +2
    mods = movement.control_modifiers(unit, -1)
    assert [m.value for m in mods] == [2, -1]
    shaken = status(at("movement", saxons5=(20, 10, 0)), "saxons5", aggression="shaken")
    ctx = context(shaken, [2, 3, 3])  # AvD 2 -1 Shaken: retire
    movement.control_test(ctx, ctx.state.unit("saxons5"), None)
    assert ctx.state.unit("saxons5").status.get("retiring") is True


def test_a_move_goes_the_full_distance_but_stops_2_inches_from_an_enemy_to_its_front() -> None:
    state = at("movement", saxons2=(10, 5, 0), danes3=(10, 15, 180))
    order = Order("saxons2", "move", {"to": [10, 20], "extra_d6": "yes"})
    ctx = context(state, [5, 5], [order])  # 10" rolled
    movement.resolve(ctx)
    gap = u.gap(ctx.state, ctx.state.unit("saxons2"), ctx.state.unit("danes3"))
    assert 1.99 <= gap <= 2.3


def test_stopping_short_only_where_declared() -> None:
    state = at("movement", saxons2=(10, 5, 0))
    short = Order("saxons2", "move", {"to": [10, 7], "stop_short": "yes"})
    ctx = context(state, [4], [short])
    movement.resolve(ctx)
    assert ctx.state.unit("saxons2").y == pytest.approx(7)
    full = Order("saxons2", "move", {"to": [10, 7]})
    ctx = context(state, [4], [full])
    movement.resolve(ctx)
    assert ctx.state.unit("saxons2").y == pytest.approx(9)


def test_units_near_their_leader_moving_together_share_dice() -> None:
    state = at("movement", saxons3=(10, 5, 0), saxons4=(14, 5, 0))  # Alfred with saxons3
    orders = [Order("saxons3", "move", {"to": [10, 9]}), Order("saxons4", "move", {"to": [14, 9]})]
    ctx = context(state, [3, 5], orders)
    movement.resolve(ctx)
    assert ctx.state.unit("saxons3").y == ctx.state.unit("saxons4").y == pytest.approx(8)


def test_fatigue_on_5_or_6_and_on_4_in_the_rain() -> None:
    state = at("movement", saxons2=(10, 5, 0))
    ctx = context(state, [4], [Order("saxons2", "move", {"to": [10, 9]})])
    movement.resolve(ctx)
    assert DPS.of(ctx.state.unit("saxons2")) == 0
    wet = replace(state, status={**state.status, "rain_until_turn": 2})
    ctx = context(wet, [4], [Order("saxons2", "move", {"to": [10, 9]})])
    movement.resolve(ctx)
    assert DPS.of(ctx.state.unit("saxons2")) == 1


def test_side_step_is_for_a_and_b_grades_only() -> None:
    state = at("movement", saxons1=(10, 5, 0), saxons2=(20, 5, 0))
    step = {"option": "side_step", "to": [11, 5]}
    assert isinstance(RULES.judge(state, Order("saxons1", "manoeuvre", step)), Illegal)
    assert isinstance(RULES.judge(state, Order("saxons2", "manoeuvre", step)), Preview)


@pytest.mark.parametrize(
    ("unit", "enemy_at", "rests"),
    [("saxons2", 13.0, True), ("saxons1", 8.5, False), ("saxons1", 14.0, True),
     ("saxons5", 12.0, False), ("saxons5", 20.0, True)],
)  # fmt: skip
def test_rest_and_reform_by_grade(unit: str, enemy_at: float, rests: bool) -> None:
    state = status(
        at("movement", **{unit: (10.0, 5.0, 0.0)}, danes2=(10.0, enemy_at, 180.0)), unit, dps=2
    )
    ctx = context(state)
    movement.resolve(ctx)
    assert (DPS.of(ctx.state.unit(unit)) == 1) is rests


# -- missiles -----------------------------------------------------------------------------------
def test_missile_dice_halved_round_up_against_a_retinue_and_doubled_for_the_skilled_archer() -> (
    None
):
    state = at("missiles", saxons5=(10, 5, 0), danes3=(10, 7.6, 180))
    shooter, target = state.unit("saxons5"), state.unit("danes3")
    base, mods = missiles.dice_for(state, shooter, target, ())
    assert base == 8 and sum(m.value for m in mods) == -4
    skilled = status(state, "saxons5", skilled_archer=True)
    base, mods = missiles.dice_for(skilled, skilled.unit("saxons5"), target, ())
    assert base + sum(m.value for m in mods) == 5  # (8 + 2) halved


def test_each_missile_hit_drops_a_level_above_present_then_gives_dps() -> None:
    state = at("missiles", saxons5=(10, 5, 0), danes4=(10, 7.6, 180))
    state = status(state, "danes4", aggression="ready for battle")
    ctx = context(state, [6, 6, 1, 1, 1, 1, 1, 1, 4])
    missiles.resolve(ctx)
    target = ctx.state.unit("danes4")
    assert AGGRESSION.of(target) == "present" and DPS.of(target) == 1


# -- charges ------------------------------------------------------------------------------------
def tagged(table: GridTable, column: str) -> tuple[GridTable, dict[str, int]]:
    index = table.columns.index(column)
    tags: dict[str, int] = {}
    rows = {}
    for n, (key, cells) in enumerate(table.rows.items()):
        tags[key] = 100 + n
        rows[key] = (*cells[:index], tags[key], *cells[index + 1 :])
    return GridTable(table.name, table.columns, rows), tags


def test_every_charge_modifier_is_reached_and_read_from_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    copy, tags = tagged(tables.CHARGE_MODIFIERS, "modifier")
    monkeypatch.setattr(tables, "CHARGE_MODIFIERS", copy)
    # Alfred (battle standard) with the A-grade Hearthguard, a Ready-for-Battle retinue
    state = at("charges", saxons3=(10, 5, 0), saxons4=(14, 5, 0), saxons5=(20, 5, 0))
    found = {m.value for m in charges.modifiers(state, state.unit("saxons3"), {"saxons4"})}
    assert {tags[k] for k in ("retinue_with_leader", "ready_for_battle", "friend_charging",
                              "a_grade", "battle_standard")} <= found  # fmt: skip
    tired = status(state, "saxons5", unformed=True)
    found = {m.value for m in charges.modifiers(tired, tired.unit("saxons5"), set())}
    assert {tags["unformed_or_dps"], tags["d_grade"]} <= found


def test_charges_are_tested_retinues_first_then_bands_right_to_left() -> None:
    state = at("charges", saxons4=(20, 5, 0), saxons5=(28, 5, 0), saxons3=(14, 5, 0))
    order = charges.test_order(state, {"saxons4": "x", "saxons5": "x", "saxons3": "x"})
    assert order == ["saxons3", "saxons5", "saxons4"]  # facing north, right is east


def test_a_failed_charge_stays_and_takes_a_dp_and_blood_lust_charges_without_a_test() -> None:
    state = at(
        "charges",
        saxons1=(10, 5, 0),
        danes2=(10, 8.5, 180),
        danes1=(20, 8.5, 180),
        saxons3=(20, 5, 0),
    )
    ctx = context(state, [1], [Order("saxons1", "charge", {"target": "danes2"})])
    charges.resolve(ctx, 2.0)
    assert DPS.of(ctx.state.unit("saxons1")) == 1 and ctx.state.unit("saxons1").y == 5
    assert u.engaged_with(ctx.state, ctx.state.unit("danes1"))  # Ubba's Hird in Blood Lust
    assert not any(isinstance(e, TestResolved) and "Ubba" in e.test for e in ctx.events)


# -- combat -------------------------------------------------------------------------------------
def test_combat_dice_modifiers_charge_only_ones_marked() -> None:
    state = status(
        at("combat", danes1=(10, 10, 180), saxons2=(10, 7, 0)), "danes1", charged=True, dps=2
    )
    unit = state.unit("danes1")
    charge = {m.reason: m.value for m in combat.dice_modifiers(state, unit, True)}
    plain = {m.reason: m.value for m in combat.dice_modifiers(state, unit, False)}
    assert charge["+2 Blood Lust"] == 2 and charge["+1 Charged this turn*"] == 1
    assert charge["-1 Each DP on every engaged unit* (x2)"] == -2
    assert charge["+1 Heroic champion or battle standard attached"] == 1  # Ubba, heroic champion
    assert (
        "+1 Charged this turn*" not in plain
        and "-1 Each DP on every engaged unit* (x2)" not in plain
    )


def test_unformed_units_hit_on_6_others_on_5() -> None:
    state = at("combat", danes1=(10, 10, 180), saxons2=(10, 7, 0))
    assert combat.hit_score(state, state.unit("saxons2"), ())[0] == 5
    loose = status(state, "saxons2", unformed=True)
    assert combat.hit_score(loose, loose.unit("saxons2"), ())[0] == 6


@pytest.mark.parametrize(
    ("result", "shaken", "charge", "move", "level"),
    [("victory", False, True, "pursue", "blood lust"),
     ("success", False, False, "pursue", "ready for battle"),
     ("set_back", False, False, "fall_back", "shaken"),
     ("set_back", True, False, "retire", "shaken"),
     ("defeat", False, True, "retire", "shaken"), ("defeat", False, False, "fall_back", "shaken"),
     ("defeat", True, False, "break", "shaken")],
)  # fmt: skip
def test_combat_results_shared_by_the_side(
    result: str, shaken: bool, charge: bool, move: str, level: str
) -> None:
    state = at("combat", saxons1=(10, 5, 0), saxons4=(15, 5, 0))
    for key in ("saxons1", "saxons4"):
        state = status(state, key, aggression="shaken" if shaken else "present")
    ctx = context(state)
    combat.apply_result(ctx, ["saxons1", "saxons4"], result, result, charge, ["danes1"])
    for key in ("saxons1", "saxons4"):
        unit = ctx.state.unit(key)
        assert unit.status["after_move"] == move and AGGRESSION.of(unit) == level


def test_an_automatic_hit_for_a_leader_fighting() -> None:
    state = at("combat", saxons3=(10, 5, 0), danes2=(10, 7.0, 180))
    ctx = context(state, [1] * 40)
    first, _ = combat.clusters(ctx.state)[0]
    assert combat.side_hits(ctx, first, False) == 1  # Alfred with the Hearthguard; no die hit


# -- after combat -------------------------------------------------------------------------------
def test_a_falling_back_unit_that_cannot_takes_a_dp() -> None:
    state = at("after_combat", saxons1=(10, 5, 0), saxons4=(10, 3, 0))
    ctx = context(state)
    after.fall_back(ctx, ctx.state.unit("saxons1"))
    assert DPS.of(ctx.state.unit("saxons1")) == 1


def test_the_free_hack_causes_a_casualty_for_every_3_plus() -> None:
    state = at("after_combat", danes3=(10, 10, 180), saxons1=(10, 7, 0))
    ctx = context(state, [3, 2])
    after.free_hack(ctx, ctx.state.unit("danes3"), ctx.state.unit("saxons1"))
    assert CASUALTIES.of(ctx.state.unit("saxons1")) == 1
    assert not UNFORMED.of(ctx.state.unit("saxons1"))
    assert isinstance(Modifier(1), Modifier)


def test_the_battle_standard_routing_costs_its_contingent_a_level() -> None:
    state = at("after_combat", saxons3=(10, 5, 0), saxons4=(20, 5, 0), danes2=(10, 7.0, 180))
    ctx = context(state, [3, 3])
    after._lose(ctx, ctx.state.unit("saxons3"), "break")  # Alfred carries the standard
    assert AGGRESSION.of(ctx.state.unit("saxons4")) == "shaken"  # present -1


def test_only_an_a_grade_may_choose_plus_or_minus_one_on_its_control_test() -> None:
    state = at("movement", saxons1=(6, 4, 0), saxons3=(15, 4, 0))
    plus = {"to": [6, 8], "a_grade": 1}
    assert isinstance(RULES.judge(state, Order("saxons1", "move", plus)), Illegal)
    assert isinstance(
        RULES.judge(state, Order("saxons3", "move", {**plus, "to": [15, 8]})), Preview
    )
    wild = {"to": [15, 8], "a_grade": 2}
    assert isinstance(RULES.judge(state, Order("saxons3", "move", wild)), Illegal)
    assert movement.a_grade_choice(Order("saxons3", "move", {"a_grade": -1})) == -1


def test_a_light_wound_is_counted_on_the_leader_and_costs_one_lp() -> None:
    state = at("combat", danes1=(10, 10, 0))
    ctx = context(state, [1, 5])
    u.risk_to_leaders(ctx, ctx.state.unit("danes1"), "combat")
    ubba = ctx.state.leader("danes_ubba")
    assert (ubba.wounds, ubba.points) == (1, 3)
