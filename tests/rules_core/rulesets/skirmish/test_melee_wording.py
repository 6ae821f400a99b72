"""Skirmish melee lines are worded from each unit's side of the result (#33 item 5).

Each unit's hits wound the other, so the winner can be hurt, even destroyed: its line must
not say it was beaten. The dice are dealt: Red Horse rolls its three first, then Blue Riders.
"""

from __future__ import annotations

from dataclasses import replace

from rules_core import registry
from rules_core.context import Context
from rules_core.plugin import Rules
from rules_core.render import Renderer
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import BattleState
from rules_core.steps import Cursor
from tests.rules_core.dealing import Dealt


def face_to_face() -> BattleState:
    """Red Horse and Blue Riders front to front at the melee step, nothing else modifying."""
    state = replace(sample_battle(), cursor=Cursor(1, "main", "melee", ("red", "blue")))
    state = state.with_unit(replace(state.unit("r3"), x=24.0, y=10.0, facing=0.0))
    return state.with_unit(replace(state.unit("b3"), x=24.0, y=12.0, facing=180.0))


def melee_lines(faces: list[int]) -> list[str]:
    """The log of the melee step with the dice dealt in order."""
    rules = registry.get("skirmish").rules
    assert isinstance(rules, Rules)
    state = face_to_face()
    ctx = Context(rules, state, (), (), Dealt(faces))
    rules.resolve_melee(ctx)
    return [line for line in Renderer.for_state(state).lines(ctx.events) if line]


def test_a_unit_that_won_its_melee_and_fell_is_not_said_to_be_beaten() -> None:
    # Red Horse scores 2 hits, Blue Riders 3: Blue won 3 to 2, and both fall (stamina 2).
    lines = melee_lines([5, 5, 1, 5, 5, 5])
    assert "Blue Riders is destroyed: hit by Red Horse in a melee it won, 3 hits to 2" in lines
    assert "Red Horse is destroyed: beaten in melee by Blue Riders, 3 hits to 2" in lines
    assert not [line for line in lines if "Blue Riders" in line.split(":")[0] and "beaten" in line]


def test_the_winner_wounded_and_the_loser_destroyed_each_have_their_own_words() -> None:
    # Red Horse scores 2 hits, Blue Riders 1: Red won 2 to 1.
    lines = melee_lines([5, 5, 1, 5, 1, 1])
    assert "Blue Riders is destroyed: beaten in melee by Red Horse, 2 hits to 1" in lines
    assert "Red Horse: wounds 0 → 1 (hit by Blue Riders in a melee it won, 2 hits to 1)" in lines


def test_a_drawn_melee_says_so() -> None:
    lines = melee_lines([5, 1, 1, 5, 1, 1])
    assert "Red Horse: wounds 0 → 1 (hit by Blue Riders in a drawn melee, 1 hit each)" in lines
    assert "Blue Riders: wounds 0 → 1 (hit by Red Horse in a drawn melee, 1 hit each)" in lines
