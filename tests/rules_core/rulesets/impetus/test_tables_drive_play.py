"""The rules read the combat tables at the time of use: change a cell and the ruling changes."""

from __future__ import annotations

import pytest

from rules_core.rulesets.impetus import (
    cohesion,
    discipline,
    melee_dice,
    retreat,
    shooting,
    tables,
)
from rules_core.rulesets.impetus.status import KILLED
from rules_core.tables import Band, GridTable, ScoreTable
from tests.rules_core.rulesets.impetus.combat_helpers import (
    PARAMS,
    at,
    context,
    detach,
    profile,
    status,
)


def _with(table: GridTable, row: str, column: str, value: object) -> GridTable:
    cells = list(table.rows[row])
    cells[table.columns.index(column)] = value
    return GridTable(table.name, table.columns, {**table.rows, row: tuple(cells)})


def test_the_shooting_table_cell_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    state = detach(at("shoot", romans3=(10, 5, 0), gauls2=(10, 8.5, 180)))
    patched = _with(tables.SHOOTING, "composite_bow.B", "short_foot", 3)
    monkeypatch.setattr(tables, "SHOOTING", patched)
    spec = shooting.shot_roll(state, state.unit("romans3"), state.unit("gauls2"))
    assert spec.dice == 4 + 3


def test_a_situational_modifier_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    state = status(detach(at("shoot", romans3=(10, 5, 0), gauls2=(10, 8.5, 180))), "romans3",
                   disordered=True)  # fmt: skip
    monkeypatch.setattr(tables, "SHOOTING_MODIFIERS",
                        _with(tables.SHOOTING_MODIFIERS, "disordered", "dice", -3))  # fmt: skip
    spec = shooting.shot_roll(state, state.unit("romans3"), state.unit("gauls2"))
    assert spec.dice == 4 - 3


def test_a_discipline_modifier_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    state = detach(at("move", romans4=(10, 5, 0)))
    before, _ = discipline.target_of(state, state.unit("romans4"), "rally", PARAMS)
    monkeypatch.setattr(tables, "DT_MODIFIERS",
                        _with(tables.DT_MODIFIERS, "rally.mounted", "modifier", 5))  # fmt: skip
    after, _ = discipline.target_of(state, state.unit("romans4"), "rally", PARAMS)
    assert after - before == 5 - 2


def test_the_impact_reduction_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    state = detach(at("charge", romans2=(10, 5, 0), gauls2=(10, 6.0, 180)))
    state = profile(state, "romans2", weapons=["pike"])
    monkeypatch.setattr(tables, "IMPACT_REDUCED",
                        _with(tables.IMPACT_REDUCED, "foot_v_pole", "max", 1))  # fmt: skip
    bonus, _ = melee_dice.impact_bonus(state, state.unit("gauls2"), state.unit("romans2"))
    assert bonus == 1


def test_the_retreat_table_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    state = detach(at("charge", romans2=(10, 5, 0), gauls2=(10, 6.0, 180)))
    monkeypatch.setattr(tables, "RETREAT_PURSUIT",
                        _with(tables.RETREAT_PURSUIT, "3", "retreat_foot", 4))  # fmt: skip
    ctx = context(state, [3])
    assert retreat.retreat(ctx, state.unit("gauls2"), state.unit("romans2")) == 4.0


def test_the_risk_table_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    state = at("shoot", gauls4=(10, 10, 180))
    always = ScoreTable("Risk for general - shooting", (Band(1, 6, "killed", "killed"),))
    monkeypatch.setattr(tables, "RISK_SHOOTING", always)
    ctx = context(state, [6, 1])
    cohesion.test(ctx, state.unit("gauls4"), 1, [], cohesion.SHOOTING, "arrows")
    assert KILLED.of(ctx.state.leader("gauls_g_lucterius"))
