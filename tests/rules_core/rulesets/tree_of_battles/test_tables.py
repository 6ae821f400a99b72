"""Every table of the Tree of Battles sheet, row by row and band by band, with its numbers."""

from __future__ import annotations

import pytest

from rules_core import registry
from rules_core.rulesets.tree_of_battles import tables as t

SHEET = "/work/shared/seeds/000_1df800dde527356b.txt"


def test_remove_dps_by_grade() -> None:
    rows = {grade: t.REMOVE_DPS.rows[grade] for grade in "ABCD"}
    assert rows == {
        "A": (1, True, True, False, False),  # 1 if stationary and not in combat
        "B": (1, True, True, False, False),
        "C": (1, True, True, True, False),  # ... and no shooting DPs
        "D": (1, True, True, False, True),  # ... and not shot at
    }


def test_causes_of_dps() -> None:
    dps = {key: row[0] for key, row in t.CAUSES_OF_DPS.rows.items()}
    assert dps == {
        "higher_grade_retires": 1, "routs_or_destroyed": 2, "routs_or_destroyed_chivalrous": 1,
        "difficult_terrain": 1, "baggage_looted": 2, "noble_lost": 2,
        "foot_charged_by_mounted": 2, "flank_or_rear": 2,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("score", "result"),
    [(1, "hit"), (2, "safe"), (3, "safe"), (4, "safe"), (5, "safe"), (6, "safe")],
)
def test_risk_to_leader_first_roll(score: int, result: str) -> None:
    assert t.RISK_TO_LEADER.lookup(score).result == result


@pytest.mark.parametrize(
    ("score", "result", "cps"),
    [(1, "killed", 0), (2, "minus_2", -2), (3, "minus_2", -2), (4, "minus_1", -1),
     (5, "minus_1", -1), (6, "no_effect", 0)],
)  # fmt: skip
def test_risk_to_leader_second_roll(score: int, result: str, cps: int) -> None:
    assert t.LEADER_HIT.lookup(score).result == result
    assert t.LEADER_HIT_CPS[result] == cps


def test_move_distances() -> None:
    look = t.MOVE_DISTANCES.lookup
    assert (look("march", "foot"), look("march", "mounted")) == (4.0, 6.0)
    assert look("normal", "dice") == 2 and t.MOVE_DIE_SF == 0.5
    assert look("skirmish_array", "foot") == 0.5 and look("rough_terrain", "foot") == -0.5
    assert look("fast", "dice") == 2 and look("detached_commander", "foot") == 6.0
    assert look("road", "foot") == 5.0 and t.FULL_HARNESS_DIE == 4 and t.ROUGH_TERRAIN_DP == 1


def test_command_actions() -> None:
    rows = {key: row[:2] for key, row in t.COMMAND_ACTIONS.rows.items()}
    assert rows == {
        "move": (1, 6.0), "steady": (2, 1.0), "control": (2, 1.0), "new_orders": (2, None),
    }  # fmt: skip
    assert t.STEADY_DPS == 2


def test_control_test_triggers_and_modifiers() -> None:
    assert list(t.CONTROL_TRIGGERS.rows) == [
        "out_of_command",
        "stop_pursuit",
        "shooting",
        "chivalrous",
    ]
    assert t.COMMAND_RANGE == {"captain": 1.0, "marshal": 2.0} and t.CHIVALROUS_RANGE == 6.0
    values = {key: row[0] for key, row in t.CONTROL_MODIFIERS.rows.items()}
    assert values == {
        "chivalrous": 1, "d_grade": -1, "mercenary": -1, "a_grade": "+/-1", "leader": "+/-1",
        "rear_support": "+/-1",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("score", "result"),
    [(-1, "halt"), (0, "halt"), (1, "halt"), (2, "halt_2"), (3, "free"), (4, "free"),
     (5, "advance"), (6, "advance_max"), (8, "advance_max")],
)  # fmt: skip
def test_control_test_results(score: int, result: str) -> None:
    assert t.CONTROL_TEST.lookup(score).result == result


