"""The Vanguard test ruleset played by its script: an empty table, terrain rolled on a table and
placed by the sides, units deployed alternately by orders, commands activated in an order
settled during the turn with two moves each, and a unit off the table and back. Its log
matches the golden file and its record verifies."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_core import engine
from rules_core.events import (
    StatusChanged,
    StepBegan,
    SubjectsChanged,
    TerrainAdded,
    UnitDeployed,
    UnitLeftTable,
    UnitReturned,
)
from rules_core.plugin import Rules
from rules_core.state import OFF_TABLE, ON_TABLE, RESERVE, BattleState, Side
from tests.rules_core.scripted import Played, matches_golden, play_scripted, round_trips, verified

GOLDEN = Path(__file__).parent / "golden" / "vanguard_battle.txt"
SEED = b"vanguard-golden-seed"


def empty_table(rules: Rules) -> BattleState:
    """A new battle with both sides' units in reserve, as ``/battle start`` leaves it."""
    sides = (Side("a", "Red"), Side("b", "Blue"))
    state = rules.new_battle("battle-1", "vanguard", 48, 36, sides)
    groups = list(state.groups)
    units = []
    for side, army in zip(sides, rules.sample_armies(), strict=True):
        more, _ = rules.forces_from_roster(army, side.id)
        groups += more
        entries = army["units"]
        assert isinstance(entries, list)
        for n, entry in enumerate(entries, 1):
            assert isinstance(entry, dict)
            unit = rules.unit_from_roster(entry, f"{side.id}{n}", side.id, f"{side.id}_main")
            units.append(unit.__class__(**{**unit.__dict__, "location": RESERVE}))
    return state.__class__(**{**state.__dict__, "groups": tuple(groups), "units": tuple(units)})


def play(rules: Rules) -> Played:
    return play_scripted(
        rules, empty_table(rules), SEED,
        lambda r, state, side: r.demo_orders(state, side), r_default, 200,
    )  # fmt: skip


def r_default(state: BattleState) -> str:
    assert state.pending is not None
    return state.pending.decision.default


@pytest.fixture
def played(vanguard: Rules) -> Played:
    return play(vanguard)


def test_the_table_starts_empty_and_is_set_up_by_the_sides_orders(played: Played) -> None:
    assert all(u.location == RESERVE for u in played.first.units) and not played.first.terrain
    events = played.result.events
    added = [e for e in events if isinstance(e, TerrainAdded)]
    assert len(added) == 2 and {e.feature.kind for e in added} <= {"wood", "hill", "rough", "marsh"}
    deployed = [e.unit for e in events if isinstance(e, UnitDeployed)]
    assert deployed == ["a1", "b1", "a2", "b2"]  # alternately, one unit at a time
    ready = [e for e in events if isinstance(e, StatusChanged) and e.field == "ready"]
    assert len(ready) == 1  # the set-up hook ran once
    before = events.index(ready[0])
    assert not any(isinstance(e, StepBegan) and e.turn >= 1 for e in events[:before])


def test_commands_activate_in_an_order_settled_during_the_turn(played: Played) -> None:
    events = played.result.events
    moves = [(e.turn, e.subject) for e in events if isinstance(e, StepBegan) and e.step == "move"]
    assert moves.count((1, "a_van")) == 2  # two moves in one activation, one after another
    assert any(isinstance(e, SubjectsChanged) for e in events)  # the deployment went on


def test_a_unit_leaves_the_table_and_comes_back(played: Played) -> None:
    events = played.result.events
    (left,) = [e for e in events if isinstance(e, UnitLeftTable)]
    (back,) = [e for e in events if isinstance(e, UnitReturned)]
    assert events.index(left) < events.index(back)
    assert left.unit == back.unit == "a2"
    assert played.result.state.unit("a2").location == ON_TABLE
    assert OFF_TABLE != ON_TABLE


def test_the_battle_ends_in_a_draw_after_two_turns(played: Played) -> None:
    outcome = played.result.state.outcome
    assert outcome is not None and outcome.winner is None


def test_the_battle_log_matches_the_golden_file(played: Played) -> None:
    assert matches_golden(played, GOLDEN)


def test_the_record_verifies(played: Played) -> None:
    report = verified(played, SEED)
    assert report.ok, report.problem
    assert report.rolls > 0


def test_every_event_round_trips_through_json(played: Played) -> None:
    assert round_trips(played)


def test_the_battle_begins_with_the_first_sides_terrain(vanguard: Rules) -> None:
    state = engine.begin(vanguard, empty_table(vanguard))
    assert state.cursor.step == "terrain" and state.cursor.label(vanguard.sequence) == "terrain#a.0"
