"""What the engine keeps beside a frozen state: who it waits for, units by id."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core import engine
from rules_core.rulesets.skirmish.rules import SkirmishRules
from rules_core.rulesets.skirmish.sample import sample_battle


def test_waiting_is_worked_out_once_per_state_and_ruleset() -> None:
    rules = SkirmishRules()
    state = engine.begin(rules, sample_battle())
    first = engine.waiting(rules, state)
    assert engine.waiting(rules, state) is first
    other = SkirmishRules()
    assert engine.waiting(other, state) == first
    moved_on = replace(state, cursor=replace(state.cursor, step="shoot"))
    assert engine.waiting(rules, moved_on).step == "shoot"
    assert first.step != "shoot"


def test_units_and_leaders_are_found_by_id_and_missing_ones_refused() -> None:
    state = sample_battle()
    unit, leader = state.units[-1], state.leaders[-1]
    assert state.unit(unit.id) is unit
    assert state.leader(leader.id) is leader
    with pytest.raises(KeyError, match="no unit 'nobody'"):
        state.unit("nobody")
    with pytest.raises(KeyError, match="no leader 'nobody'"):
        state.leader("nobody")
    assert state.without_unit(unit.id).units == state.units[:-1]
