"""Every table of the pike-and-shot sheet except movement, row by row and band by band, with
the sheet's numbers."""

from __future__ import annotations

import pytest

from rules_core.rulesets.pike_and_shot import tables as t


def test_combat_dice_every_row() -> None:
    rows = {key: row[:3] for key, row in t.COMBAT_DICE.rows.items()}
    assert rows == {
        "detachment": (3.0, 1, 1),
        "dismounted_dragoons": (3.0, 1, 1),
        "irregular_infantry": (3.0, 1, 2),
        "rabble": (None, None, 1),
        "march_column": (None, None, 1),
        "tercio": (3.0, 2, 3),
        "infantry_brigade": (3.0, 2, 2),
        "cavalry_brigade": (2.0, 1, 3),
        "double_brigade": (2.0, 2, 2),
        "dragoons": (2.0, 1, 1),
        "irregular_cavalry": (2.0, 1, 1),
        "infantry_guns": (6.0, 1, None),
        "field_artillery": (12.0, 1, None),
        "heavy_artillery": (24.0, 1, None),
    }
    assert {"tercio", "infantry_brigade"} == t.PIKE_TYPES  # the "*" rows
    assert {"infantry_brigade"} == t.VOLLEY_TYPES  # the "#" row


def test_dice_modifiers_every_row() -> None:
    rows = {key: row[:2] for key, row in t.DICE_MODIFIERS.rows.items()}
    assert rows == {
        "flank": (1, "all"),
        "pike_vs_mounted": (1, "melee"),
        "veteran_volley": (1, "shooting"),
        "veteran_cavalry": (1, "melee"),
        "lance": (1, "melee"),
        "disrupted": (-1, "all"),
        "company_march_column": (-1, "all"),
        "brigade_march_column": (-2, "all"),
        "routed": (-2, "all"),
    }


def test_hits_and_saves_on_4() -> None:
    assert t.HIT_ON == 4 and t.SAVE_ON == 4


def test_saving_dice_by_size_and_modifiers() -> None:
    assert {k: v[0] for k, v in t.SAVING_DICE.rows.items()} == {
        "tercio": 3,
        "double": 2,
        "brigade": 2,
        "company": 1,
    }
    rows = {key: row[:2] for key, row in t.SAVE_MODIFIERS.rows.items()}
    assert rows == {
        "veteran": (1, "all"),
        "poor_attacker": (1, "all"),
        "armoured_cavalry": (1, "melee"),
        "uphill": (1, "shooting"),
        "cover": (1, "all"),
        "close_range": (-1, "shooting"),
        "close_artillery": (-1, "shooting"),
        "disordered": (-1, "all"),
        "disrupted": (-2, "all"),
        "flank": (-1, "all"),
        "rear": (-2, "all"),
    }


@pytest.mark.parametrize(
    ("hits", "sound", "disordered", "disrupted"),
    [
        (1, "disordered", "disrupted", "disorder_test"),
        (2, "disrupted", "disrupted_recoil", "routed"),
        (3, "disrupted_recoil", "routed", "routed"),
        (4, "routed", "destroyed", "destroyed"),
        (5, "routed", "destroyed", "destroyed"),
        (9, "routed", "destroyed", "destroyed"),
    ],
)
def test_shooting_results(hits: int, sound: str, disordered: str, disrupted: str) -> None:
    row = t.SHOOTING_ROWS.lookup(hits).result
    assert t.SHOOTING_RESULTS.lookup(row, "sound") == sound
    assert t.SHOOTING_RESULTS.lookup(row, "disordered") == disordered
    assert t.SHOOTING_RESULTS.lookup(row, "disrupted") == disrupted


def test_outcomes_state_and_move() -> None:
    rows = {key: row[:4] for key, row in t.OUTCOMES.rows.items()}
    assert rows == {
        "disordered": ("disordered", "", "", False),
        "disrupted": ("disrupted", "", "", False),
        "disorder_test": ("disrupted", "", "rout_or_recoil", False),
        "disrupted_recoil": ("disrupted", "recoil", "", False),
        "disordered_recoil": ("disordered", "recoil", "", False),
        "disrupted_recoil_melee": ("disrupted", "recoil", "", False),
        "routed": ("routed", "rout", "", False),
        "routed_test": ("routed", "rout", "remove", False),
        "destroyed": ("destroyed", "rout", "", True),
    }
    assert t.RECOIL_DISTANCE == 4.0 and t.COMPANY_ROUTED_REMOVED


