"""The distance and manoeuvre tables, every row and band with the sheet's numbers, and
interpenetration rule by rule."""

from __future__ import annotations

import pytest

from rules_core.rulesets.impetus import interpenetration as ip
from rules_core.rulesets.impetus import movement_tables as mt
from rules_core.rulesets.impetus.profiles import TYPES, unit_from_entry
from rules_core.state import Unit

# The sheet's distance table (Normal, Charge, Broken, Diff.), per troop type, with the
# "W, Art, CGP/CF" row's Broken cell "2H+D/NO" read as 2H+D for W and NO for the others.
SHEET = {
    "FP": ("2H", "2H", "2H+D", "1H+D"),
    "EL": ("2H", "2H", "2H+D", "1H+D"),
    "T": ("2H", "2H", "2H", "1H+D"),
    "FL": ("2H", "2H", "2H", "2H"),
    "S": ("3H", "3H", "3H", "3H"),
    "W": ("2H", "2H", "2H+D", "NO"),
    "ART": ("2H", "2H", "NO", "NO"),
    "CGP": ("2H", "2H", "NO", "NO"),
    "CF": ("2H", "2H", "NO", "NO"),
    "CP1": ("2H", "3H", "2H+D", "1H+D"),
    "CP2": ("3H", "4H", "2H+D", "1H+D"),
    "CM": ("3H", "4H", "2H+D", "1H+D"),
    "CGL": ("3H", "3H", "2H+D", "NO"),
    "CL": ("4H", "4H", "2H+D", "1H+D"),
}
COLUMNS = ("normal", "charge", "broken", "difficult")


def unit(kind: str, **extra: object) -> Unit:
    return unit_from_entry({"name": kind, "type": kind, **extra}, "u1", "red", "red_g")  # type: ignore[dict-item]


@pytest.mark.parametrize("kind", TYPES)
def test_every_troop_type_reads_its_row(kind: str) -> None:
    for column, printed in zip(COLUMNS, SHEET[kind], strict=True):
        assert mt.cell(unit(kind), column) == printed


def test_impetuous_fl_charge_three_h() -> None:
    wild = unit("FL", impetuous=True)
    assert [mt.cell(wild, c) for c in COLUMNS] == ["2H", "3H", "2H", "2H"]
    assert mt.distance(wild, "charge") == 3.0 and mt.distance(unit("FL"), "charge") == 2.0


def test_cells_read_as_distance_and_disorder() -> None:
    assert mt.parse("2H+D") == (2.0, True)
    assert mt.parse("1H+D") == (1.0, True)
    assert mt.parse("3H") == (3.0, False)
    assert mt.parse("NO") == (None, False)
    assert mt.distance(unit("ART"), "broken") == 0.0


def test_who_may_make_each_manoeuvre() -> None:
    fp, cl, cm, s = unit("FP"), unit("CL"), unit("CM"), unit("S")
    for kind in ("forward", "wheel"):
        assert mt.may_make(fp, kind, disordered=True)
    for kind in ("sideways", "oblique", "backwards", "about_face"):
        assert mt.may_make(fp, kind, disordered=False)
        assert not mt.may_make(fp, kind, disordered=True)
    for mover in (s, cl, cm):
        assert mt.may_make(mover, "backwards", disordered=True)
    assert mt.needs_dt(fp, "about_face") and not mt.needs_dt(s, "about_face")
    assert not mt.needs_dt(cl, "about_face") and not mt.needs_dt(fp, "forward")


def test_distances_of_manoeuvres() -> None:
    cm, lu, el = unit("CM"), unit("FP", large=True), unit("EL")
    assert mt.allowance(cm, "forward") == 3.0 and mt.allowance(cm, "sideways") == 3.0
    for mover in (lu, el):
        assert mt.allowance(mover, "sideways") == 1.0
        assert mt.allowance(mover, "backwards") == 1.0
        assert mt.allowance(mover, "forward") == 2.0
    assert mt.allowance(cm, "about_face") == 0.0


def test_group_moves() -> None:
    fp = unit("FP")
    assert mt.group_may(fp, "forward") and mt.group_may(fp, "wheel")
    assert not mt.group_may(fp, "sideways") and not mt.group_may(fp, "backwards")
    assert mt.group_may(unit("CM"), "sideways") and not mt.group_may(unit("CM"), "backwards")
    assert mt.group_may(unit("S"), "backwards") and mt.group_may(unit("CL"), "backwards")
    assert not mt.group_may(unit("CL"), "about_face")


