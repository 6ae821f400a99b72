"""The scripted Agincourt plays three full turns and more; its log matches the golden file."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_core import registry
from rules_core.events import (
    BattleEnded,
    DecisionRequested,
    LeaderHit,
    TestResolved,
)
from rules_core.plugin import Rules
from tests.rules_core.rulesets.tree_of_battles.script import SEED, Played, play
from tests.rules_core.scripted import matches_golden, round_trips, verified

GOLDEN = Path(__file__).parent / "golden" / "agincourt_battle.txt"


def rules() -> Rules:
    found = registry.get("tree_of_battles").rules
    assert found is not None
    return found


@pytest.fixture(scope="module")
def played() -> Played:
    return play(rules())


def test_the_scripted_battle_ends_at_the_turn_limit(played: Played) -> None:
    outcome = played.result.state.outcome
    assert outcome is not None and outcome.winner is None
    assert "4 turns played" in outcome.reason
    assert isinstance(played.result.events[-1], BattleEnded)
    assert any(isinstance(e, DecisionRequested) for e in played.result.events)
    tests = {e.test.split(" (")[0] for e in played.result.events if isinstance(e, TestResolved)}
    assert {"Control test", "Risk to leader", "Leader hit"} <= tests
    assert any(isinstance(e, LeaderHit) for e in played.result.events)


def test_the_battle_log_matches_the_golden_file(played: Played) -> None:
    assert matches_golden(played, GOLDEN)


def test_every_event_round_trips_through_json(played: Played) -> None:
    assert round_trips(played)


def test_the_record_verifies(played: Played) -> None:
    report = verified(played, SEED)
    assert report.ok, report.problem
    assert report.rolls > 100