@pytest.mark.parametrize(
    ("difference", "result"),
    [(0, "stand_off"), (1, "recoil"), (2, "rout"), (3, "destruction"), (7, "destruction")],
)
def test_melee_results_by_difference(difference: int, result: str) -> None:
    assert t.MELEE_RESULTS.lookup(difference).result == result


def test_melee_loser_and_winner() -> None:
    assert t.MELEE_LOSER.rows["recoil"][:3] == (
        "disordered_recoil",
        "disrupted_recoil_melee",
        "routed",
    )
    assert t.MELEE_LOSER.rows["rout"][:3] == ("routed", "routed", "routed_test")
    assert set(t.MELEE_LOSER.rows["destruction"]) == {"destroyed"}
    winner = {key: row[:2] for key, row in t.MELEE_WINNER.rows.items()}
    assert winner == {
        "stand_off": (False, False),
        "recoil": (False, True),
        "rout": (True, True),
        "destruction": (True, True),
    }
    assert t.RETREAT_GAP == 5.0 and t.RETURN_DISTANCE == 6.0


def test_pursuit_modifiers_every_row() -> None:
    rows = {key: row[0] for key, row in t.PURSUIT_MODIFIERS.rows.items()}
    assert rows == {
        "enemy_cavalry": 1, "routers_sub_unit": 1, "detachment": 1, "infantry_brigade": 3,
        "tercio": 4, "hold": 1, "withdraw": 2, "veteran": 1, "disordered": 1, "buildings": 2,
        "fortifications": 2, "clear_path": -1, "rabble": -1, "irregular": -2,
        "sound_cavalry_brigade": -2, "sound_double_brigade": -1, "attack": -1, "raw": -1,
        "heroic_commander": -1, "politico_commander": -1,
    }  # fmt: skip
    assert t.PURSUIT_RANGE == 18.0 and t.PURSUIT_ENEMY_CAVALRY == 8.0


@pytest.mark.parametrize(
    ("score", "result"), [(-3, "pursue"), (1, "pursue"), (3, "pursue"), (4, "stay"), (10, "stay")]
)
def test_pursuit_on_3_or_less(score: int, result: str) -> None:
    assert t.PURSUIT_TEST.lookup(score).result == result


def test_disorder_modifiers_both_columns() -> None:
    rows = {key: row[:2] for key, row in t.DISORDER_MODIFIERS.rows.items()}
    assert rows == {
        "raw": (0, 1), "trained": (1, 2), "veteran": (2, 2), "defending_obstacle": (1, 1),
        "uphill": (1, 1), "hold": (1, 1), "attacking_flank": (1, 1),
        "friend_one_flank": (1, 1), "friend_both_flanks": (1, 1), "wing_commander": (1, 1),
        "no_enemy_24": (1, 1), "higher_commander": (2, 2), "attacking_rear": (2, 2),
        "buildings": (2, 2), "rabble": (-1, -1), "brigade_difficult": (-1, -1),
        "enemy_brigade_8": (-1, -1), "disordered": (-1, -2), "disrupted": (-2, -3),
        "routed": (-3, -4), "artillery_fire": (-1, -1), "enemy_behind_flank": (-1, -1),
        "attacked_flank_rear": (-2, -1),
    }  # fmt: skip
    assert {"tercio", "double"} == t.LARGE_SIZES


@pytest.mark.parametrize(
    ("score", "result"),
    [(-2, "fail"), (1, "fail"), (3, "fail"), (4, "pass"), (6, "pass"), (9, "pass")],
)
def test_disorder_test_passes_on_4(score: int, result: str) -> None:
    assert t.DISORDER_TEST.lookup(score).result == result


def test_reform() -> None:
    assert t.REFORM_ENEMY == 4.0 and t.REFORM_LEVELS == 1


