"""Hail Caesar's automatic retreats (give ground, retreat) are checked along their path."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules_core.context import Context
from rules_core.rulesets.hail_caesar import morale
from rules_core.rulesets.hail_caesar.rules import HailCaesarRules
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.state import BattleState
from rules_core.steps import Cursor


def placed(**where: tuple[float, float, float]) -> BattleState:
    """The sample battle with some units moved to (x, y, facing)."""
    state = replace(sample_battle(), cursor=Cursor(1, "main", "orders", ("rom", "gau")))
    for key, (x, y, facing) in where.items():
        state = state.with_unit(replace(state.unit(key), x=x, y=y, facing=facing))
    return state


def context(state: BattleState) -> Context:
    return Context(HailCaesarRules(), state, (), (), random.Random(0))


def test_a_unit_between_a_retreat_and_the_table_edge_stops_it_short() -> None:
    # The First Cohort (2" deep) retreats 6" south from y 6; the Third Cohort stands 2" behind
    # it, so it stops after 2" instead of running off the table.
    ctx = context(placed(r1=(20.0, 6.0, 0.0), r3=(20.0, 2.0, 0.0), g1=(20.0, 8.0, 180.0)))
    assert morale.fall_back(ctx, "r1", ctx.state.unit("g1"), 6.0, "retreats")
    assert ctx.state.unit("r1").y == pytest.approx(4.0, abs=0.003)


def test_a_unit_in_the_path_stops_a_retreat_that_would_end_beyond_it() -> None:
    # The Third Cohort is only 2" deep and 3" behind: a 12" retreat would clear it at its end.
    moves = {"r1": (20.0, 20.0, 0.0), "r3": (20.0, 15.0, 0.0), "r4": (50.0, 24.0, 0.0)}
    ctx = context(placed(**moves, g1=(20.0, 22.0, 180.0)))
    assert morale.fall_back(ctx, "r1", ctx.state.unit("g1"), 12.0, "retreats")
    assert ctx.state.unit("r1").y == pytest.approx(17.0, abs=0.003)


def test_a_clear_retreat_off_the_table_removes_the_unit() -> None:
    ctx = context(placed(r1=(20.0, 6.0, 0.0), r3=(40.0, 24.0, 0.0), g1=(20.0, 8.0, 180.0)))
    assert not morale.fall_back(ctx, "r1", ctx.state.unit("g1"), 6.0, "retreats")
    assert "r1" not in {unit.id for unit in ctx.state.units}
