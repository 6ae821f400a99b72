"""Every table of the heroic-age sheet (the part outside the god pack, leader actions and
personal combat), row by row and band by band, with the sheet's numbers."""

from __future__ import annotations

import pytest

from rules_core.rulesets.heroic_age import tables as t


def test_movement() -> None:
    assert t.MOVE.lookup("move", "avd") == 1 and t.MOVE.lookup("move", "optional_d6") == 1
    assert t.MOVE.lookup("fast", "avd") == 1 and t.MOVE.lookup("fast", "optional_d6") == 1
    assert t.ENEMY_STOP == 2.0 and t.LEADER_GROUP == 2.0


@pytest.mark.parametrize(
    ("face", "dry", "rain"),
    [(1, "none", "none"), (2, "none", "none"), (3, "none", "none"), (4, "none", "dp"),
     (5, "dp", "dp"), (6, "dp", "dp")],
)  # fmt: skip
def test_fatigue_on_5_6_and_4_6_in_rain(face: int, dry: str, rain: str) -> None:
    assert t.FATIGUE.lookup(face).result == dry
    assert t.FATIGUE_RAIN.lookup(face).result == rain
    assert t.FATIGUE_DPS == 1


def test_manoeuvres() -> None:
    rows = {key: row[:4] for key, row in t.MANOEUVRES.rows.items()}
    assert rows == {
        "change_direction": (1.0, True, "ABCD", None),
        "about_face": (0.5, False, "ABCD", None),
        "side_step": (1.0, False, "AB", 2.0),
        "embark": (0.5, True, "ABCD", None),
        "form_up": (1.0, False, "ABCD", None),
        "interpenetration": (0.0, True, "ABCD", None),
    }


def test_rest_and_reform_by_grade() -> None:
    rows = {key: row[:3] for key, row in t.REST.rows.items()}
    assert rows == {
        "A": (1, True, None),
        "B": (1, True, None),
        "C": (1, True, 2.0),
        "D": (1, True, 8.0),
    }


def test_missile_exchange() -> None:
    look = t.MISSILE.lookup
    assert look("range", "value") == 2.0 and look("dice_per_stand", "value") == 2
    assert look("halved", "value") == 0.5 and look("hit", "value") == 6
    assert t.MISSILE_HIT_EFFECT.rows["above_present"][:2] == (-1, 0)
    assert t.MISSILE_HIT_EFFECT.rows["otherwise"][:2] == (0, 1)


@pytest.mark.parametrize(
    ("score", "result"),
    [(-1, "fail"), (1, "fail"), (2, "fail"), (3, "fail"), (4, "charge"), (5, "charge"),
     (6, "charge"), (9, "charge")],
)  # fmt: skip
def test_charge_test_bands(score: int, result: str) -> None:
    assert t.CHARGE_TEST.lookup(score).result == result


def test_charge_test_modifiers() -> None:
    assert {key: row[0] for key, row in t.CHARGE_MODIFIERS.rows.items()} == {
        "retinue_with_leader": 1, "ready_for_battle": 1, "friend_charging": 1,
        "unformed_or_dps": -1, "a_grade": 1, "d_grade": -1, "battle_standard": 1,
    }  # fmt: skip
    assert t.CHARGE_DPS_THRESHOLD == 2 and t.CHARGE_FRIEND_RANGE == 2.0
    assert t.STANDARD_RANGE == 2.0 and t.FAILED_CHARGE_DPS == 1


@pytest.mark.parametrize(
    ("score", "first", "second", "lps"),
    [(1, "hit", "killed", 0), (2, "safe", "severe", -2), (3, "safe", "severe", -2),
     (4, "safe", "light", -1), (5, "safe", "light", -1), (6, "safe", "light", -1)],
)  # fmt: skip
def test_risk_to_leader(score: int, first: str, second: str, lps: int) -> None:
    assert t.RISK_TO_LEADER.lookup(score).result == first
    assert t.LEADER_HIT.lookup(score).result == second
    assert t.LEADER_HIT_LPS[second] == lps


def test_combat_dice_per_stand_by_grade() -> None:
    assert {g: t.COMBAT_DICE.lookup(g, "dice") for g in "ABCD"} == {"A": 6, "B": 4, "C": 2, "D": 1}


