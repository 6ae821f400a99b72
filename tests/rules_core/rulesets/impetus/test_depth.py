"""The depth bonus row by row with the sheet's numbers: pikes for every rear rank unit in line
(one, two, three, a large unit's own rear), the flat rows for any unit they name (large or
not), none for a large unit contacted in flank or rear nor for pikes in difficult terrain."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core.codec import Json
from rules_core.dice import Modifier
from rules_core.rulesets.impetus import melee_dice
from rules_core.state import BattleState
from tests.rules_core.rulesets.impetus.combat_helpers import add, at

Entry = dict[str, Json]
PIKE: Entry = {"type": "FP", "weapons": "pike"}
FRONT_EDGE = 10.0  # where the fighting unit's front meets the enemy's


def _place(state: BattleState, key: str, side: str, entry: Entry, front: float,
           facing: float) -> tuple[BattleState, float]:  # fmt: skip
    """``key`` added with its front edge at y ``front`` facing north (0) or south (180); the
    state and the y of its rear edge."""
    group = "romans_caesar" if side == "romans" else "gauls_vercingetorix"
    state = add(state, key, side, group, (10.0, 0.0, facing), **entry)
    unit = state.unit(key)
    back = unit.depth if facing == 0 else -unit.depth
    state = state.with_unit(replace(unit, y=front - back / 2))
    return state, front - back


def _column(front: Entry, *rear: Entry, enemy: str = "CM") -> BattleState:
    """``front`` facing north with the ``rear`` units in line behind it, each touching the one
    before; an enemy of type ``enemy`` touching its front."""
    state, edge = _place(at("charge"), "front", "romans", front, FRONT_EDGE, 0)
    for index, entry in enumerate(rear, start=1):
        state, edge = _place(state, f"rank{index}", "romans", entry, edge, 0)
    state, _ = _place(state, "enemy", "gauls", {"type": enemy}, FRONT_EDGE, 180)
    return state


def _depth(state: BattleState, difficult: bool = False) -> list[Modifier]:
    return melee_dice.depth(state, state.unit("front"), state.unit("enemy"), difficult)


@pytest.mark.parametrize("ranks", [1, 2, 3])
def test_pikes_count_every_rear_rank_unit_in_line(ranks: int) -> None:
    vs_mounted = _column(PIKE, *[PIKE] * ranks, enemy="CM")
    words = f"({ranks} rear rank{'s' if ranks > 1 else ''})"
    assert _depth(vs_mounted) == [
        Modifier(2 * ranks, f"Pikes vs Mounted for each rear rank unit {words}")
    ]
    vs_foot = _column(PIKE, *[PIKE] * ranks, enemy="FP")
    assert _depth(vs_foot) == [
        Modifier(1 * ranks, f"Pikes vs Foot for each rear rank unit {words}")
    ]
    assert _depth(vs_mounted, difficult=True) == []


def test_a_rank_that_is_not_pikes_ends_the_line() -> None:
    assert _depth(_column(PIKE)) == []
    assert _depth(_column(PIKE, {"type": "FP"}, PIKE)) == []
    state = _column(PIKE, PIKE, {"type": "FP"}, PIKE)
    assert _depth(state) == [Modifier(2, "Pikes vs Mounted for each rear rank unit (1 rear rank)")]


def test_a_rank_not_touching_is_not_in_line() -> None:
    state = _column(PIKE, PIKE, PIKE)
    state = state.with_unit(replace(state.unit("rank2"), y=state.unit("rank2").y - 0.5))
    assert _depth(state) == [Modifier(2, "Pikes vs Mounted for each rear rank unit (1 rear rank)")]


def test_a_large_pike_unit_counts_its_own_rear_rank_and_every_unit_behind() -> None:
    large = {**PIKE, "large": True}
    assert _depth(_column(large)) == [
        Modifier(2, "Pikes vs Mounted for each rear rank unit (1 rear rank)")
    ]
    assert _depth(_column(large, PIKE, PIKE, enemy="FL")) == [
        Modifier(3, "Pikes vs Foot for each rear rank unit (3 rear ranks)")
    ]
    # a large unit behind is one rear rank unit, and the line goes on behind it
    assert _depth(_column(PIKE, large, PIKE)) == [
        Modifier(4, "Pikes vs Mounted for each rear rank unit (2 rear ranks)")
    ]


FLAT_ROWS = [
    ({"type": "FP", "weapons": "long_spear"}, "CM", 2, "FP with Long spears/Polearm vs. Mounted"),
    ({"type": "FP", "weapons": "polearm"}, "CP1", 2, "FP with Long spears/Polearm vs. Mounted"),
    ({"type": "FP", "weapons": "long_spear"}, "FL", 1, "FP with Long spears/Polearm vs. Foot"),
    ({"type": "FP", "weapons": "polearm"}, "FP", 1, "FP with Long spears/Polearm vs. Foot"),
    ({"type": "FP", "impetuous": True}, "CM", 1, "Impetuous FP or FL vs Mounted or Foot"),
    ({"type": "FL", "impetuous": True}, "FP", 1, "Impetuous FP or FL vs Mounted or Foot"),
    ({"type": "CP1"}, "FP", 2, "CP vs Foot"),
    ({"type": "CP2"}, "FL", 2, "CP vs Foot"),
]


@pytest.mark.parametrize("large", [False, True])
@pytest.mark.parametrize(("entry", "enemy", "dice", "row"), FLAT_ROWS)
def test_the_flat_rows_apply_to_whom_the_sheet_names(
    entry: Entry, enemy: str, dice: int, row: str, large: bool
) -> None:
    state = _column({**entry, "large": large}, enemy=enemy)
    assert _depth(state) == [Modifier(dice, row)]


NO_ROW = [
    ({"type": "CP1"}, "CM"),  # CP vs Foot only
    ({"type": "FL"}, "FP"),  # not impetuous
    ({"type": "FP"}, "CM"),
    ({"type": "CM", "impetuous": True}, "FP"),  # impetuous, but not FP or FL
]


@pytest.mark.parametrize(("entry", "enemy"), NO_ROW)
def test_units_no_row_names_get_no_depth(entry: Entry, enemy: str) -> None:
    assert _depth(_column(entry, enemy=enemy)) == []
    assert _depth(_column({**entry, "large": True}, enemy=enemy)) == []


def test_only_a_large_unit_loses_depth_when_contacted_in_flank() -> None:
    spears: Entry = {"type": "FP", "weapons": "long_spear"}
    large: Entry = {**spears, "large": True}
    row = [Modifier(1, "FP with Long spears/Polearm vs. Foot")]
    for entry, expected in ((spears, row), (large, [])):
        state = _column(entry, enemy="FP")
        front = state.unit("front")
        # the enemy turned to face east, touching the front unit's left edge
        beside = replace(state.unit("enemy"), x=front.x - 1.5, y=front.y, facing=90)
        state = state.with_unit(beside)
        assert melee_dice.flanked_by(state, front, beside) is not None
        assert _depth(state) == expected
