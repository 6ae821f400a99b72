"""The scripted Ethandun plays six full turns; its log matches the golden file and verifies."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_core import registry
from rules_core.events import BattleEnded, DecisionRequested, MeleeFought, ShotFired, TestResolved
from rules_core.plugin import Rules
from tests.rules_core.rulesets.heroic_age.script import SEED, Played, play
from tests.rules_core.scripted import matches_golden, round_trips, verified

GOLDEN = Path(__file__).parent / "golden" / "ethandun_battle.txt"


def rules() -> Rules:
    found = registry.get("heroic_age").rules
    assert found is not None
    return found


@pytest.fixture(scope="module")
def played() -> Played:
    return play(rules())


def test_the_scripted_battle_plays_at_least_four_turns_and_ends(played: Played) -> None:
    state = played.result.state
    assert state.outcome is not None and state.cursor.turn >= 4
    assert isinstance(played.result.events[-1], BattleEnded)
    events = played.result.events
    assert any(isinstance(e, DecisionRequested) for e in events)
    assert any(isinstance(e, ShotFired) for e in events)
    assert any(isinstance(e, MeleeFought) for e in events)
    tests = {e.test.split(" (")[0] for e in events if isinstance(e, TestResolved)}
    assert {"Control test", "Charge test", "Combat result", "Risk to leader"} <= tests


def test_the_battle_log_matches_the_golden_file(played: Played) -> None:
    assert matches_golden(played, GOLDEN)


def test_every_event_round_trips_through_json(played: Played) -> None:
    assert round_trips(played)


def test_the_record_verifies(played: Played) -> None:
    report = verified(played, SEED)
    assert report.ok, report.problem
    assert report.rolls > 100
