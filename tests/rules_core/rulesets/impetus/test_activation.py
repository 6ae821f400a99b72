"""Initiative per command: each side names a command, 2D6 + Bonus, the higher activates; the
Initiative column's re-rolls, an incompetent general's double, passing the initiative, ties;
questions answered by standing instructions; the order unfolding during the turn."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules_core.context import Context, Suspended
from rules_core.decisions import Answer
from rules_core.dice import Roll
from rules_core.events import DiceRolled, TestResolved
from rules_core.rulesets.impetus import activation
from rules_core.rulesets.impetus.status import COMMAND_ACTIVATED
from rules_core.standing import Standing, standing_answer
from rules_core.state import BattleState, Group
from tests.rules_core.rulesets.impetus.helpers import rules, stopped_at


@pytest.fixture(scope="module")
def table() -> BattleState:
    """The sample battle at its first turn's first activation, every unit deployed."""
    return stopped_at("activate")


def with_general(state: BattleState, command: str, kind: str, *traits: str) -> BattleState:
    group = state.group(command)
    leader = state.leader(str(group.leader))
    status = {**leader.status, "general_type": kind, "traits": list(traits)}
    return state.with_leader(replace(leader, status=status))


def context(state: BattleState, seed: int, answers: list[Answer] = ()) -> Context:  # type: ignore[assignment]
    return Context(rules(), state, (), answers, random.Random(seed))


def rolls(ctx: Context) -> list[Roll]:
    return [e.roll for e in ctx.events if isinstance(e, DiceRolled)]


def pair(state: BattleState) -> tuple[Group, Group]:
    return state.group("romans_caesar"), state.group("gauls_vercingetorix")


def test_the_higher_score_with_the_bonus_wins(table: BattleState) -> None:
    state = with_general(with_general(table, "romans_caesar", "Reliable"),
                         "gauls_vercingetorix", "Reliable")  # fmt: skip
    for seed in range(30):
        ctx = context(state, seed)
        one, two = pair(ctx.state)
        winner, loser = activation.roll_off(ctx, one, two)
        first, second = rolls(ctx)[:2]
        assert {first.total, second.total} == {
            ctx.state.group(winner.id).status["initiative"],
            ctx.state.group(loser.id).status["initiative"],
        } or first.total == second.total
        assert all(m.value == 2 for r in rolls(ctx) for m in r.modifiers)  # Reliable: +2
        scores = {g.id: ctx.state.group(g.id).status["initiative"] for g in (one, two)}
        assert scores[winner.id] > scores[loser.id]


def test_a_poor_general_against_a_genius_usually_loses(table: BattleState) -> None:
    state = with_general(with_general(table, "romans_caesar", "Genius"),
                         "gauls_vercingetorix", "Incompetent")  # fmt: skip
    wins = 0
    for seed in range(40):
        ctx = context(state, seed)
        winner, _ = activation.roll_off(ctx, *pair(ctx.state))
        wins += winner.id == "romans_caesar"
    assert wins >= 34


def test_an_incompetent_general_loses_on_a_double(table: BattleState) -> None:
    state = with_general(with_general(table, "romans_caesar", "Poor"),
                         "gauls_vercingetorix", "Incompetent")  # fmt: skip
    doubles = 0
    for seed in range(200):
        ctx = context(state, seed)
        winner, _ = activation.roll_off(ctx, *pair(ctx.state))
        gaul_rolls = [r for r in rolls(ctx) if "Vercingetorix" in r.label]
        last = gaul_rolls[-1]
        faces = [d.face for d in last.dice]
        if faces[0] == faces[1]:
            doubles += 1
            assert winner.id == "romans_caesar", (seed, faces)
            tests = [e for e in ctx.events if isinstance(e, TestResolved)]
            assert "rolled a double" in tests[-1].row
    assert doubles > 0


def test_an_expert_rerolls_both_dice_when_behind_and_low(table: BattleState) -> None:
    state = with_general(with_general(table, "romans_caesar", "Expert"),
                         "gauls_vercingetorix", "Reliable")  # fmt: skip
    seen = 0
    for seed in range(200):
        ctx = context(state, seed)
        activation.roll_off(ctx, *pair(ctx.state))
        for roll in rolls(ctx):
            if "re-roll" in roll.label and "Caesar" in roll.label:
                seen += 1
                assert all(d.rerolled for d in roll.dice)
                assert sum(d.previous[-1] for d in roll.dice) < 7
    assert seen > 0


