"""Tree of Battles rulings: rosters, previews, shooting, combat factors, control tests, rally."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core import registry
from rules_core.dice import Modifier
from rules_core.orders import Illegal, Order, Preview
from rules_core.plugin import Rules
from rules_core.rulesets.tree_of_battles import after, charges, combat, control, profiles, shooting
from rules_core.rulesets.tree_of_battles.rules import _may_rally
from rules_core.rulesets.tree_of_battles.sample import sample_battle
from rules_core.state import BattleState, Unit
from rules_core.steps import Cursor
from rules_core.toolkit import enemies_in_contact


@pytest.fixture
def rules() -> Rules:
    found = registry.get("tob").rules
    assert found is not None
    return found


def at(step: str, **moves: tuple[float, float, float]) -> BattleState:
    """The sample battle in a step of turn 1, with some contingents placed (x, y, facing)."""
    state = replace(sample_battle(), cursor=Cursor(1, "main", step, ("english", "french")))
    for key, (x, y, facing) in moves.items():
        state = state.with_unit(replace(state.unit(key), x=x, y=y, facing=facing))
    return state


def judge(
    rules: Rules, state: BattleState, actor: str, kind: str, **params: object
) -> Preview | Illegal:
    return rules.judge(state, Order(actor, kind, params))  # type: ignore[arg-type]


def with_status(state: BattleState, key: str, **changes: object) -> BattleState:
    return state.with_unit(state.unit(key).with_status(**changes))  # type: ignore[arg-type]


# -- rosters -------------------------------------------------------------------------------


def test_the_registry_entry_keeps_its_id_alias_and_listing() -> None:
    entry = registry.get("tob")
    assert (entry.id, entry.measure, entry.listed) == ("tree_of_battles", "SF", True)


def test_the_sample_armies_and_the_bot_rosters_validate() -> None:
    schema = registry.get("tob").roster_schema
    for army in ("english", "french"):
        assert schema.validate(profiles.load_army(army)) == []
    simple = {"name": "E", "units": [{"name": "Longbowmen", "grade": "B", "type": "archers"}]}
    assert schema.validate(simple) == []
    bad = {"name": "X", "units": [{"name": "Y", "grade": "E", "stands": 99}]}
    assert schema.validate(bad) == [
        "units[0].grade: must be one of A, B, C, D", "units[0].stands: must be at most 50",
    ]  # fmt: skip


def test_a_contingent_from_a_roster_entry(rules: Rules) -> None:
    entry = {"name": "Billmen", "type": "billmen", "grade": "C", "stands": 6, "combat_factor": 4}
    unit = rules.unit_from_roster(entry, "u1", "english", "g")
    assert (unit.frontage, unit.depth, unit.stands, unit.quality) == (3.0, 1.0, 6, "C")
    assert unit.get("combat_factor") == 4 and unit.get("array") == "good"
    assert rules.measure_name() == "SF" and rules.measure_mm == 40.0


# -- previews ------------------------------------------------------------------------------


def test_march_moves_must_stay_beyond_6_sf(rules: Rules) -> None:
    state = at("approach")
    found = judge(rules, state, "f2", "march", to=[9, 12])
    assert found == Preview(found.order, "marches 4 SF to (9, 12)")
    too_far = judge(rules, state, "f2", "march", to=[9, 11])
    assert isinstance(too_far, Illegal) and too_far.reason == "5 SF is beyond the 4 SF march move"
    close = judge(rules, at("approach", f2=(9, 10.5, 180)), "f2", "march", to=[9, 9])
    assert isinstance(close, Illegal) and "within 6 SF" in close.reason


def test_a_normal_move_explains_its_dice_and_rough_ground(rules: Rules) -> None:
    found = judge(rules, at("tactical", f2=(9, 12, 180)), "f2", "move", to=[9, 9])
    assert isinstance(found, Preview)
    assert (
        found.summary
        == "moves 2 AvD x ½ SF, -½ SF a die in rough ground (1-4 SF) toward (9, 9), 3 SF away"
    )
    assert found.notes == ("enters rough ground: -½ SF a die; 1 DP",)
    horse = judge(rules, at("tactical"), "f1", "move", to=[4, 12], option="extra_d6")
    assert isinstance(horse, Preview) and "2 AvD + D6 x ½ SF (2.5-8 SF)" in horse.summary
    foot = judge(rules, at("tactical"), "f2", "move", to=[9, 13], option="extra_d6")
    assert isinstance(foot, Illegal) and foot.reason == "only mounted may add the optional D6"


def test_mounted_may_not_enter_dense_woods(rules: Rules) -> None:
    found = judge(rules, at("tactical", f1=(20, 9, 90)), "f1", "move", to=[23, 9])
    assert isinstance(found, Illegal) and found.reason == "mounted may not enter dense woods"


def test_shooting_ranges_and_modifiers(rules: Rules) -> None:
    state = at("shooting", e1=(9, 10.2, 0))  # front edge at 10.45; the Vanguard's near edge 15.5
    found = judge(rules, state, "e1", "shoot", target="f2")
    assert isinstance(found, Preview)
    assert found.summary == (
        "shoots 4 D6 at The Constable's Vanguard, 5.1 SF (maximum range): 1 DP for each 6+"
    )
    far = judge(rules, at("shooting", e1=(9, 8.2, 0)), "e1", "shoot", target="f2")
    assert isinstance(far, Illegal)
    assert far.reason == "The Constable's Vanguard is 7.1 SF away, beyond 6 SF maximum range"
    none = judge(rules, state, "e2", "shoot", target="f2")
    assert isinstance(none, Illegal) and none.reason == "York's Vaward has no missiles"


def test_archers_modifiers_against_full_harness_and_horse() -> None:
    state = at("shooting", e1=(4, 13.8, 0), f1=(4, 15.5, 180))
    archers, horse, vanguard = state.unit("e1"), state.unit("f1"), state.unit("f2")
    # The horse are in full harness: no +1 for close range, +1 as non-skirmishing mounted.
    assert shooting.missile_modifiers(state, archers, horse, "close") == [
        Modifier(1, "archers at non-skirmishing mounted")
    ]
    assert shooting.missile_modifiers(state, archers, state.unit("f4"), "close") == [
        Modifier(-1, "archers/skirmishers at armoured foot"), Modifier(1, "close range"),
    ]  # fmt: skip
    # +1 close range, except archers shooting at targets in full harness.
    assert shooting.missile_modifiers(state, archers, vanguard, "close") == [
        Modifier(-1, "archers/skirmishers at armoured foot")
    ]
    tired = with_status(state, "e1", dps=4, array="disarray")
    plan = shooting.plan(tired, tired.unit("e1"), horse, {})
    assert isinstance(plan, shooting.Shot) and plan.dice == 2
    assert plan.halved == ("1 DP per stand", "in disarray")


def test_artillery_remembers_its_target() -> None:
    state = at("shooting")
    guns, archers = state.unit("f5"), state.unit("e5")
    first = shooting.artillery_modifiers(state, guns, archers, 14.25, "beyond")
    assert first == [Modifier(-1, "new target"), Modifier(-1, "beyond effective range")]
    again = guns.with_status(last_target="e5", last_range=14.25, dps=2)
    assert shooting.artillery_modifiers(state, again, archers, 14.25, "close") == [
        Modifier(1, "same target and range"), Modifier(-2, "2 DPs"),
    ]  # fmt: skip
    assert shooting.band_of("artillery", 2.5, {}) == "close"
    assert shooting.band_of("artillery", 5.0, {}) == "effective"
    assert shooting.band_of("artillery", 42.5, {"artillery_maximum": 42}) is None


def test_the_same_target_at_a_changed_range_is_not_a_new_target() -> None:
    # "Same target and range +1 New target -1": last shot at 14.25 SF, now at 8.25 SF.
    state = at("shooting")
    guns, archers = state.unit("f5"), state.unit("e5")
    moved = guns.with_status(last_target="e5", last_range=14.25)
    assert shooting.artillery_modifiers(state, moved, archers, 8.25, "effective") == []
    other = guns.with_status(last_target="e1", last_range=8.25)
    assert shooting.artillery_modifiers(state, other, archers, 8.25, "effective") == [
        Modifier(-1, "new target")
    ]


def test_charge_restrictions(rules: Rules) -> None:
    state = at("charges", e1=(4, 13, 0), f4=(18, 13, 180))
    archers = judge(rules, state, "e1", "charge", target="f1")
    assert (
        isinstance(archers, Illegal) and "may only charge enemy in skirmish array" in archers.reason
    )
    crossbows = judge(rules, state, "f4", "charge", target="e5")
    assert isinstance(crossbows, Illegal) and "crossbowmen may not charge" in crossbows.reason
    # Clear of the ploughland (y 8-11): a base half in it would charge through rough (#39).
    horse = judge(rules, at("charges", f1=(8.5, 7.5, 180)), "f1", "charge", target="e2")
    assert isinstance(horse, Preview)
    assert horse.summary == "charges York's Vaward, 3.5 SF away: 2 AvD + D6 x ½ SF (2.5-8 SF)"


def test_charge_responses_by_troop_type() -> None:
    state = at("charges", f6=(20, 13.5, 180), e2=(20, 11, 0))
    horse, brigands, vaward = state.unit("f1"), state.unit("f6"), state.unit("e2")
    assert charges.responses(state, vaward, horse) == ["stand", "counter_charge"]
    assert charges.responses(state, brigands, vaward) == ["evade"]
    assert charges.responses(state, state.unit("e4"), horse) == ["stand"]
    shaken = with_status(state, "f6", array="disarray")
    assert charges.responses(shaken, shaken.unit("f6"), vaward) == ["break"]
    ploughed = at("charges")  # the ploughed field lies between: skirmishers may stand
    assert charges.responses(ploughed, ploughed.unit("f6"), ploughed.unit("e2")) == [
        "stand",
        "evade",
    ]


# -- command -------------------------------------------------------------------------------


def test_command_actions_cost_cps_and_reach(rules: Rules) -> None:
    state = at("command")
    found = judge(rules, state, "henry", "steady", target="e3")
    assert found == Preview(
        found.order, "King Henry V steadies The King's Battle, removing up to 2 DPs (2 CPs)"
    )
    far = judge(rules, state, "henry", "steady", target="e5")
    assert isinstance(far, Illegal) and far.reason == "Left-wing Archers is 5 SF away, beyond 1 SF"
    poor = state.with_leader(replace(state.leader("camoys"), points=1))
    broke = judge(rules, poor, "camoys", "control", target="e4")
    assert (
        isinstance(broke, Illegal)
        and broke.reason == "Thomas, Lord Camoys has 1 CP left; control costs 2"
    )


# -- control tests -------------------------------------------------------------------------


def test_control_results_clause_by_clause() -> None:
    state = at("control")
    knights, crossbows, brigands = state.unit("f1"), state.unit("f4"), state.unit("f6")
    assert control.outcome_of(crossbows, "halt", shooting=True) == "retire"
    assert control.outcome_of(crossbows, "halt", shooting=False) == "halt"
    gunned = brigands.with_status(shot_by_artillery=True)
    assert control.outcome_of(gunned, "halt_2", shooting=True) == "retire"
    assert control.outcome_of(crossbows, "halt_2", shooting=True) == "halt"
    assert control.outcome_of(crossbows, "free", shooting=False) == "free"
    assert control.outcome_of(knights, "advance", shooting=False) == "charge_a"
    assert control.outcome_of(knights, "advance_max", shooting=False) == "charge_a_max"
    assert control.outcome_of(brigands, "advance", shooting=False) == "advance"
    assert control.outcome_of(crossbows, "advance", shooting=False) == "repeat"
    assert control.outcome_of(crossbows, "advance_max", shooting=True) == "advance"


def test_control_modifiers_and_command_range() -> None:
    state = at("control")
    assert control.modifiers(state, state.unit("f1"), False) == [Modifier(1, "chivalrous")]
    assert control.modifiers(state, state.unit("f4"), False) == [Modifier(-1, "mercenary")]
    assert control.modifiers(state, state.unit("f6"), True) == [
        Modifier(-1, "D grade"), Modifier(1, "friendly troops to the rear"),
    ]  # fmt: skip
    alone = at("control", f6=(20, 10, 180))
    assert control.modifiers(alone, alone.unit("f6"), True)[-1] == Modifier(
        -1, "no friendly troops to the rear"
    )
    assert control.in_command(state, state.unit("e2"))
    assert not control.in_command(state, state.unit("e5"))


# -- combat --------------------------------------------------------------------------------


def _meet(state: BattleState) -> tuple[BattleState, Unit, Unit]:
    """The Vaward (2 ranks, A) and Vendôme's Horse (1 rank, A) face to face, the horse charging."""
    state = at("melee", e2=(8, 8, 0), f1=(8, 9.0, 180))
    state = with_status(state, "f1", charged=True)
    return state, state.unit("e2"), state.unit("f1")


