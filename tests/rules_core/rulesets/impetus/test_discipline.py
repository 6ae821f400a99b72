"""Discipline tests: the target (current VBU, discipline class, the sheet's modifiers), the D6
against it, and the row logged."""

from __future__ import annotations

from rules_core.dice import Modifier
from rules_core.rulesets.impetus import discipline
from tests.rules_core.rulesets.impetus.combat_helpers import (
    PARAMS,
    at,
    context,
    detach,
    logged_tests,
    status,
)


def _reasons(mods: list[Modifier]) -> dict[str, int]:
    return {m.reason: m.value for m in mods}


def test_third_move_with_general_attached_and_class_a() -> None:
    state = at("move", romans1=(10, 5, 0))
    target, parts = discipline.target_of(state, state.unit("romans1"), "second_move", PARAMS,
                                         moves=3)  # fmt: skip
    # 7 VBU, +1 discipline A, +2 Caesar (Charismatic DT), -1 for the third move
    assert target == 7 + 1 + 2 - 1
    reasons = _reasons(parts)
    assert reasons["Caesar: General attached to Unit/Group"] == 2
    assert reasons["Second or more moves: For each Move after the 2nd (cumulative) (move 3)"] == -1


def test_second_move_has_no_penalty_and_fourth_two() -> None:
    state = detach(at("move", romans2=(10, 5, 0)))
    unit = state.unit("romans2")
    second, _ = discipline.target_of(state, unit, "second_move", PARAMS, moves=2)
    fourth, _ = discipline.target_of(state, unit, "second_move", PARAMS, moves=4)
    # romans2 is outside any radius once Caesar is away: 6 VBU -1
    assert (second, fourth) == (5, 3)


def test_outside_radius_except_skirmishers() -> None:
    state = at("move", gauls1=(10, 15, 180), gauls2=(28, 15, 180), gauls3=(1, 15, 180))
    _, far = discipline.target_of(state, state.unit("gauls2"), "rally", PARAMS)
    assert _reasons(far)["Outside Command Radius (except S)"] == -1
    _, skirm = discipline.target_of(state, state.unit("gauls3"), "rally", PARAMS)
    assert "Outside Command Radius (except S)" not in _reasons(skirm)
    near = at("move", gauls1=(10, 15, 180), gauls2=(13, 15, 180))
    _, inside = discipline.target_of(near, near.unit("gauls2"), "rally", PARAMS)
    assert "Outside Command Radius (except S)" not in _reasons(inside)


def test_evasion_of_skirmishers_from_foot_second_evade() -> None:
    # The unit evaded once already this turn (its count in the state): this is evade 2.
    state = status(at("charge", gauls3=(10, 10, 180), romans2=(10, 5, 0)), "gauls3", evades=1)
    target, parts = discipline.target_of(state, state.unit("gauls3"), "evasion", PARAMS,
                                         charger="romans2")  # fmt: skip
    reasons = _reasons(parts)
    assert reasons["Evasion: Unit is S or CL"] == 1
    assert reasons["Evasion: S or Mounted evading Foot"] == 1
    assert reasons["Evasion: For each Evade after the 1st (cumulative) (evade 2)"] == -1
    assert reasons["discipline C"] == -1
    assert target == 3 - 1 + 1 + 1 - 1


def test_specific_rows_of_each_kind() -> None:
    state = detach(at("charge", romans3=(10, 5, 0), romans4=(14, 5, 0), romans1=(18, 5, 0)))
    state = status(state, "romans3", disordered=True)
    _, fire = discipline.target_of(state, state.unit("romans3"), "defensive_fire", PARAMS)
    assert _reasons(fire)["Defensive Fire: Unit firing is T"] == 2
    assert _reasons(fire)["Defensive Fire: Disordered"] == -1
    _, horse = discipline.target_of(state, state.unit("romans4"), "defensive_fire", PARAMS)
    assert _reasons(horse)["Defensive Fire: Unit firing is Mounted"] == -1
    _, rally = discipline.target_of(state, state.unit("romans4"), "rally", PARAMS)
    assert _reasons(rally)["Rally: Unit is Mounted"] == 2
    _, ranks = discipline.target_of(state, state.unit("romans1"), "close_ranks", PARAMS,
                                    charger_moves=2)  # fmt: skip
    assert _reasons(ranks)["Close Ranks: Enemy charged with more than 1 MOVE"] == 1
    assert _reasons(ranks)["Close Ranks: Unit is FP"] == 1


