"""Every table of the Hail Caesar sheet, walked row by row with the numbers printed on it."""

from __future__ import annotations

import pytest

from rules_core.rulesets.hail_caesar import tables
from rules_core.rulesets.hail_caesar.measure import rate
from rules_core.rulesets.hail_caesar.profiles import unit_from_entry
from rules_core.rulesets.hail_caesar.tables import (
    BREAK_TEST_HAND_TO_HAND,
    BREAK_TEST_RANGED,
    RESULTS,
    break_tables,
    dice_after,
    modifier,
)

HOLD = "Hold your ground without penalty"
GG = "Give ground in good order together with supports"
GGD = "Give ground Disordered together with supports"
BIS = "Break if Shaken otherwise Give ground together with supports – all Disordered"

# Score: (Infantry, Cavalry, Skirmishers) as printed; (*) marks a rebuilt cell.
HAND_TO_HAND = {
    10: (HOLD, HOLD, HOLD),
    9: (HOLD, GG, "Give ground Disordered"),
    8: (HOLD, GG, "Break if Shaken otherwise Give ground Disordered"),
    7: (GG, GG, "Break"),
    6: (GG, GGD, "Break"),
    5: (GGD, BIS, "Break"),
    4: (BIS, BIS, "Break"),
    3: (BIS, "Break", "Break"),  # Cavalry (*) printed "Paral."
    2: ("Break", "Break", "Break"),
}
RETREAT_D = "Retreat Disordered"
BIS_R = "Break if Shaken otherwise retreat Disordered"
BIC = "Break if the unit has suffered any casualties otherwise retreat Disordered"
HOLD_OR = "Hold your ground Disordered or Retreat in good order"
RANGED = {
    10: (HOLD, HOLD, HOLD),
    9: (HOLD, HOLD, "Retreat in good order"),  # Infantry (*) garbled
    8: (HOLD, HOLD, RETREAT_D),  # Infantry (*) blank
    7: (HOLD, "Retreat in good order", RETREAT_D),
    6: (HOLD_OR, RETREAT_D, BIS_R),  # Skirmishers (*) blank
    5: (HOLD_OR, RETREAT_D, BIS_R),
    4: (RETREAT_D, BIS_R, BIC),
    3: (BIS_R, BIC, "Break"),  # Cavalry (*) garbled
    2: (BIC, "Break", "Break"),  # Cavalry (*) blank
}


@pytest.mark.parametrize(
    ("rows", "sheet"), [(BREAK_TEST_HAND_TO_HAND, HAND_TO_HAND), (BREAK_TEST_RANGED, RANGED)]
)
def test_break_tests_read_like_the_sheet(
    rows: list[object], sheet: dict[int, tuple[str, ...]]
) -> None:
    found = break_tables(rows, "Break test")
    for score, words in sheet.items():
        for troop, text in zip(tables.TROOP_TYPES, words, strict=True):
            assert found[troop].lookup(score).text == text, (score, troop)
    for troop in tables.TROOP_TYPES:  # the open-ended rows
        assert found[troop].lookup(12).text == HOLD
        assert found[troop].lookup(-3).text == sheet[2][tables.TROOP_TYPES.index(troop)]


def test_a_campaign_may_override_a_rebuilt_cell() -> None:
    rows = [list(row) for row in BREAK_TEST_HAND_TO_HAND if isinstance(row, list)]
    rows[7][3] = "break_if_shaken"  # Cavalry at 3
    assert break_tables(rows, "Break test")["cavalry"].lookup(3).text == BIS
    with pytest.raises(AssertionError, match="unknown break-test result"):
        break_tables([[10, None, "hold", "flee", "hold"]], "Break test")
    assert set(RESULTS) >= {
        c for row in BREAK_TEST_RANGED if isinstance(row, list) for c in row[2:]
    }