def test_combat_factors_in_a_charge() -> None:
    state, vaward, horse = _meet(at("melee"))
    assert enemies_in_contact(state, vaward) == [horse]
    assert combat.charge_combat(vaward, horse)
    assert combat.factors(state, horse, vaward, True) == [
        Modifier(3, "combat factor (profile)"), Modifier(1, "A grade"),
        Modifier(1, "mounted chivalrous charge"), Modifier(1, "noble fighting"),
    ]  # fmt: skip
    tired = with_status(state, "e2", dps=7, casualties=1, array="disarray")
    assert combat.factors(tired, tired.unit("e2"), horse, True) == [
        Modifier(3, "combat factor (profile)"), Modifier(1, "A grade"),
        Modifier(1, "deeper formation"), Modifier(1, "noble fighting"),
        Modifier(-1, "outnumbered"), Modifier(-2, "in disarray"), Modifier(-5, "DPs (max -5)*"),
        Modifier(-1, "casualties"),
    ]  # fmt: skip
    melee = combat.factors(tired, tired.unit("e2"), horse, False)
    assert Modifier(-5, "DPs (max -5)*") not in melee  # starred: charge combats only
    assert Modifier(1, "heavier armour (mêlée)") not in melee  # both in full harness


def test_pikes_and_outnumbering() -> None:
    state, vaward, horse = _meet(at("melee"))
    pikes = replace(vaward, type="pikemen")
    state = state.with_unit(pikes)
    assert Modifier(4, "pikemen in good array facing mounted*") in combat.factors(
        state, pikes, horse, True
    )
    small = replace(horse, stands=4).with_status(casualties=3)
    state = state.with_unit(small)
    assert combat.outnumbering(state, small, pikes) == Modifier(-3, "outnumbered 3:1+")


