"""The scripted battle of Gergovia (the sample armies, the demo script, a fixed seed) plays the
pre-battle procedure and at least four full turns and ends by an army break; its log matches the
golden file and its record verifies."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_core.events import (
    BattleEnded,
    DecisionRequested,
    MeleeFought,
    StepBegan,
    SubjectsChanged,
    TestResolved,
    UnitMoved,
)
from rules_core.rulesets.impetus.status import ARMY_BROKEN
from tests.rules_core.rulesets.impetus.helpers import GOLDEN_SEED, play
from tests.rules_core.scripted import Played, matches_golden, round_trips, verified

GOLDEN = Path(__file__).parent / "golden" / "gergovia_battle.txt"


@pytest.fixture(scope="module")
def played() -> Played:
    return play()


def test_it_plays_four_full_turns_and_ends_by_an_army_break(played: Played) -> None:
    state = played.result.state
    assert state.outcome is not None and state.outcome.winner is not None
    assert "broken" in state.outcome.reason
    assert sum(ARMY_BROKEN.of(side) for side in state.sides) == 1
    events = played.result.events
    assert isinstance(events[-1], BattleEnded)
    ends = [e for e in events if isinstance(e, StepBegan) and e.step == "end_turn"]
    assert len(ends) >= 4


def test_every_command_activates_once_a_turn_in_the_order_the_contests_give(
    played: Played,
) -> None:
    by_turn: dict[int, list[str]] = {}
    for event in played.result.events:
        if isinstance(event, StepBegan) and event.step == "activate":
            by_turn.setdefault(event.turn, []).append(str(event.subject))
    commands = {g.id for g in played.first.groups if g.kind == "command"}
    full_turns = sorted(by_turn)[:-1]
    for turn in full_turns:
        assert sorted(by_turn[turn]) == sorted(commands) or len(by_turn[turn]) < len(commands)
        assert len(set(by_turn[turn])) == len(by_turn[turn])
    orders = {tuple(by_turn[t]) for t in full_turns}
    assert len(orders) > 1  # the order changes from turn to turn
    assert any(isinstance(e, SubjectsChanged) for e in played.result.events)


def test_the_battle_has_questions_moves_tests_and_melee(played: Played) -> None:
    events = played.result.events
    asked = [e for e in events if isinstance(e, DecisionRequested)]
    assert any(e.decision.topic == "initiative_command" for e in asked)
    assert any(e.decision.topic == "opportunity" for e in asked)  # a unit moved near an enemy
    assert any(e.decision.topic == "charge_reaction" for e in asked)  # a unit is charged
    assert any(isinstance(e, UnitMoved) for e in events)
    assert any(isinstance(e, MeleeFought) for e in events)
    tests = {e.test.split(" (")[0] for e in events if isinstance(e, TestResolved)}
    assert {"initiative", "discipline test"} <= tests
    frenzy = [e for e in events if isinstance(e, TestResolved) and "frenzy" in e.test]
    assert frenzy  # impetuous units not ordered to charge test to hold back


def test_the_battle_log_matches_the_golden_file(played: Played) -> None:
    assert matches_golden(played, GOLDEN)


def test_every_event_round_trips_through_json(played: Played) -> None:
    assert round_trips(played)


def test_the_record_verifies(played: Played) -> None:
    report = verified(played, GOLDEN_SEED)
    assert report.ok, report.problem
    assert report.rolls > 50
