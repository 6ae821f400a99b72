"""Hail Caesar mechanics with loaded dice: order tests, blunders, shooting and combat tests."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules_core.context import Context, Suspended
from rules_core.decisions import Answer
from rules_core.events import DiceRolled, TestResolved
from rules_core.rulesets.hail_caesar import combat, command, shooting
from rules_core.rulesets.hail_caesar.rules import HailCaesarRules
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.state import BattleState
from rules_core.steps import Cursor

RULES = HailCaesarRules()


class Loaded(random.Random):
    """A random stream that deals the given die faces in order."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def context(
    faces: list[int], state: BattleState | None = None, answers: tuple[Answer, ...] = ()
) -> Context:
    base = state or replace(sample_battle(), cursor=Cursor(1, "main", "orders", ("rom", "gau")))
    return Context(RULES, base, (), answers, Loaded(faces))


def resolved(ctx: Context) -> list[TestResolved]:
    return [e for e in ctx.events if isinstance(e, TestResolved)]


@pytest.mark.parametrize(("faces", "moves"), [((4, 4), 1), ((3, 4), 2), ((1, 5), 3), ((1, 1), 3)])
def test_the_order_test_gives_one_to_three_moves(faces: tuple[int, int], moves: int) -> None:
    ctx = context(list(faces))
    leader = ctx.state.leader("rom_legate")
    assert command.order_test(ctx, leader, "r1", "order", []) == moves


def test_double_six_is_a_blunder_and_distance_costs() -> None:
    state = replace(sample_battle(), cursor=Cursor(1, "main", "orders", ("rom", "gau")))
    state = state.with_side(replace(state.side("rom"), status={"reroll_turn": 1}))  # used
    ctx = context([6, 6], state)
    assert (
        command.order_test(ctx, ctx.state.leader("rom_legate"), "r1", "order", [])
        == command.BLUNDER
    )
    assert resolved(ctx)[-1].row == "double six: a blunder"
    from rules_core.dice import Modifier

    ctx = context([4, 3])  # 7 -1 for distance = 6: three moves
    moves = command.order_test(
        ctx, ctx.state.leader("rom_legate"), "r1", "order", [Modifier(-1, "distance")]
    )
    assert moves == 3


def test_the_army_commander_may_re_roll_once_a_turn() -> None:
    ctx = context([5, 5])
    with pytest.raises(Suspended) as asked:
        command.order_test(ctx, ctx.state.leader("rom_legate"), "r1", "order", [])
    key = asked.value.decision.id
    ctx = context([5, 5, 2, 3], answers=(Answer(key, "reroll", "rom"),))
    assert command.order_test(ctx, ctx.state.leader("rom_legate"), "r1", "order", []) == 3
    assert ctx.state.side("rom").status["reroll_turn"] == 1
    rolls = [e.roll for e in ctx.events if isinstance(e, DiceRolled)]
    assert rolls[-1].dice[0].previous == (5,)


def test_a_six_that_hits_forces_a_ranged_break_test() -> None:
    state = replace(sample_battle(), cursor=Cursor(1, "main", "shooting", ("rom", "gau")))
    state = state.with_unit(replace(state.unit("r4"), x=24, y=26))  # 6" short range from slingers
    # 2 dice hit on 5+ (open order target): a 6 and a 2; no save (skirmishers); break test 3+3.
    ctx = context([6, 2, 3, 3], state)
    shooting.shoot(ctx, ctx.state.unit("r4"), ctx.state.unit("g3"), False, ())
    assert ctx.state.unit("g3").status["casualties"] == 1
    found = resolved(ctx)[-1]
    assert found.test == "Ranged break test (Skirmishers)" and found.score == 6
    assert found.row == "6: Break if Shaken otherwise retreat Disordered"
    assert ctx.state.unit("g3").status["disordered"] is True


def test_the_loser_of_a_combat_tests_at_minus_the_difference() -> None:
    state = replace(sample_battle(), cursor=Cursor(1, "main", "combat", ("rom", "gau")))
    # First Cohort (front edge y 9) against Arverni Warband moved to touch it (y 9 to 11).
    state = state.with_unit(replace(state.unit("g1"), x=20, y=10, facing=180))
    state = state.with_unit(replace(state.unit("r3"), x=40, y=3))  # out of support reach
    state = state.with_unit(replace(state.unit("r2"), x=40, y=20))
    first = [6] * 7  # First Cohort: 7 clash dice, all hit
    second = [1] * 9  # Arverni Warband (large): 9 dice, all miss
    saves = [1] * 7  # warband saves on 5+: all fail
    ctx = context(first + second + saves + [4, 4], state)
    combat.fight(ctx, "r1", "g1")
    found = resolved(ctx)[-1]
    assert found.test == "Break test (Infantry)" and found.score == 8 - 7
    assert found.row == "2-: Break"
    assert "g1" not in {u.id for u in ctx.state.units}
