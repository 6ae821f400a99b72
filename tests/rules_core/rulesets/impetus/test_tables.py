"""Every combat table of the Impetus sheet, row by row and band by band, with the sheet's
numbers (the sheet's own lines are quoted here and read cell by cell)."""

from __future__ import annotations

import pytest

from rules_core.rulesets.impetus import tables as t

# The sheet's SHOOTING TABLE, as printed: weapon, class, 4H Foot, 4H Mtd, 8H Foot, 8H Mtd, 12H.
SHEET_SHOOTING = """
LONG BOW	A	+1	+2	0	+1	-
LONG BOW	B	0	+1	-1	0	-
SHORT BOW	A	0	+1	-1	0	-
SHORT BOW	B	-1	0	-3	-2	-
COMPOSITE BOW	A	+1	+2	0	+1	-
COMPOSITE BOW	B	0	+1	-1	0	-
COMPOSITE BOW	C	-2	-1	-3	-2	-
CROSSBOWS	A	+1	+2	-1	0	-
CROSSBOWS	B	0	+1	-2	-1	-
HANDGUN		-1	0	-	-	-
ARQUEBUSIERS	A	+1	+2	-1	0	-
ARQUEBUSIERS	B	0	+1	-2	-1	-
MUSKET		+1	+2	0	+1	-
JAVELIN		0	+1	-	-	-
SLING		0	+1	-1	0	-
ARTILLERY	A	+4	+4	+3	+3	+2
ARTILLERY	B	+3	+3	+2	+2	0
ARTILLERY	C	+3	+3	+2	+2	+1
VARIOUS WEAPONS		-1	-1	-	-	-
"""
WEAPON_KEYS = {
    "LONG BOW": "long_bow", "SHORT BOW": "short_bow", "COMPOSITE BOW": "composite_bow",
    "CROSSBOWS": "crossbow", "HANDGUN": "handgun", "ARQUEBUSIERS": "arquebus", "MUSKET": "musket",
    "JAVELIN": "javelin", "SLING": "sling", "ARTILLERY": "artillery", "VARIOUS WEAPONS": "various",
}  # fmt: skip


def _number(cell: str) -> int | None:
    return None if cell == "-" else int(cell)


def _sheet_rows() -> list[tuple[str, str, list[int | None]]]:
    rows = []
    for line in SHEET_SHOOTING.strip().splitlines():
        weapon, grade, *cells = line.split("\t")
        rows.append((weapon, grade, [_number(c) for c in cells]))
    return rows


@pytest.mark.parametrize(("weapon", "grade", "cells"), _sheet_rows())
def test_shooting_table_row_by_row(weapon: str, grade: str, cells: list[int | None]) -> None:
    row = t.shooting_row(WEAPON_KEYS[weapon], grade)
    columns = ("short_foot", "short_mounted", "long_foot", "long_mounted", "extreme_any")
    assert [t.cell(t.SHOOTING, row, c) for c in columns] == cells
    assert t.text(t.SHOOTING, row) == f"{weapon} {grade}".strip()


def test_shooting_table_has_no_other_rows() -> None:
    assert len(t.SHOOTING.rows) == len(_sheet_rows())
    with pytest.raises(KeyError):
        t.shooting_row("long_bow", "C")


@pytest.mark.parametrize(
    ("distance", "band"),
    [(0.5, "short"), (4.0, "short"), (4.1, "long"), (8.0, "long"), (8.5, "extreme"),
     (12.0, "extreme"), (12.1, None)],
)  # fmt: skip
def test_range_bands_4h_8h_12h(distance: float, band: str | None) -> None:
    found = t.range_band(distance)
    assert (found[0] if found else None) == band


def test_columns_by_band_and_target() -> None:
    assert t.shooting_column("short", True) == "short_mounted"
    assert t.shooting_column("long", False) == "long_foot"
    assert t.shooting_column("extreme", True) == "extreme_any"
    assert t.shooting_column("extreme", False) == "extreme_any"


def _signed(table: t.GridTable, column: str) -> dict[str, int]:
    return {key: int(str(row[table.columns.index(column)])) for key, row in table.rows.items()}


def test_shooting_situational_modifiers() -> None:
    assert _signed(t.SHOOTING_MODIFIERS, "dice") == {
        "moved": -1, "disordered": -1, "indirect": -2, "light_target_far": -2,
        "light_target_short": -1, "cover": -1, "evaders": -1, "fortified": -2,
        "artillery_fortified": -1, "artillery_big_target": 2, "reaction": -1,
    }  # fmt: skip
    for key, (dice, sheet) in t.SHOOTING_MODIFIERS.rows.items():
        assert str(sheet).startswith(f"{dice:+d} " if dice > 0 else f"{dice} "), key
    assert "Halve dice if shooting from side or rear (except W)" in t.HALVE_FROM_SIDE


def test_cohesion_after_shooting() -> None:
    assert _signed(t.COHESION_SHOOTING, "modifier") == {
        "disordered": -1, "general": 1, "steady_target": 1, "short_light": 1,
        "long_longbow": 1, "long_other": 2, "defensive_guns": -1,
    }  # fmt: skip
    assert t.STEADY_TARGETS == ("FP", "CP1", "CGP", "CGL", "CF", "W")
    light = {"short_bow", "composite_bow", "handgun", "javelin", "various"}
    assert set(t.SHORT_LIGHT_WEAPONS) == light
    assert set(t.GUNS) == {"handgun", "arquebus", "musket"}