def test_moving_backwards_disorders_all_but_s_non_impetuous_fl_and_mounted() -> None:
    assert mt.disorders(unit("FP"), "backwards")
    assert mt.disorders(unit("FL", impetuous=True), "backwards")
    assert mt.disorders(unit("T"), "backwards")
    for kind in ("S", "FL", "CM", "CL", "EL"):
        assert not mt.disorders(unit(kind), "backwards")
    assert not mt.disorders(unit("FP"), "forward")


def test_second_and_further_moves() -> None:
    fp = unit("FP")
    assert mt.further_allowed(fp, "forward", disordered=False)
    assert not mt.further_allowed(fp, "forward", disordered=True)
    assert mt.further_allowed(fp, "wheel", disordered=False)
    assert mt.further_allowed(fp, "backwards", disordered=False)
    assert not mt.further_allowed(fp, "sideways", disordered=False)
    for kind in ("S", "CL", "CM"):
        assert mt.further_allowed(unit(kind), "sideways", disordered=False)
    assert not mt.further_allowed(unit("S"), "about_face", disordered=False)


def test_notes_are_kept() -> None:
    assert mt.has_note("about_face", "first_and_only_move")
    assert mt.has_note("backwards", "no_enemy_contact")
    assert mt.has_note("wheel", "art_a_c_45_one_move")
    assert mt.has_note("oblique", "forward_only")


def test_voluntary_interpenetration_rule_by_rule() -> None:
    fp, s, cp = unit("FP"), unit("S"), unit("CP1")
    # 1) S by and through any
    assert ip.voluntary(fp, s) and ip.voluntary(s, fp) and ip.voluntary(cp, s)
    # 2) ART, single T and non-impetuous FL by any; they pass non-impetuous foot
    for passable in (unit("ART"), unit("T"), unit("FL")):
        assert ip.voluntary(cp, passable)
    assert not ip.voluntary(cp, unit("FL", impetuous=True))
    assert ip.voluntary(unit("T"), fp) and not ip.voluntary(unit("T"), unit("FP", impetuous=True))
    # 3) W by any but EL and W; W through S, ART, T, non-impetuous FL only
    assert ip.voluntary(fp, unit("W")) and not ip.voluntary(unit("EL"), unit("W"))
    assert not ip.voluntary(unit("W"), unit("W")) and not ip.voluntary(unit("W"), fp)
    assert ip.voluntary(unit("W"), unit("T"))
    # 4) CL by and through any mounted but EL
    assert ip.voluntary(cp, unit("CL")) and ip.voluntary(unit("CL"), cp)
    assert not ip.voluntary(unit("EL"), unit("CL")) and not ip.voluntary(unit("CL"), unit("EL"))
    assert not ip.voluntary(fp, unit("CL")) and not ip.voluntary(cp, fp)


def test_involuntary_interpenetration() -> None:
    fp, cp = unit("FP"), unit("CP1")
    assert ip.retreat_through(unit("T"), fp) == "pass"
    assert ip.retreat_through(unit("CL"), fp) == "pass"
    assert ip.retreat_through(unit("FL"), fp) == "pass"
    assert ip.retreat_through(cp, fp) == "push"
    assert ip.retreat_through(cp, unit("W")) == "pass"  # rule 3 allows it
    assert ip.retreat_through(unit("EL"), unit("W")) == "push_no_disorder"
    assert ip.pursuit_may_pass(cp, unit("S")) and not ip.pursuit_may_pass(cp, fp)


def test_the_artillery_note_limits_classes_a_and_c_only() -> None:
    note = "ART A or C: Maximum of 45° and 1 move only"
    for grade in ("A", "C"):
        gun = unit("ART", missile="artillery", missile_class=grade)
        assert mt.most_moves(gun) == (1, note)
        assert mt.widest_wheel(gun) == (45.0, note)
    assert mt.most_moves(unit("ART", missile="artillery", missile_class="B")) is None
    assert mt.most_moves(unit("FP")) is None and mt.widest_wheel(unit("CL")) is None
