"""The scripted skirmish battle plays to a victory; its log matches the golden file."""

from __future__ import annotations

from pathlib import Path

from rules_core import registry
from rules_core.events import BattleEnded, DecisionRequested
from rules_core.plugin import Rules
from tests.rules_core.rulesets.skirmish.script import play
from tests.rules_core.scripted import matches_golden, round_trips

GOLDEN = Path(__file__).parents[2] / "golden" / "skirmish_battle.txt"


def rules() -> Rules:
    found = registry.get("skirmish").rules
    assert found is not None
    return found


def test_the_scripted_battle_ends_in_a_victory() -> None:
    played = play(rules())
    assert played.result.state.outcome is not None
    assert played.result.state.outcome.winner in ("red", "blue")
    assert isinstance(played.result.events[-1], BattleEnded)
    assert any(isinstance(e, DecisionRequested) for e in played.result.events)


def test_the_battle_log_matches_the_golden_file() -> None:
    assert matches_golden(play(rules()), GOLDEN)


def test_every_event_round_trips_through_json() -> None:
    assert round_trips(play(rules()))
