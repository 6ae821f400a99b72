"""The two terrain tables of the Impetus sheet, row by row, score by score."""

from __future__ import annotations

import pytest

from rules_core.rulesets.impetus.terrain_tables import (
    FEATURES,
    FOOT,
    FOOT_TABLE,
    MOUNTED,
    MOUNTED_TABLE,
    choices,
    row_choices,
)
from rules_core.state import TERRAIN_KINDS
from rules_core.tables import Band

# What each row of the sheet offers, score by score (2D6: 2 to 12).
FOOT_ROWS = {
    (2, 3, 4): ["none"],
    (5, 6, 7): ["small_brk", "small_dft", "small_gentle_hill"],
    (8, 9): ["none", "road", "small_dft", "large_dft"],
    (10, 11): ["large_brk", "large_dft", "small_imp", "large_imp"],
    (12,): ["none", "river", "village"],
}
MOUNTED_ROWS = {
    (2, 3, 4): ["large_brk"],
    (5, 6): ["none", "road", "small_gentle_hill", "large_gentle_hill", "small_brk"],
    (7, 8, 9): ["none", "small_dft", "large_dft", "small_imp", "large_imp"],
    (10, 11): ["none", "bridge", "ford", "move_enemy"],
    (12,): ["remove_enemy"],
}


@pytest.mark.parametrize(
    ("table", "rows"), [(FOOT, FOOT_ROWS), (MOUNTED, MOUNTED_ROWS)], ids=["foot", "mounted"]
)
def test_every_score_gives_the_sheets_row(
    table: str, rows: dict[tuple[int, ...], list[str]]
) -> None:
    seen = []
    for scores, keys in rows.items():
        for score in scores:
            assert [f.key for f in row_choices(table, score)] == keys, (table, score)
            seen.append(score)
    assert seen == list(range(2, 13))


def test_rows_read_as_printed() -> None:
    assert [b.scores for b in FOOT_TABLE.bands] == ["2-4", "5-7", "8-9", "10-11", "12"]
    assert [b.scores for b in MOUNTED_TABLE.bands] == ["2-4", "5-6", "7-9", "10-11", "12"]
    assert FOOT_TABLE.lookup(6).row == "5-7: Small Brk, Dft, Gentle Hill"
    assert MOUNTED_TABLE.lookup(11).row == "10-11: None, Bridge, Ford, can move enemy terrain"


def test_features_are_terrain_of_known_kinds() -> None:
    for feature in FEATURES.values():
        assert feature.kind is None or feature.kind in TERRAIN_KINDS
    assert FEATURES["large_dft"].grade == "difficult"
    assert FEATURES["small_brk"].kind == "rough"
    assert FEATURES["large_imp"].kind == "impassable"
    assert FEATURES["road"].linear and FEATURES["river"].linear
    assert FEATURES["ford"].crossing and not FEATURES["village"].crossing


def test_a_changed_cell_changes_the_choices() -> None:
    assert [f.key for f in choices(Band(2, 4, "Large Imp, Village"))] == ["large_imp", "village"]
    with pytest.raises(ValueError, match="unknown feature"):
        choices(Band(2, 4, "Castle"))
    with pytest.raises(ValueError, match="no size"):
        choices(Band(2, 4, "Brk"))
