"""The sequence of play as data: every turn structure in RULESETS.md walks without special cases."""

from __future__ import annotations

import pytest

from rules_core.steps import (
    Actors,
    Cursor,
    SequenceOfPlay,
    Step,
    Subject,
    SubjectsFor,
    active_side,
    advance,
    start,
)

SIDES = ("red", "blue")


def no_subjects(step: Step) -> tuple[Subject, ...]:
    return ()


def walk(sequence: SequenceOfPlay, count: int, subjects: SubjectsFor = no_subjects) -> list[str]:
    cursor = start(sequence, SIDES, subjects)
    seen = []
    for _ in range(count):
        seen.append(f"{cursor.turn}:{cursor.label(sequence)}")
        cursor = advance(sequence, cursor, subjects)
    return seen


def test_simultaneous_phases_like_the_tree_of_battles() -> None:
    tob = SequenceOfPlay(
        (
            Step("command", "Command", Actors.BOTH, next="approach"),
            Step("approach", "Approach", Actors.BOTH, next="shooting"),
            Step("shooting", "Shooting", Actors.NOBODY, next="charges"),
            Step("charges", "Declare charges", Actors.BOTH, next="melee"),
            Step("melee", "Hand to hand", Actors.NOBODY, next="rally"),
            Step("rally", "Rally"),
        ),
        first="command",
    )
    assert walk(tob, 7) == [
        "1:command", "1:approach", "1:shooting", "1:charges", "1:melee", "1:rally", "2:command",
    ]  # fmt: skip


def test_alternate_player_turns_like_hail_caesar() -> None:
    hc = SequenceOfPlay(
        (
            Step("command", "Command", Actors.ACTIVE, next="shooting"),
            Step("shooting", "Shooting", Actors.ACTIVE, next="melee"),
            Step("melee", "Hand to hand", Actors.NOBODY),
        ),
        first="command",
        player_turns=True,
    )
    assert walk(hc, 7) == [
        "1:command@red", "1:shooting@red", "1:melee@red",
        "1:command@blue", "1:shooting@blue", "1:melee@blue", "2:command@red",
    ]  # fmt: skip


def test_per_wing_and_per_army_loops_like_pike_and_shot() -> None:
    wings = {"fatigue": (Subject("left", "red"), Subject("right", "blue")), "will": ()}
    pas = SequenceOfPlay(
        (
            Step("combat", "Combat", next="fatigue"),
            Step("fatigue", "Fatigue", repeat_for="fatigue", next="will"),
            Step("will", "General will", repeat_for="will"),
        ),
        first="combat",
    )
    # No army has a fatigued wing, so the general-will step has no subjects and is skipped.
    seen = walk(pas, 4, lambda step: wings[step.repeat_for])
    assert seen == ["1:combat", "1:fatigue#left", "1:fatigue#right", "2:combat"]


def test_one_activation_per_command_like_impetus() -> None:
    commands = (Subject("c1", "blue"), Subject("c2", "red"), Subject("c3", "blue"))
    impetus = SequenceOfPlay(
        (
            Step("deploy", "Deployment", Actors.ACTIVE, repeat_for="sides"),
            Step("initiative", "Initiative", next="activate"),
            Step("activate", "Activation", Actors.ACTIVE, repeat_for="commands"),
        ),
        first="initiative",
        setup="deploy",
    )

    def subjects(step: Step) -> tuple[Subject, ...]:
        return tuple(Subject(s, s) for s in SIDES) if step.repeat_for == "sides" else commands

    cursor = start(impetus, SIDES, subjects)
    sides = []
    labels = []
    for _ in range(7):
        labels.append(f"{cursor.turn}:{cursor.label(impetus)}")
        sides.append(active_side(impetus, cursor))
        cursor = advance(impetus, cursor, subjects)
    assert labels == [
        "0:deploy#red", "0:deploy#blue", "1:initiative",
        "1:activate#c1", "1:activate#c2", "1:activate#c3", "2:initiative",
    ]  # fmt: skip
    assert sides == ["red", "blue", None, "blue", "red", "blue", None]


def test_a_turn_opening_chain_before_player_turns_like_the_heroic_age() -> None:
    heroic = SequenceOfPlay(
        (
            Step("initiative", "Initiative", next="gods"),
            Step("gods", "Invoke the gods"),
            Step("movement", "Movement", Actors.ACTIVE),
        ),
        first="movement",
        player_turns=True,
        turn_start="initiative",
    )
    assert walk(heroic, 5) == [
        "1:initiative", "1:gods", "1:movement@red", "1:movement@blue", "2:initiative",
    ]  # fmt: skip


def test_the_side_order_a_resolver_sets_decides_who_goes_first() -> None:
    hc = SequenceOfPlay((Step("command", "Command", Actors.ACTIVE),), "command", player_turns=True)
    cursor = Cursor(1, "main", "command", ("blue", "red"))
    assert active_side(hc, cursor) == "blue"
    assert active_side(hc, advance(hc, cursor, lambda step: ())) == "red"


def test_a_sequence_refuses_unknown_or_repeated_steps() -> None:
    with pytest.raises(ValueError, match="unknown step 'nowhere'"):
        SequenceOfPlay((Step("a", "A", next="nowhere"),), first="a")
    with pytest.raises(ValueError, match="unique"):
        SequenceOfPlay((Step("a", "A"), Step("a", "B")), first="a")


def test_attempt_is_reset_when_play_moves_on() -> None:
    seq = SequenceOfPlay((Step("a", "A", next="b"), Step("b", "B")), first="a")
    cursor = Cursor(1, "main", "a", SIDES, attempt=2)
    assert advance(seq, cursor, lambda step: ()).attempt == 0
