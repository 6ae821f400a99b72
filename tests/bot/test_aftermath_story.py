"""The after-action report's story (#33 item 6): what changed each turn in one sentence each,
a swing only among fights that did something, and the turning point read from the data."""

from __future__ import annotations

from dataclasses import replace

from bot.services.story import (
    NOTHING,
    TurningPoint,
    TurnPlayed,
    changes,
    shares,
    story,
    turning_point,
)
from rules_core.dice import Die, Roll
from rules_core.events import DiceRolled, Event, ShotFired, StatusChanged, UnitDestroyed
from rules_core.render import Renderer
from rules_core.rulesets.pike_and_shot.sample import sample_battle as pike_battle
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import BattleState


def pool(successes: int, dice: int = 6) -> DiceRolled:
    """A pool of D6 hitting on 4+ with ``successes`` sixes and the rest ones."""
    faces = (Die("D6", 6),) * successes + (Die("D6", 1),) * (dice - successes)
    spec = f"{dice}D6>=4"
    roll = Roll(
        "Shooting: Red Archers at Blue Riders",
        spec,
        faces,
        total=successes,
        target=4,
        successes=successes,
        mode="pool",
    )
    return DiceRolled(roll)


def turn(number: int, start: BattleState, end: BattleState, *events: Event) -> TurnPlayed:
    return TurnPlayed(number, events, start, end)


def test_a_shot_that_did_nothing_is_not_told_and_its_roll_is_no_swing() -> None:
    state = sample_battle()
    r = Renderer.for_state(state)
    missed = turn(1, state, state, ShotFired("r2", "b3"), pool(0))  # 0 of 6: far below the odds
    assert changes(missed, r) == ()
    assert story([missed], r)[0].sentences == (NOTHING,)


def test_a_shot_that_destroyed_a_unit_is_told_with_its_swing_in_one_sentence_each() -> None:
    state = sample_battle()
    r = Renderer.for_state(state)
    hit = turn(
        1,
        state,
        state.without_unit("b3"),
        ShotFired("r2", "b3"),
        pool(6),
        UnitDestroyed("b3", "shot down"),
    )
    said = changes(hit, r)
    assert said[0] == "Blue Riders is destroyed: shot down."
    assert said[1].startswith("Against the odds: Shooting: Red Archers at Blue Riders: 6D6>=4")
    assert said[1].endswith("2.4 standard deviations above its average.")
    assert len(said) == 2


def test_a_routed_unit_is_told_once_and_counts_half_its_strength() -> None:
    state = pike_battle()
    unit = state.units[0]
    routed = state.with_unit(replace(unit, status={**unit.status, "cohesion": "routed"}))
    r = Renderer.for_state(state)
    fell = StatusChanged(unit.id, "cohesion", "disordered", "routed", "failed its cohesion test")
    assert changes(turn(1, state, routed, fell), r) == (
        f"{unit.name} is routed: failed its cohesion test.",
    )
    assert changes(turn(2, routed, routed, replace(fell, old="routed")), r) == ()
    mine, theirs = len(state.units_of(unit.side)), len(state.units) - len(state.units_of(unit.side))
    assert shares(routed)[unit.side] == (mine - 0.5) / (mine - 0.5 + theirs)


def test_the_turning_point_is_the_turn_that_moved_the_balance_most() -> None:
    three_each = sample_battle()
    red_lost = three_each.without_unit("r3")  # Red: 3 of 6 → 2 of 5 (50% → 40%)
    blue_lost_two = red_lost.without_unit("b1").without_unit("b3")  # Blue: 60% → 33%
    turns = [
        turn(1, three_each, three_each),
        turn(2, three_each, red_lost),
        turn(3, red_lost, blue_lost_two),
    ]
    point = turning_point(turns, Renderer.for_state(three_each))
    assert point == TurningPoint(3, "Blue", (0.6, 1 / 3))
    assert point.sentence == (
        "Turn 3 was the turning point: Blue's share of the strength still in the battle fell "
        "from 60% to 33%."
    )
    assert turning_point(turns[:1], Renderer.for_state(three_each)) is None
    marked = story(turns, Renderer.for_state(three_each))
    assert [t.turning for t in marked] == [False, False, True]


def test_an_army_passing_its_break_point_is_told_from_the_rules() -> None:
    state = sample_battle()
    broken = state.without_unit("b1").without_unit("b2")  # half of Blue's units gone
    said = changes(turn(2, state.without_unit("b1"), broken), Renderer.for_state(state))
    assert said == ("Blue's army has passed its break point.",)
