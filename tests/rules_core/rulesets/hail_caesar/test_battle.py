"""The scripted Hail Caesar battle ends by an army breaking; its log matches the golden file."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_core import registry
from rules_core.events import BattleEnded, DecisionRequested
from rules_core.plugin import Rules
from rules_core.rulesets.hail_caesar import RULESET
from tests.rules_core.rulesets.hail_caesar.script import SEED, Played, play
from tests.rules_core.scripted import matches_golden, round_trips, verified

GOLDEN = Path(__file__).parent / "golden" / "hail_caesar_battle.txt"


def rules() -> Rules:
    assert RULESET.rules is not None
    return RULESET.rules


@pytest.fixture(scope="module")
def played() -> Played:
    return play(rules())


def test_the_ruleset_is_registered_under_its_id_and_alias() -> None:
    found = registry.get("hail_caesar")
    assert found.id == "hail_caesar" and found.listed and found.measure == "inch"
    assert registry.get("hc") is found and found.rules is not None


def test_the_battle_lasts_three_turns_and_ends_by_an_army_breaking(played: Played) -> None:
    state = played.result.state
    assert state.outcome is not None and state.outcome.winner in ("rom", "gau")
    assert "army broke" in state.outcome.reason
    assert state.cursor.turn >= 3
    assert isinstance(played.result.events[-1], BattleEnded)
    assert any(isinstance(e, DecisionRequested) for e in played.result.events)


def test_the_battle_log_matches_the_golden_file(played: Played) -> None:
    assert matches_golden(played, GOLDEN)


def test_every_event_round_trips_through_json(played: Played) -> None:
    assert round_trips(played)


def test_the_record_verifies(played: Played) -> None:
    report = verified(played, SEED)
    assert report.ok, report.problem
    assert report.rolls > 20  # a shorter battle since chargers find room (issue 19)