def test_control_test_rows_read_like_the_sheet() -> None:
    rows = [band.row.split(":")[0] for band in t.CONTROL_TEST.bands]
    assert rows == ["1-", "2", "3-4", "5", "6+"]


def test_manoeuvres() -> None:
    costs = {key: row[:3] for key, row in t.MANOEUVRES.rows.items()}
    assert costs == {
        "wheel": (0.0, 1, 6.0), "rally": (0.5, 0, None), "change_array": (0.5, 1, 6.0),
        "exchange_ranks": (0.5, 1, 1.0), "minor_obstacle": (0.0, 1, None),
        "defensive_obstacle": (0.0, 1, None), "major_obstacle": (0.0, 1, None),
        "about_face": (0.5, 1, 6.0), "change_frontage": (0.5, 1, None), "mount": (0.0, 1, None),
        "dismount": (0.0, 1, None), "passage_of_lines": (0.0, 1, None), "pass_gap": (0.5, 1, None),
    }  # fmt: skip
    assert t.MAJOR_OBSTACLE_FULL_HARNESS_DPS == 2 and t.PASSAGE_BY_MOUNTED_EXTRA_DP == 1


def test_shooting_ranges_read_as_maximum_effective_close() -> None:
    assert t.RANGES.columns == ("maximum", "effective", "close")
    assert dict(t.RANGES.rows) == {
        "artillery": (42.0, 6.0, 3.0),  # "42 SF" as printed
        "archers": (6.0, None, 2.0),
        "crossbowmen": (6.0, None, 3.0),
        "hand_gunners": (2.0, None, 1.0),
        "skirmishers": (1.0, None, None),
    }


@pytest.mark.parametrize(("score", "result"), [(1, "miss"), (4, "miss"), (5, "hit"), (6, "hit")])
def test_shooting_hits_on_5_6(score: int, result: str) -> None:
    assert t.SHOOTING_HIT.lookup(score).result == result


def test_shooting_and_artillery_modifiers() -> None:
    shooting = {key: row[0] for key, row in t.SHOOTING_MODIFIERS.rows.items()}
    assert shooting == {
        "armoured_foot": -1, "foot_skirmishers": -1, "cover": -1, "close": 1,
        "archers_at_mounted": 1,
    }  # fmt: skip
    guns = {key: row[0] for key, row in t.ARTILLERY_MODIFIERS.rows.items()}
    assert guns == {
        "same_target": 1, "new_target": -1, "column_or_enfilade": 1, "each_dp": -1,
        "beyond_effective": -1, "fortification": -1,
    }  # fmt: skip
    assert t.HALVE_DICE == ("1 DP per stand", "in disarray", "understrength")


@pytest.mark.parametrize(
    ("score", "effective", "close"),
    [(0, "none", "none"), (1, "none", "1"), (3, "none", "1"), (4, "1", "2"), (5, "1", "2"),
     (6, "2", "2"), (7, "2", "2")],
)  # fmt: skip
def test_artillery_results(score: int, effective: str, close: str) -> None:
    assert t.ARTILLERY_EFFECTIVE.lookup(score).result == effective
    assert t.ARTILLERY_CLOSE.lookup(score).result == close


def test_charge_restrictions_and_responses() -> None:
    assert t.NO_CHARGE_ARRAYS == ("column", "square", "skirmish")
    assert t.NO_CHARGE_TYPES == ("artillery", "hand_gunners", "crossbowmen")
    assert t.LIMITED_CHARGERS == ("archers", "light_infantry", "light_horse")
    responses = {key: row[0] for key, row in t.CHARGE_RESPONSES.rows.items()}
    assert responses == {
        "foot_skirmishers": ["stand", "evade"], "artillery": ["stand", "evade"],
        "light_horse": ["counter_charge", "evade"],
        "mounted_skirmishers": ["counter_charge", "evade"],
        "men_at_arms": ["counter_charge", "stand"], "others": ["stand"], "in_melee": ["stand"],
        "disarray": ["break"],
    }  # fmt: skip