def test_moves_after_combat_by_result() -> None:
    state, vaward, horse = _meet(at("melee"))
    stood = vaward.with_status(response="stand")
    assert after.choices(state, stood, horse, "success") == ["halt"]  # stood against horse
    assert after.choices(state, horse, vaward, "success") == ["retire"]  # charged good foot
    assert after.choices(state, vaward, horse, "inconclusive") == ["halt", "fall_back"]
    assert after.choices(state, horse, vaward, "inconclusive") == ["retire"]
    assert after.choices(state, vaward, horse, "set_back") == ["halt"]  # charged by mounted only
    assert after.choices(state, vaward.with_status(array="disarray"), horse, "set_back") == [
        "break"
    ]
    assert after.choices(state, vaward, horse, "defeat") == ["retire"]
    assert after.choices(state, vaward, horse, "rout") == ["break"]
    assert after.choices(state, horse, vaward, "victory") == ["pursue"]
    bills = state.unit("e4")
    assert after.choices(state, bills, horse, "victory") == ["halt", "pursue"]


# -- rally ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("grade", "status", "rallies"),
    [("A", {}, True), ("B", {"stationary": False}, False), ("B", {"in_combat": True}, False),
     ("C", {"shooting_dps": 1, "shot_at": True}, False), ("C", {"shot_at": True}, True),
     ("D", {"shot_at": True}, False), ("D", {}, True)],
)  # fmt: skip
def test_remove_dps_by_grade(grade: str, status: dict[str, object], rallies: bool) -> None:
    unit = replace(at("rally").unit("e4"), quality=grade)
    unit = unit.with_status(**{"stationary": True, "dps": 2, **status})  # type: ignore[arg-type]
    assert _may_rally(unit, engaged=False) is rallies
