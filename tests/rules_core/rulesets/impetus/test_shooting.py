"""Shooting: dice from VBU and the shooting table, every situational modifier with its row,
hits on 6s and pairs of 5s, and the target's cohesion test after shooting."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from rules_core.dice import Modifier
from rules_core.events import ShotFired
from rules_core.rulesets.impetus import prebattle, shooting
from rules_core.rulesets.impetus.status import DISORDERED, LOST_VBU
from rules_core.shared_status import LOSSES
from tests.rules_core.rulesets.impetus.combat_helpers import (
    PARAMS,
    add,
    at,
    context,
    detach,
    logged_tests,
    profile,
    rolls_of,
    status,
    terrain,
)


def _reasons(mods: list[Modifier]) -> dict[str, int]:
    return {m.reason: m.value for m in mods}


def _archers_at(y: float, target: str = "gauls2", facing: float = 180.0):  # type: ignore[no-untyped-def]
    return detach(at("shoot", romans3=(10, 5, 0), **{target: (10, y, facing)}))


def test_short_range_dice_are_vbu_plus_the_table_row() -> None:
    state = _archers_at(8.5)  # front edge at 5.5, target's edge at 8.0: 2.5H
    base, mods, row, band = shooting.dice_modifiers(state, state.unit("romans3"),
                                                    state.unit("gauls2"))  # fmt: skip
    assert (base, row, band) == (4, "composite_bow.B", "short")
    assert mods == [Modifier(0, "shooting table: COMPOSITE BOW B, 4H (Short) Foot (2.5H)")]


def test_long_range_against_mounted_reads_its_column() -> None:
    state = _archers_at(12.75, "gauls4")  # cavalry 1.5 deep: edge at 12.0, 6.5H away
    _, mods, _, band = shooting.dice_modifiers(state, state.unit("romans3"), state.unit("gauls4"))
    assert band == "long"
    assert mods[0] == Modifier(0, "shooting table: COMPOSITE BOW B, 8H (Long) Mtd. (6.5H)")
    state = profile(state, "romans3", missile_class="C")
    _, mods, _, _ = shooting.dice_modifiers(state, state.unit("romans3"), state.unit("gauls4"))
    assert mods[0].value == -2  # COMPOSITE BOW C, 8H Mtd.


def test_javelins_cannot_shoot_at_long_range_nor_beyond_12h() -> None:
    state = detach(at("shoot", romans5=(10, 5, 0), gauls2=(10, 11, 180), gauls1=(20, 19.5, 180)))
    why = shooting.problem(state, state.unit("romans5"), state.unit("gauls2"))
    assert why == "JAVELIN cannot shoot at 8H (Long)"
    state = detach(at("shoot", romans3=(10, 1, 0), gauls1=(10, 19.5, 180)))
    assert "beyond 12H" in str(shooting.problem(state, state.unit("romans3"),
                                                state.unit("gauls1")))  # fmt: skip


def test_situational_modifiers_each_with_its_row() -> None:
    # each from the table: moved twice, disordered, a friend screening the target (indirect),
    # a target that evaded this turn, behind its side's fortification piece
    state = status(_archers_at(8.5, "gauls3"), "romans3", disordered=True, moves=2)
    state = status(state, "gauls3", evades=1)
    state = add(state, "screen", "romans", "romans_caesar", (10, 6.25, 0), type="FP")
    piece = prebattle.fortification_piece(state, "gauls", (10, 7.5), 180.0, PARAMS)
    state = replace(state, terrain=(piece,))
    _, mods, _, _ = shooting.dice_modifiers(
        state, state.unit("romans3"), state.unit("gauls3"), reaction=True
    )
    reasons = _reasons(mods)
    assert reasons["each movement phase (except the first for CL or Foot with javelins) "
                   "(2 moves)"] == -2  # fmt: skip
    assert reasons["Disordered"] == -1
    assert reasons["indirect shooting (except S)"] == -2
    assert reasons["firing at S, CL and ART at Short range"] == -1
    assert reasons["firing at Evaders"] == -1
    assert reasons[f"non-artillery shooting at Units behind fortifications ({piece.name})"] == -2
    assert reasons["Shooting as Reaction Fire"] == -1


def test_first_move_is_free_for_cl_and_cover_from_a_wood() -> None:
    state = detach(at("shoot", romans5=(10, 5, 0), gauls2=(10, 8.5, 180)))
    state = terrain(status(state, "romans5", moves=1), "wood", 8, 8, 12, 10)
    _, mods, _, _ = shooting.dice_modifiers(state, state.unit("romans5"), state.unit("gauls2"))
    reasons = _reasons(mods)
    assert not any("movement phase" in r for r in reasons)
    assert reasons["non-artillery shooting at Units on a Wood edge, BUA, behind Linear "
                   "Obstacles, Pavise or at a W (Carnutes Warband in wood)"] == -1  # fmt: skip


def test_dice_are_halved_shooting_to_the_side() -> None:
    state = detach(at("shoot", romans3=(10, 5, 0), gauls2=(13.5, 5, 270)))
    base, mods, _, _ = shooting.dice_modifiers(state, state.unit("romans3"), state.unit("gauls2"))
    assert base + sum(m.value for m in mods) == 2  # 4 dice, halved
    assert mods[-1] == Modifier(-2, "Halve dice if shooting from side or rear (except W) "
                                    "(round up)")  # fmt: skip


def test_hits_are_sixes_and_pairs_of_fives() -> None:
    assert shooting.hits_of((6, 5, 5, 2)) == (1, 1, 2)
    assert shooting.hits_of((5, 5, 5, 6, 6)) == (2, 1, 3)
    assert shooting.hits_of((5, 4, 3)) == (0, 0, 0)
    dist = shooting.hits_dist(2)
    assert dist.chance(1) == Fraction(11, 36)  # one 6 (10/36) or two 5s (1/36)
    assert dist.chance(2) == Fraction(1, 36) and dist.chance(0) == Fraction(24, 36)


def test_a_shot_hits_and_the_target_fails_its_cohesion_test() -> None:
    state = _archers_at(8.5)
    ctx = context(state, [6, 5, 5, 2, 5])  # 2 hits; cohesion die 5
    hits = shooting.resolve(ctx, state.unit("romans3"), state.unit("gauls2"))
    assert hits == 2
    assert any(isinstance(e, ShotFired) for e in ctx.events)
    assert rolls_of(ctx.events)[0].roll.label.startswith("Shooting: Cretan Archers (VBU 4)")
    tests = logged_tests(ctx.events)
    assert tests[0].row == "1 six + 1 pair of 5s = 2 hits (each 6 a hit, each pair of 5s a hit)"
    # critical number 5 - 2 + 1 (short range, composite bow) = 4; a 5 fails by 1
    assert tests[1].test == "cohesion test (shooting)" and not tests[1].passed
    assert "critical number 4: VBU 5 - 2 hits +1 At Short Range fired by Short Bow" in tests[1].row
    target = ctx.state.unit("gauls2")
    assert LOSSES.of(target) == 1 and DISORDERED.of(target)
    assert LOST_VBU.of(ctx.state.side("gauls")) == 1


def test_a_passed_cohesion_test_disorders() -> None:
    state = _archers_at(8.5)
    ctx = context(state, [6, 1, 1, 1, 4])
    shooting.resolve(ctx, state.unit("romans3"), state.unit("gauls2"))
    target = ctx.state.unit("gauls2")
    assert LOSSES.of(target) == 0 and DISORDERED.of(target)


def test_no_hits_no_test() -> None:
    state = _archers_at(8.5)
    ctx = context(state, [1, 2, 3, 4])
    assert shooting.resolve(ctx, state.unit("romans3"), state.unit("gauls2")) == 0
    assert [t.test for t in logged_tests(ctx.events)] == ["hits from Cretan Archers"]


def test_cohesion_modifiers_after_shooting() -> None:
    state = status(_archers_at(12.5, "romans2"), "romans2", disordered=True)
    state = state.with_unit(replace(state.unit("romans2"), side="gauls"))
    mods = shooting.cohesion_modifiers(state, state.unit("romans3"), state.unit("romans2"),
                                       "long")  # fmt: skip
    assert _reasons(mods) == {
        "Disordered": -1,
        "Target is FP, CP1, CGP, CGL, CF, W (except fire from Art)": 1,
        "At Long/Extreme Range (except fire from Art, LongBow)": 2,
    }
    bow = profile(state, "romans3", missile="long_bow")
    mods = shooting.cohesion_modifiers(bow, bow.unit("romans3"), bow.unit("romans2"), "long")
    assert "At Long/Extreme Range fired by Long Bow" in _reasons(mods)
    gun = profile(state, "romans3", missile="handgun")
    mods = shooting.cohesion_modifiers(gun, gun.unit("romans3"), gun.unit("romans2"), "short",
                                       defensive=True)  # fmt: skip
    assert _reasons(mods)["If shot at by Defensive fire using Handgun, Arquebus, Musket"] == -1


def test_no_shooting_from_or_into_a_melee() -> None:
    state = status(_archers_at(8.5), "gauls2", melee_with=["romans1"])
    assert shooting.problem(state, state.unit("romans3"), state.unit("gauls2")) == (
        "Carnutes Warband is in melee: no shooting into a melee"
    )
    state = status(_archers_at(8.5), "romans3", melee_with=["gauls1"])
    assert shooting.problem(state, state.unit("romans3"), state.unit("gauls2")) == (
        "Cretan Archers is in melee"
    )