@pytest.mark.parametrize(
    ("difference", "result", "dps", "casualties"),
    [(9, "victory", 0, 0), (5, "victory", 0, 0), (4, "success", 1, 0), (2, "success", 1, 0),
     (1, "inconclusive", 1, 0), (0, "inconclusive", 1, 0), (-1, "inconclusive", 1, 0),
     (-2, "set_back", 2, 0), (-4, "set_back", 2, 0), (-5, "defeat", 0, 1),
     (-6, "defeat", 0, 1), (-7, "rout", 0, 1), (-12, "rout", 0, 1)],
)  # fmt: skip
def test_combat_results(difference: int, result: str, dps: int, casualties: int) -> None:
    assert t.COMBAT_RESULTS.lookup(difference).result == result
    assert t.COMBAT_LOSSES.rows[result] == (dps, casualties)
    assert t.INCONCLUSIVE_MOUNTED_ON_ARCHERS_DPS == 2


def test_combat_factors_and_the_starred_ones() -> None:
    values = {key: row[0] for key, row in t.COMBAT_FACTORS.rows.items()}
    assert values == {
        "combat_factor": "profile", "grade_ab": 1, "grade_d": -1, "ground": 1, "fortification": 1,
        "deeper": 1, "pursuing": 1, "pursuing_mounted": 2, "reinforced": 1, "armour": 1,
        "noble": 1, "noble_4cp": 2, "outnumbered": -1, "outnumbered_2": -2, "outnumbered_3": -3,
        "array": -2, "dp": -1, "casualty": -1, "chivalrous_charge": 1, "pikes": 3,
        "pikes_mounted": 4,
    }  # fmt: skip
    starred = {key for key, row in t.COMBAT_FACTORS.rows.items() if row[1]}
    assert starred == {"dp", "pikes", "pikes_mounted"} and t.MAX_DP_FACTOR == 5


def test_moves_after_combat() -> None:
    assert list(t.MOVES_AFTER_COMBAT.rows) == [
        "halt", "fall_back", "follow_up", "retire", "break", "pursue",
    ]  # fmt: skip
    assert t.BLOCKED_RETIRE_DPS == 1 and t.BLOCKED_ROUT_CASUALTIES == 1


QUOTING = (
    t.CAUSES_OF_DPS, t.MOVE_DISTANCES, t.COMMAND_ACTIONS, t.CONTROL_TRIGGERS,
    t.CONTROL_MODIFIERS, t.MANOEUVRES, t.SHOOTING_MODIFIERS, t.ARTILLERY_MODIFIERS,
    t.CHARGE_RESTRICTIONS, t.COMBAT_FACTORS, t.MOVES_AFTER_COMBAT,
)  # fmt: skip


def _sheet() -> str:
    """The sheet's words with its extraction markup (LaTeX ½, *italics*, en dashes) undone."""
    with open(SHEET, encoding="utf-8") as sheet:
        text = " ".join(sheet.read().split())
    return text.replace("$\\frac{1}{2}$", "½").replace("*", "").replace("–", "-")


def test_every_sheet_phrase_quoted_in_the_tables_is_on_the_sheet() -> None:
    text = _sheet()
    quoted = [str(row[-1]) for table in QUOTING for row in table.rows.values()]
    quoted += [band.text for table in (t.CONTROL_TEST, t.COMBAT_RESULTS) for band in table.bands]
    for phrase in quoted:
        assert phrase.replace("–", "-").replace("*", "") in text, phrase


def test_the_rules_publish_every_table() -> None:
    rules = registry.get("tob").rules
    assert rules is not None and len(rules.tables) == 22