def test_fatigue_modifiers_every_row() -> None:
    rows = {key: row[:2] for key, row in t.FATIGUE_MODIFIERS.rows.items()}
    assert rows == {
        "enemy_8": (1, "once"), "commander_wounded": (1, "once"),
        "commander_killed": (2, "once"), "company_lost": (1, "each"),
        "brigade_off_table": (1, "each"), "disordered_large": (1, "each"),
        "disrupted": (2, "each"), "routed": (3, "each"), "sound_infantry": (-1, "each"),
        "sound_veteran": (-1, "each"), "hold": (-1, "once"), "no_enemy_24": (-1, "once"),
        "hero": (-1, "once"), "higher_commander": (-1, "once"),
    }  # fmt: skip


@pytest.mark.parametrize(
    ("score", "result"),
    [(-4, "unaffected"), (1, "unaffected"), (7, "unaffected"), (8, "fatigued"), (15, "fatigued")],
)
def test_fatigue_7_or_less_unaffected(score: int, result: str) -> None:
    assert t.FATIGUE_TEST.lookup(score).result == result


# The sheet's General Will rows as printed (row number, then the cells in the order printed,
# "" for an empty cell, trailing empties dropped). The rebuilt table must hold every printed
# number under the left-aligned reading (README_combat.md).
PRINTED = {
    1: ["6", "6", "Automatic pass"],
    2: ["4", "5", "", "", "", "", "", "6"],
    3: ["3", "4", "5", "6", "6", "6"],
    4: ["1", "3", "4", "5", "6", "6", "6"],
    5: ["0", "2", "3", "4", "5", "5", "6"],
    6: ["Automatic fail", "1", "2", "4", "4", "4", "5"],
    7: ["", "0", "1", "3", "4", "5", "5"],
    8: ["", "1", "2", "3", "4", "4"],
    9: ["", "0", "1", "3", "3", "4"],
    10: ["", "1", "2", "3", "3"],
    11: ["", "0", "1", "2", "3"],
    12: ["", "1", "1", "2"],
    13: ["", "0", "1", "2"],
    14: ["", "0", "1"],
    15: ["", "Automatic fail", "", "", "", "", "", "1"],
    16: ["", "", "", "", "", "", "", "0"],
    17: [],
}

REBUILT = {
    1: (6, 6, "pass", "pass", "pass", "pass", "pass"),
    2: (4, 5, 6, 6, 6, 6, 6),
    3: (3, 4, 5, 6, 6, 6, 6),
    4: (1, 3, 4, 5, 6, 6, 6),
    5: (0, 2, 3, 4, 5, 5, 6),
    6: ("fail", 1, 2, 4, 4, 5, 5),
    7: ("fail", 0, 1, 3, 4, 5, 5),
    8: ("fail", "fail", 1, 2, 3, 4, 4),
    9: ("fail", "fail", 0, 1, 3, 3, 4),
    10: ("fail", "fail", "fail", 1, 2, 3, 3),
    11: ("fail", "fail", "fail", 0, 1, 2, 3),
    12: ("fail", "fail", "fail", "fail", 1, 1, 2),
    13: ("fail", "fail", "fail", "fail", 0, 1, 2),
    14: ("fail", "fail", "fail", "fail", "fail", 0, 1),
    15: ("fail", "fail", "fail", "fail", "fail", "fail", 1),
    16: ("fail", "fail", "fail", "fail", "fail", "fail", 0),
    17: ("fail", "fail", "fail", "fail", "fail", "fail", "fail"),
}


@pytest.mark.parametrize("row", range(1, 18))
def test_general_will_every_row(row: int) -> None:
    assert t.GENERAL_WILL.rows[str(row)] == REBUILT[row]


def test_general_will_columns_are_the_sheets_bands() -> None:
    assert t.GENERAL_WILL.columns == ("5-10", "11-15", "16-20", "21-25", "26-30", "31-35", "36-40")
    assert t.GENERAL_WILL_BANDS == (
        (5, 10),
        (11, 15),
        (16, 20),
        (21, 25),
        (26, 30),
        (31, 35),
        (36, 40),
    )


def _rank(cell: object) -> int:
    return 7 if cell == "pass" else -1 if cell == "fail" else int(str(cell))


def test_general_will_is_monotone() -> None:
    rows = [[_rank(c) for c in t.GENERAL_WILL.rows[str(r)]] for r in range(1, 18)]
    for row in rows:  # a larger army is never worse off
        assert row == sorted(row)
    for column in zip(*rows, strict=True):  # a routed brigade more never helps
        assert list(column) == sorted(column, reverse=True)