def test_moving_units_table() -> None:
    def unit(kind: str, formation: str = "") -> float:
        made = unit_from_entry({"name": "x", "type": kind}, "u", "a", "d")
        return rate(
            made if not formation else made.__class__(**{**made.__dict__, "formation": formation})
        )

    for kind in (
        "infantry",
        "elephants",
        "wagons",
        "baggage",
        "artillery",
        "cataphracts",
        "heavy_chariots",
    ):
        assert unit(kind) == 6, kind
    for kind in ("light_chariots", "cavalry"):
        assert unit(kind) == 9, kind
    assert unit("light_cavalry", "line") == 9 and unit("horse_archers", "line") == 9
    assert unit("light_cavalry", "open_order") == 12 and unit("horse_archers", "open_order") == 12


def test_unit_size_and_formation_tables() -> None:
    size = tables.UNIT_SIZE_HAND_TO_HAND
    assert [
        dice_after(7, size.lookup(k, "combat_value"))
        for k in ("large", "small", "tiny", "standard")
    ] == [9, 5, 1, 7]
    form = tables.FORMATION_HAND_TO_HAND
    assert [
        dice_after(7, form.lookup(k, "combat_value")) for k in ("column", "square", "buildings")
    ] == [1, 2, 2]
    assert dice_after(7, form.lookup("square", "combat_value"), faces=2) == 4
    ranged = tables.UNIT_SIZE_RANGED
    assert [
        dice_after(3, ranged.lookup(k, "ranged_value"))
        for k in ("large", "small", "tiny", "standard")
    ] == [4, 2, 1, 3]
    rform = tables.FORMATION_RANGED
    assert [
        dice_after(3, rform.lookup(k, "ranged_value"))
        for k in ("column", "testudo", "square", "buildings")
    ] == [0, 0, 1, 2]


def test_to_hit_and_morale_save_modifiers() -> None:
    h2h = tables.TO_HIT_HAND_TO_HAND
    assert {k: modifier(h2h, k) for k in h2h.rows} == {
        "charging": 1, "winning": 1, "uphill": 1,
        "shaken_or_disordered": -1, "open_order": -1, "flank_rear": -1,
    }  # fmt: skip
    assert {modifier(tables.TO_HIT_RANGED, k) for k in tables.TO_HIT_RANGED.rows} == {-1}
    assert len(tables.TO_HIT_RANGED.rows) == 9
    saves = tables.MORALE_SAVE_MODIFIERS
    assert {k: modifier(saves, k) for k in saves.rows} == {
        "square_or_wedge": 1, "cover": 1, "testudo": 2, "buildings": 2, "fortifications": 3,
        "light_artillery": -1, "medium_or_heavy_artillery": -2, "column": -2,
    }  # fmt: skip
    assert saves == tables.MORALE_SAVE_MODIFIERS_RANGED


def test_range_table() -> None:
    assert {k: tables.weapon_range(k) for k in tables.RANGE_TABLE.rows} == {
        "javelins": 6, "slings": 12, "bows": 18,
        "light_artillery": 24, "medium_artillery": 36, "heavy_artillery": 48,
    }  # fmt: skip
    assert tables.weapon_range("none") == 0


def test_order_test_bands_for_leadership_eight() -> None:
    table = tables.order_table(8, tables.ORDER_TEST_MOVES)
    assert [table.lookup(score).result for score in range(2, 13)] == [
        "3", "3", "3", "3", "3", "2", "1", "0", "0", "0", "0",
    ]  # fmt: skip
    assert table.lookup(8).row == "8: one move"
    assert table.lookup(6).row == "6-: three moves"
    assert tables.order_table(7, tables.ORDER_TEST_MOVES).lookup(8).row == (
        "8+: no move: the order fails"
    )


def test_blunder_table_walks_every_die() -> None:
    table = tables.blunder_table(tables.BLUNDER_TABLE)
    assert [table.lookup(face).result for face in range(1, 7)] == [
        "retreat:2", "back:1", "left:1", "right:1", "forward:1", "charge:3",
    ]  # fmt: skip


def test_every_table_is_exposed_by_name() -> None:
    found = tables.all_tables()
    assert "break_hand_to_hand_cavalry" in found and "break_ranged_skirmishers" in found
    assert found["break_hand_to_hand_cavalry"].lookup(3).text == "Break"  # type: ignore[union-attr]
