"""The battle state: JSON round trips exactly, carries a schema version, refuses bad data."""

from __future__ import annotations

import json

import pytest

from rules_core.decisions import Decision, Option, Pending
from rules_core.orders import Order
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import SCHEMA_VERSION, BattleState, TerrainFeature


def test_the_state_round_trips_through_json() -> None:
    state = sample_battle()
    text = json.dumps(state.to_dict())
    assert json.loads(text)["schema_version"] == SCHEMA_VERSION
    assert BattleState.from_dict(json.loads(text)) == state


def test_a_pending_question_round_trips_too() -> None:
    decision = Decision(
        "d", "Stand?", (Option("stand", "stand"), Option("evade", "evade")), "stand", "red"
    )
    pending = Pending(decision, (Order("r1", "charge", {"target": "b1"}),), (), 3)
    state = sample_battle().with_status(god_pack=["3H", "KS"])
    state = BattleState.from_dict(
        json.loads(json.dumps({**state.to_dict(), "pending": pending.to_dict()}))
    )
    assert state.pending == pending
    assert state.status["god_pack"] == ["3H", "KS"]


def test_an_unknown_schema_version_is_refused() -> None:
    data = sample_battle().to_dict()
    data["schema_version"] = SCHEMA_VERSION + 1
    with pytest.raises(ValueError, match="schema"):
        BattleState.from_dict(data)


def test_terrain_kinds_and_shapes_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown terrain kind"):
        TerrainFeature("x", "lava", ((0, 0), (1, 0), (1, 1)))
    with pytest.raises(ValueError, match="too few points"):
        TerrainFeature("x", "wood", ((0, 0), (1, 0)))
    assert TerrainFeature("x", "river", ((0, 0), (1, 0))).linear


def test_units_change_by_copy() -> None:
    state = sample_battle()
    spearmen = state.unit("r1").with_status(dps=2)
    changed = state.with_unit(spearmen)
    assert changed.unit("r1").status == {"dps": 2}
    assert state.unit("r1").status == {}
    assert changed.unit("r1").get("dps") == 2 and changed.unit("r1").get("move") == 6
    assert [u.id for u in changed.without_unit("r1").units_of("red")] == ["r2", "r3"]
    with pytest.raises(KeyError):
        state.unit("nobody")