def test_countercharge_against_cm_or_cl_and_frenzy() -> None:
    state = detach(at("charge", romans4=(10, 5, 0), gauls5=(10, 9, 180), gauls1=(4, 9, 180)))
    _, parts = discipline.target_of(state, state.unit("romans4"), "countercharge", PARAMS,
                                    charger="gauls5")  # fmt: skip
    assert _reasons(parts)["Countercharge: Charged by CM or CL"] == 1
    _, foot = discipline.target_of(state, state.unit("romans4"), "countercharge", PARAMS,
                                   charger="gauls1")  # fmt: skip
    assert "Countercharge: Charged by CM or CL" not in _reasons(foot)
    _, frenzy = discipline.target_of(state, state.unit("gauls1"), "frenzy", PARAMS, fragmented=True)
    assert _reasons(frenzy)["Frenzy: Group charging is Fragmented"] == -1


def test_disengagement_takes_the_generic_modifiers_only() -> None:
    state = status(detach(at("move", romans3=(10, 5, 0))), "romans3", disordered=True)
    _, parts = discipline.target_of(state, state.unit("romans3"), "disengagement", PARAMS)
    assert [m.reason for m in parts] == ["current VBU", "Outside Command Radius (except S)"]


def test_confident_general_adds_to_reaction_tests() -> None:
    state = at("charge", romans1=(10, 5, 0))
    _, reaction = discipline.target_of(state, state.unit("romans1"), "reaction", PARAMS)
    _, rally = discipline.target_of(state, state.unit("romans1"), "rally", PARAMS)
    general = "Caesar: General attached to Unit/Group"
    assert _reasons(reaction)[general] == 3  # Charismatic +2, Confident +1 (React/Evasion)
    assert _reasons(rally)[general] == 2


def test_the_roll_passes_at_or_under_the_target_and_logs_the_row() -> None:
    state = detach(at("move", gauls3=(10, 15, 180)))  # VBU 3, C: target 2
    ctx = context(state, [2])
    result = discipline.test(ctx, state.unit("gauls3"), "rally")
    assert result.passed and result.die == 2 and result.target == 2
    logged = logged_tests(ctx.events)[-1]
    assert logged.passed and logged.row.startswith("1-2: passed (target 2")
    assert "3 current VBU -1 discipline C" in logged.row
    ctx = context(state, [3])
    assert not discipline.test(ctx, state.unit("gauls3"), "rally").passed
    assert logged_tests(ctx.events)[-1].row.startswith("3-6: failed")


def test_a_one_always_passes_and_a_six_fails_when_the_parameter_says() -> None:
    state = status(detach(at("move", gauls3=(10, 15, 180))), "gauls3", losses=2, disordered=True)
    ctx = context(state, [1])  # target 1 - 1 = 0: a 1 still passes
    assert discipline.test(ctx, state.unit("gauls3"), "rally").passed
    big = at("move", romans1=(10, 5, 0))
    assert discipline.test(context(big, [6]), big.unit("romans1"), "rally").passed
    ctx = context(big, [6], dt_natural_fail=6)
    assert not discipline.test(ctx, big.unit("romans1"), "rally").passed


def test_an_about_face_takes_its_own_test_with_the_generic_modifiers() -> None:
    state = status(detach(at("move", romans2=(10, 5, 0))), "romans2", disordered=True)
    ctx = context(state, [2])
    result = discipline.test(ctx, state.unit("romans2"), "second_move", moves=1, about_face=True)
    assert result.passed and result.target == 6 - 1  # outside the radius, no disordered row
    assert logged_tests(ctx.events)[-1].test == "discipline test (about face)"


def test_confident_counts_for_every_reaction_test() -> None:
    state = at("charge", romans1=(10, 5, 0))
    general = "Caesar: General attached to Unit/Group"
    for kind in ("defensive_fire", "close_ranks", "countercharge"):
        _, parts = discipline.target_of(state, state.unit("romans1"), kind, PARAMS)
        assert _reasons(parts)[general] == 3, kind