def test_discipline_test_modifiers() -> None:
    rows = {key: row[:2] for key, row in t.DT_MODIFIERS.rows.items()}
    assert rows == {
        "general_attached": ("generic", t.GENERAL),
        "outside_radius": ("generic", -1),
        "second_move.each_after_second": ("second_move", -1),
        "frenzy.fragmented": ("frenzy", -1),
        "reaction.disordered": ("reaction", -1),
        "defensive_fire.disordered": ("defensive_fire", -1),
        "defensive_fire.t": ("defensive_fire", 2),
        "defensive_fire.mounted": ("defensive_fire", -1),
        "close_ranks.multi_move": ("close_ranks", 1),
        "close_ranks.disordered": ("close_ranks", -1),
        "close_ranks.fp": ("close_ranks", 1),
        "countercharge.cm_cl": ("countercharge", 1),
        "countercharge.disordered": ("countercharge", -1),
        "rally.mounted": ("rally", 2),
        "rally.outside_radius": ("rally", -1),
        "evasion.general": ("evasion", t.GENERAL),
        "evasion.disordered": ("evasion", -1),
        "evasion.s_cl": ("evasion", 1),
        "evasion.from_foot": ("evasion", 1),
        "evasion.each_after_first": ("evasion", -1),
    }
    assert t.FIRST_PENALISED_MOVE == 3 and t.FIRST_PENALISED_EVADE == 2
    for _key, (test, _mod, _sheet) in t.DT_MODIFIERS.rows.items():
        assert test == "generic" or test in t.DT_KINDS


def test_impact_bonus_nullified_rows() -> None:
    assert list(t.IMPACT_NULLIFIED.rows) == [
        "exhausted", "foot_v_mounted", "mounted_v_steady", "el_v_light", "fortified", "rough",
        "fl_rough_v_light", "stakes",
    ]  # fmt: skip
    assert t.text(t.IMPACT_NULLIFIED, "exhausted") == "Charging unit is Exhausted"


def test_impact_bonus_reduced_rows() -> None:
    rows = {key: row[:2] for key, row in t.IMPACT_REDUCED.rows.items()}
    assert rows == {
        "foot_v_pole": (2, None),
        "cavalry_v_guard": (2, None),
        "not_fresh": (1, None),
        "closed_ranks": (None, -2),
    }
    assert t.NOT_FRESH_EXCEPT == ("CP1", "CP2", "CGP", "CF", "EL")


def test_melee_general_modifiers_depth_and_pilum() -> None:
    assert _signed(t.MELEE_MODIFIERS, "dice") == {
        "disordered": -1, "general": 1, "supported_flank": 1, "better_discipline": 1,
        "rough": -2, "cgp_v_infantry": 1, "new_melee": 1,
    }  # fmt: skip
    depth = {key: row[:2] for key, row in t.DEPTH.rows.items()}
    assert depth == {
        "pikes_v_mounted": (2, True),
        "pikes_v_foot": (1, True),
        "spears_v_mounted": (2, False),
        "spears_v_foot": (1, False),
        "impetuous_foot": (1, False),
        "cp_v_foot": (2, False),
    }
    assert t.PILUM.rows["pilum"][:2] == (2, 4)
    assert t.PILUM.rows["pbw"][:2] == (3, 3)
    assert t.SUPPORT_SHARE == 0.5


def test_cohesion_in_melee() -> None:
    assert _signed(t.COHESION_MELEE, "modifier") == {
        "disordered": -1, "flank_rear": -2, "cavalry_v_fp": -1, "closed_ranks": 1,
        "general": 1, "defending": 1,
    }  # fmt: skip


# The sheet's retreat and pursuit table, as printed (D6, Foot, Mtd., CL, Foot, Mtd., CL).
SHEET_DISTANCES = """
1	1H	1H	1H	-	-	-
2	1H	1H	2H	-	-	1H
3	1H	1H	2H	-	1H	1H
4	1H	2H	2H	1H	1H	2H
5	2H	2H	3H	1H	2H	2H
6	2H	2H	3H	2H	2H	3H
"""


@pytest.mark.parametrize("line", SHEET_DISTANCES.strip().splitlines())
def test_retreat_and_pursuit_by_d6(line: str) -> None:
    die, *cells = line.split("\t")
    want = [None if c == "-" else int(c.rstrip("H")) for c in cells]
    got = [
        t.distance_row(int(die), kind, troop)
        for kind in ("retreat", "pursuit")
        for troop in ("foot", "mounted", "cl")
    ]
    assert got == want
    assert t.IMPETUOUS_REROLL == "Impetuous can Reroll if fail"


@pytest.mark.parametrize(
    ("face", "shooting", "melee"),
    [(1, "safe", "safe"), (2, "safe", "safe"), (3, "safe", "safe"), (4, "safe", "safe"),
     (5, "safe", "killed"), (6, "killed_command_tests", "killed_command_tests")],
)  # fmt: skip
def test_risk_for_generals(face: int, shooting: str, melee: str) -> None:
    assert t.RISK_SHOOTING.lookup(face).result == shooting
    assert t.RISK_MELEE.lookup(face).result == melee
    assert t.RISK_TRIGGER == 6
