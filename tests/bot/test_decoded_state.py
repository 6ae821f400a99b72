"""A battle's stored state is decoded once while it stays the same (issue 21): what the engine
keeps beside a state (who it waits for, a paused resolution) serves the next command."""

from __future__ import annotations

import json

from bot.services.battle_state import decoded
from rules_core import engine
from rules_core.rulesets.skirmish.rules import SkirmishRules
from rules_core.rulesets.skirmish.sample import sample_battle


def test_equal_stored_data_gives_the_same_state_and_a_change_a_new_one() -> None:
    rules = SkirmishRules()
    state = engine.begin(rules, sample_battle())
    stored = json.loads(json.dumps(state.to_dict()))
    first = decoded(990_001, stored)
    assert first == state
    again = decoded(990_001, json.loads(json.dumps(state.to_dict())))  # read again: equal data
    assert again is first
    assert engine.waiting(rules, again) is engine.waiting(rules, first)  # worked out once
    moved = json.loads(json.dumps(state.to_dict()))
    moved["units"][0]["x"] += 1.0
    changed = decoded(990_001, moved)
    assert changed is not first and changed.units[0].x == state.units[0].x + 1.0
    stored["units"][0]["x"] += 5.0  # the caller's dict changed in place after it was decoded
    assert decoded(990_001, stored) is not first
    assert decoded(990_002, moved) is not changed  # kept per battle