def test_a_charismatic_general_rerolls_only_his_low_dice(table: BattleState) -> None:
    state = with_general(with_general(table, "romans_caesar", "Charismatic"),
                         "gauls_vercingetorix", "Genius")  # fmt: skip
    seen = 0
    for seed in range(200):
        ctx = context(state, seed)
        activation.roll_off(ctx, *pair(ctx.state))
        for roll in rolls(ctx):
            if "re-roll" in roll.label and "Caesar" in roll.label:
                seen += 1
                for die in roll.dice:
                    assert die.rerolled == (die.previous[-1] <= 3 if die.previous else False)
    assert seen > 0


def test_a_reliable_general_never_rerolls(table: BattleState) -> None:
    state = with_general(with_general(table, "romans_caesar", "Reliable"),
                         "gauls_vercingetorix", "Reliable")  # fmt: skip
    for seed in range(50):
        ctx = context(state, seed)
        activation.roll_off(ctx, *pair(ctx.state))
        assert not any("re-roll" in r.label for r in rolls(ctx))


def test_each_side_names_a_command_and_the_default_is_the_nearest(table: BattleState) -> None:
    ctx = context(table, 1)
    pool = activation.live_commands(table)
    with pytest.raises(Suspended) as asked:
        activation.contest(ctx, pool)
    decision = asked.value.decision
    assert decision.topic == "initiative_command" and decision.default == "nearest"
    mine = [g for g in pool if g.side == decision.who]
    assert {o.id for o in decision.options} >= {"nearest", "strongest", "weakest"} | {
        g.id for g in mine
    }
    named = activation.by_strategy(table, mine, "strongest")
    assert named is not None and named.id in {g.id for g in mine}


def test_a_standing_instruction_names_the_command(table: BattleState) -> None:
    ctx = context(table, 1)
    with pytest.raises(Suspended) as asked:
        activation.contest(ctx, activation.live_commands(table))
    decision = asked.value.decision
    instruction = Standing(decision.who, "initiative_command", "weakest")
    answer = standing_answer(rules(), table, decision, [instruction])
    assert answer is not None and answer.choice == "weakest"


def test_the_winner_may_pass_the_initiative_to_the_enemy_or_another_command(
    table: BattleState,
) -> None:
    state = with_general(table, "romans_caesar", "Charismatic", "Confident")
    caesar, verc = pair(state)
    labienus = state.group("romans_labienus")
    pool = [caesar, labienus, verc]
    asked_id = "initiative_pass_romans"
    for choice, expected in (("activate", caesar.id), ("pass_to_enemy", verc.id),
                             ("pass", labienus.id)):  # fmt: skip
        ctx = context(state, 3, [Answer(asked_id, choice, "romans")])
        assert activation.maybe_pass(ctx, caesar, verc, pool).id == expected
        passed = ctx.state.group(caesar.id).status.get("passed", False)
        assert passed is (choice != "activate")
    # A Reliable general is not asked.
    plain = with_general(table, "romans_caesar", "Reliable")
    ctx = context(plain, 3)
    assert activation.maybe_pass(ctx, *pair(plain), pool).id == caesar.id


def test_a_command_passes_at_most_once_a_turn(table: BattleState) -> None:
    state = with_general(table, "romans_caesar", "Genius")
    caesar = state.group("romans_caesar")
    state = state.with_group(replace(caesar, status={**caesar.status, "passed": True}))
    ctx = context(state, 3)
    assert activation.maybe_pass(ctx, *pair(state), activation.live_commands(state)).id == caesar.id


def test_commands_still_to_act_follow_the_contest(table: BattleState) -> None:
    subjects = activation.command_subjects(
        table.with_status(next_command="gauls_lucterius")  # type: ignore[arg-type]
    )
    assert subjects[0].id == "gauls_lucterius"
    done = table.group("romans_caesar")
    acted = table.with_group(replace(done, status={**done.status, "activated": True}))
    assert "romans_caesar" not in [s.id for s in activation.command_subjects(acted)]
    assert COMMAND_ACTIVATED.of(acted.group("romans_caesar"))


def test_when_one_side_has_no_command_left_it_is_not_rolled_for(table: BattleState) -> None:
    ctx = context(table, 5, [Answer("initiative_command_gauls", "gauls_lucterius", "gauls")])
    gauls = [g for g in activation.live_commands(table) if g.side == "gauls"]
    assert activation.contest(ctx, gauls).id == "gauls_lucterius"
    assert not rolls(ctx)
