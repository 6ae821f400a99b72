"""The heroic-age tables drive play: a cell changed in a table changes what the rules do."""

from __future__ import annotations

import pytest

from rules_core.codec import Json
from rules_core.orders import Order
from rules_core.rulesets.heroic_age import charges, combat, missiles, movement, tables
from rules_core.rulesets.heroic_age.status import AGGRESSION, DPS
from rules_core.tables import Band, GridTable, ScoreTable
from tests.rules_core.rulesets.heroic_age.helpers import at, context, status


def swapped(table: GridTable, row: str, column: str, value: Json) -> GridTable:
    """A copy of a table with one cell changed."""
    index = table.columns.index(column)
    rows = dict(table.rows)
    cells = rows[row]
    rows[row] = (*cells[:index], value, *cells[index + 1 :])
    return GridTable(table.name, table.columns, rows)


@pytest.mark.parametrize(
    ("row", "unit", "changes", "charge"),
    [("blood_lust", "danes1", {}, False), ("ready_for_battle", "saxons2", {}, False),
     ("shaken", "saxons2", {"aggression": "shaken"}, False),
     ("charged", "saxons2", {"charged": True}, True),
     ("following_up", "saxons2", {"following_up": True}, False),
     ("champion_or_standard", "danes1", {}, False), ("dps", "saxons2", {"dps": 1}, True)],
)  # fmt: skip
def test_each_combat_dice_modifier_is_read_from_the_table(
    monkeypatch: pytest.MonkeyPatch, row: str, unit: str, changes: dict[str, Json], charge: bool
) -> None:
    state = status(at("combat", danes1=(10, 10, 180), saxons2=(10, 7, 0)), unit, **changes)
    monkeypatch.setattr(
        tables, "COMBAT_MODIFIERS", swapped(tables.COMBAT_MODIFIERS, row, "dice", 77)
    )
    found = [m.value for m in combat.dice_modifiers(state, state.unit(unit), charge)]
    assert 77 in found


def test_a_flank_friend_counts_from_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    state = at("combat", danes1=(10, 10, 180), saxons2=(10, 7, 0), saxons4=(13.75, 7, 0))
    mods = combat.dice_modifiers(state, state.unit("saxons2"), False)
    assert any(m.reason.startswith("+2 Each unengaged friendly stand") for m in mods)
    monkeypatch.setattr(
        tables, "COMBAT_MODIFIERS", swapped(tables.COMBAT_MODIFIERS, "flank_stand", "dice", 5)
    )
    mods = combat.dice_modifiers(state, state.unit("saxons2"), False)
    assert any(m.value == 10 for m in mods)  # two ranks touching, 5 each


def test_combat_dice_per_stand_come_from_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    state = at("combat", danes1=(10, 10, 180), saxons2=(10, 7, 0))
    monkeypatch.setattr(tables, "COMBAT_DICE", swapped(tables.COMBAT_DICE, "B", "dice", 9))
    ctx = context(state, [1] * 60)
    combat._roll_unit(ctx, ctx.state.unit("saxons2"), False)
    assert "2 stands x 9 for grade B" in str(ctx.events[0])


def test_control_test_modifiers_come_from_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    unit = at("movement", danes1=(10, 10, 0)).unit("danes1")
    table = swapped(tables.CONTROL_MODIFIERS, "above_present", "modifier", 4)
    monkeypatch.setattr(tables, "CONTROL_MODIFIERS", swapped(table, "a_grade", "modifier", 3))
    assert [m.value for m in movement.control_modifiers(unit, 1)] == [8, 3]


def test_missile_dice_per_stand_and_halving_come_from_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = at("missiles", saxons5=(10, 5, 0), danes3=(10, 7.6, 180))
    table = swapped(tables.MISSILE, "dice_per_stand", "value", 3)
    monkeypatch.setattr(tables, "MISSILE", swapped(table, "halved", "value", 0.25))
    base, mods = missiles.dice_for(state, state.unit("saxons5"), state.unit("danes3"), ())
    assert base == 12 and base + sum(m.value for m in mods) == 3


def test_rest_distances_come_from_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    state = status(at("movement", saxons1=(10, 5, 0), danes2=(10, 14, 180)), "saxons1", dps=2)
    ctx = context(state)
    movement.resolve(ctx)
    assert DPS.of(ctx.state.unit("saxons1")) == 1
    monkeypatch.setattr(tables, "REST", swapped(tables.REST, "C", "beyond", 20.0))
    ctx = context(state)
    movement.resolve(ctx)
    assert DPS.of(ctx.state.unit("saxons1")) == 2


def test_combat_result_levels_come_from_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    state = at("combat", saxons1=(10, 5, 0))
    monkeypatch.setattr(
        tables, "RESULT_EFFECTS", swapped(tables.RESULT_EFFECTS, "victory", "levels", 1)
    )
    ctx = context(state)
    combat.apply_result(ctx, ["saxons1"], "victory", "victory", False, ["danes1"])
    assert AGGRESSION.of(ctx.state.unit("saxons1")) == "ready for battle"


def test_fatigue_bands_come_from_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    state = at("movement", saxons2=(10, 5, 0))
    every = ScoreTable("Fatigue", (Band(1, 6, "dp", "every die"),))
    monkeypatch.setattr(tables, "FATIGUE", every)
    ctx = context(state, [2], [Order("saxons2", "move", {"to": [10, 9]})])
    movement.resolve(ctx)
    assert DPS.of(ctx.state.unit("saxons2")) == 1


def test_the_charge_test_bands_come_from_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    state = at("charges", saxons1=(10, 5, 0), danes2=(10, 8.5, 180))
    order = Order("saxons1", "charge", {"target": "danes2"})
    always = ScoreTable("Charge test", (Band(None, None, "charge", "always"),))
    monkeypatch.setattr(tables, "CHARGE_TEST", always)
    ctx = context(state, [1], [order])
    charges.resolve(ctx, 2.0)
    assert DPS.of(ctx.state.unit("saxons1")) == 0 and ctx.state.unit("saxons1").y > 5