def test_every_printed_number_is_kept_except_the_rebuilt_cell() -> None:
    """Numbers of a row sit from its first column that is not an automatic fail; 2, 15 and 16
    print their last cell in the 36-40 column. Only 6/31-35 differs from the print (4 -> 5)."""
    changed = []
    for row, printed in PRINTED.items():
        cells = t.GENERAL_WILL.rows[str(row)]
        numbers = [p for p in printed if p.isdigit()]
        if row in (2, 15, 16):
            assert str(cells[-1]) == numbers[-1]
            continue
        first = next(i for i, c in enumerate(cells) if c != "fail") if row != 17 else 7
        placed = [str(c) for c in cells[first:] if c not in ("pass", "fail")]
        for i, (got, want) in enumerate(zip(placed, numbers, strict=False)):
            if got != want:
                changed.append((row, t.GENERAL_WILL.columns[first + i], want, got))
    assert changed == [(6, "31-35", "4", "5")]
    assert ("6", "31-35") in t.REBUILT_CELLS


@pytest.mark.parametrize(
    ("routed", "brigades", "cell"),
    [
        (0, 12, "pass"),  # nothing routed: the table starts at 1
        (1, 5, 6), (2, 10, 4), (5, 10, 0), (6, 10, "fail"),
        (1, 16, "pass"), (7, 15, 0), (8, 15, "fail"),
        (9, 20, 0), (11, 25, 0), (13, 30, 0), (14, 35, 0), (16, 40, 0), (17, 40, "fail"),
        (4, 3, 1),  # fewer than 5 brigades: the first column
        (4, 52, 6),  # more than 40: the last column
        (18, 40, "fail"),  # beyond the last row
    ],
)  # fmt: skip
def test_general_will_cell(routed: int, brigades: int, cell: object) -> None:
    assert t.general_will_cell(routed, brigades)[0] == cell


def test_general_will_table_round_trips_as_a_parameter() -> None:
    value = t.grid_to_json(t.GENERAL_WILL)
    assert t.grid_from_json("general_will_table", value, t.GENERAL_WILL) == t.GENERAL_WILL


# -- the tables are what the rules read ------------------------------------------------------


def test_changing_a_table_changes_play(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules_core.rulesets.pike_and_shot import combat_rolls
    from rules_core.tables import GridTable
    from tests.rules_core.rulesets.pike_and_shot.helpers import at

    state = at("combat", royalists4=(20.0, 20.0, 0.0), parliament3=(20.0, 24.5, 180.0))
    foot, enemy = state.unit("royalists4"), state.unit("parliament3")
    assert combat_rolls.dice_count(foot, enemy, "shooting")[0] == 2
    rows = dict(t.COMBAT_DICE.rows)
    rows["infantry_brigade"] = (3.0, 4, 2, "changed")
    monkeypatch.setattr(
        t, "COMBAT_DICE", GridTable(t.COMBAT_DICE.name, t.COMBAT_DICE.columns, rows)
    )
    assert combat_rolls.dice_count(foot, enemy, "shooting")[0] == 4
    saves = dict(t.SAVING_DICE.rows)
    saves["brigade"] = (5, "changed")
    monkeypatch.setattr(
        t, "SAVING_DICE", GridTable(t.SAVING_DICE.name, t.SAVING_DICE.columns, saves)
    )
    spec = combat_rolls.save_roll(state, enemy, foot, "shooting", {})
    assert spec is not None and spec.dice == 5
    monkeypatch.setattr(t, "HIT_ON", 6)
    spec = combat_rolls.attack_roll(foot, enemy, "shooting")
    assert spec is not None and spec.target == 6


def test_the_rules_carry_every_table_and_parameter() -> None:
    from rules_core.rulesets.pike_and_shot import cohesion, combat
    from tests.rules_core.rulesets.pike_and_shot.helpers import RULES

    assert all(RULES.tables[table.name] is table for table in t.ALL)
    names = [p.name for p in RULES.parameters]
    assert len(names) == len(set(names))
    for parameter in (*combat.PARAMETERS, *cohesion.PARAMETERS):
        assert parameter.name in names
    assert {topic.id for topic in combat.TOPICS} <= {topic.id for topic in RULES.topics}