def test_combat_dice_modifiers_and_the_charge_only_ones() -> None:
    assert {key: row[:2] for key, row in t.COMBAT_MODIFIERS.rows.items()} == {
        "blood_lust": (2, False), "ready_for_battle": (1, False), "shaken": (-2, False),
        "flank_stand": (2, False), "charged": (1, True), "following_up": (1, False),
        "champion_or_standard": (1, False), "dps": (-1, True),
    }  # fmt: skip
    assert t.COMBAT_MIN_DICE == 1 and t.LEADER_HITS == 1


def test_combat_hit_scores() -> None:
    assert {key: row[0] for key, row in t.COMBAT_HITS.rows.items()} == {
        "unformed": 6, "from_behind": 6, "advantage_of_ground": 6, "other": 5,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("difference", "result"),
    [(9, "victory"), (5, "victory"), (4, "success"), (2, "success"), (1, "inconclusive"),
     (0, "inconclusive"), (-1, "inconclusive"), (-2, "set_back"), (-4, "set_back"),
     (-5, "defeat"), (-12, "defeat")],
)  # fmt: skip
def test_combat_results_by_difference(difference: int, result: str) -> None:
    assert t.COMBAT_RESULTS.lookup(difference).result == result


def test_combat_result_effects() -> None:
    assert dict(t.RESULT_EFFECTS.rows) == {
        # levels, DPs, move; previously Shaken: levels, DPs, move; the move after a charge
        "victory": (2, 0, "pursue", 2, 0, "pursue", "pursue"),
        "success": (1, 0, "pursue", 1, 0, "pursue", "pursue"),
        "inconclusive": (0, 1, "", 0, 1, "", ""),
        "set_back": (-1, 0, "fall_back", 0, 0, "retire", "fall_back"),
        "defeat": (-1, 1, "fall_back", 0, 0, "break", "retire"),
    }
    assert t.INCONCLUSIVE_SEPARATE == 2.0 and t.INCONCLUSIVE_ROUNDS == 2


def test_movement_after_combat() -> None:
    assert {key: row[0] for key, row in t.AFTER_COMBAT.rows.items()} == {
        "follow_up": 0, "fall_back": 1, "retire": 1, "break": 0, "pursue": 0,
    }  # fmt: skip
    assert [t.FREE_HACK.lookup(face).result for face in range(1, 7)] == [
        "miss", "miss", "casualty", "casualty", "casualty", "casualty",
    ]  # fmt: skip
    assert t.FREE_HACK_DICE_PER_STAND == 1 and t.SURRENDER_RANGE == 2.0


@pytest.mark.parametrize(
    ("score", "result"),
    [(-1, "halt"), (1, "halt"), (2, "halt"), (3, "free"), (4, "free"), (5, "blood_lust"),
     (6, "blood_lust"), (8, "blood_lust")],
)  # fmt: skip
def test_control_test_bands(score: int, result: str) -> None:
    assert t.CONTROL_TEST.lookup(score).result == result


def test_control_test_modifiers() -> None:
    assert {key: row[0] for key, row in t.CONTROL_MODIFIERS.rows.items()} == {
        "above_present": 1, "shaken": -1, "a_grade": 1,
    }  # fmt: skip
    assert t.CONTROL_RANGE == 2.0


def test_aggression_level_causes() -> None:
    assert {key: row[:3] for key, row in t.AGGRESSION_CAUSES.rows.items()} == {
        "friend_lost": (-1, True, 2.0), "leader_killed": (-1, False, None),
        "standard_retiring": (-1, False, None), "enemy_lost": (1, True, 2.0),
        "won_personal_combat": (1, False, None),
    }  # fmt: skip


def test_causes_of_dps_and_the_4_dp_rule() -> None:
    assert {key: row[:2] for key, row in t.DP_CAUSES.rows.items()} == {
        "friend_retiring": (1, 2.0), "missile_hit": (1, None), "enemy_advancing": (1, 8.0),
        "failed_charge": (1, None), "leader_lost_duel": (1, None),
    }  # fmt: skip
    assert t.FOUR_DP_LIMIT == 4 and t.FOUR_DP_CAUSES == ("combat", "shooting", "morale")


def test_initiative_bonus() -> None:
    assert t.INITIATIVE_BONUS == 1


def test_every_table_is_offered_to_the_rules() -> None:
    from rules_core.rulesets.heroic_age.rules import HeroicAgeRules

    assert {table.name for table in t.ALL} <= set(HeroicAgeRules.tables)
