"""Cohesion tests: the critical number, pass and fail, losses and routs, and the risk to an
attached general."""

from __future__ import annotations

from fractions import Fraction

from rules_core.dice import Modifier
from rules_core.events import UnitDestroyed
from rules_core.rulesets.impetus import cohesion
from rules_core.rulesets.impetus.status import DISORDERED, KILLED, LOST_VBU
from rules_core.shared_status import LOSSES
from tests.rules_core.rulesets.impetus.combat_helpers import (
    PARAMS,
    at,
    context,
    detach,
    logged_tests,
    status,
)


def test_critical_number_is_vbu_less_hits_plus_modifiers_at_least_one() -> None:
    assert cohesion.critical(6, 2, [Modifier(1, "x")], PARAMS) == 5
    assert cohesion.critical(3, 5, [], PARAMS) == 1


def test_bands_a_one_passes_a_six_fails() -> None:
    table = cohesion.table_for(1, PARAMS)
    assert [(b.low, b.high, b.result) for b in table.bands] == [(1, 1, "pass"), (2, 6, "fail")]
    table = cohesion.table_for(8, PARAMS)
    assert [(b.low, b.high, b.result) for b in table.bands] == [(1, 5, "pass"), (6, 6, "fail")]
    assert cohesion.loss_for(6, 8, PARAMS) == 1 and cohesion.loss_for(6, 2, PARAMS) == 4


def test_outcome_distribution() -> None:
    dist = cohesion.outcome_dist(3, False, PARAMS)
    assert dist.chance(0) == Fraction(1, 2)  # 1-3 pass
    assert dist.chance(1) == dist.chance(2) == dist.chance(3) == Fraction(1, 6)
    assert cohesion.outcome_dist(3, True, PARAMS).chance(1) == Fraction(2, 3)


def test_passing_while_disordered_costs_one_vbu() -> None:
    state = status(detach(at("melee", gauls2=(10, 10, 0))), "gauls2", disordered=True)
    ctx = context(state, [2])
    found = cohesion.test(ctx, state.unit("gauls2"), 1, [], cohesion.MELEE, "a test")
    assert found.passed and found.lost == 1
    assert LOSSES.of(ctx.state.unit("gauls2")) == 1
    assert LOST_VBU.of(ctx.state.side("gauls")) == 1


def test_failing_loses_the_difference_and_a_unit_with_nothing_left_routs() -> None:
    state = status(detach(at("melee", gauls2=(10, 10, 0))), "gauls2", losses=3)
    ctx = context(state, [6])  # VBU 2 - 1 hit = 1: a 6 fails by 5, only 2 are left
    found = cohesion.test(ctx, state.unit("gauls2"), 1, [], cohesion.MELEE, "a test")
    assert not found.passed and found.routed and found.lost == 5
    assert not any(u.id == "gauls2" for u in ctx.state.units)
    assert any(isinstance(e, UnitDestroyed) for e in ctx.events)
    assert LOST_VBU.of(ctx.state.side("gauls")) == 2  # what it had left


def test_six_on_cohesion_puts_the_general_at_risk_shooting_kills_on_six() -> None:
    state = at("shoot", gauls1=(10, 10, 180), gauls2=(13, 10, 180))
    # Vercingetorix is Brave: a risk roll that kills him is re-rolled
    ctx = context(state, [6, 6, 2])
    cohesion.test(ctx, state.unit("gauls1"), 1, [], cohesion.SHOOTING, "arrows")
    names = [t.test for t in logged_tests(ctx.events)]
    assert names == ["cohesion test (shooting)", "risk for general",
                     "risk for general (Brave re-roll)"]  # fmt: skip
    assert not KILLED.of(ctx.state.leader("gauls_g_vercingetorix"))


def test_killed_with_a_six_his_command_tests() -> None:
    state = at("melee", romans1=(10, 5, 0), romans2=(13, 5, 0))
    state = status(state, "romans1", losses=1)
    ctx = context(state, [6, 6, 1, 6])  # cohesion 6, risk 6: killed; romans1 1, romans2 6
    cohesion.test(ctx, state.unit("romans1"), 2, [], cohesion.MELEE, "blows")
    caesar = ctx.state.leader("romans_g_caesar")
    assert KILLED.of(caesar) and caesar.attached_to is None
    tests = logged_tests(ctx.events)
    assert tests[1].row.startswith("6: killed (his command tests)")
    assert [t.subject for t in tests[2:]] == ["romans1", "romans2"]
    assert DISORDERED.of(ctx.state.unit("romans2"))


def test_melee_kills_on_five() -> None:
    state = at("melee", gauls4=(10, 10, 180))  # Lucterius: Poor, Cavalry; not Brave
    ctx = context(state, [6, 5])
    cohesion.test(ctx, state.unit("gauls4"), 1, [], cohesion.MELEE, "blows")
    assert KILLED.of(ctx.state.leader("gauls_g_lucterius"))
    assert logged_tests(ctx.events)[1].row == "5: killed"


def test_a_routed_unit_leaves_its_general_behind() -> None:
    state = status(at("melee", romans1=(10, 5, 0)), "romans1", losses=6)  # 1 VBU left
    ctx = context(state, [5])  # critical 1 - 1 hit = 0 -> 1: a 5 fails
    found = cohesion.test(ctx, state.unit("romans1"), 1, [], cohesion.MELEE, "blows")
    assert found.routed
    caesar = ctx.state.leader("romans_g_caesar")
    assert caesar.attached_to is None and (caesar.x, caesar.y) == (10, 5)
    assert LOST_VBU.of(ctx.state.side("romans")) == 1
