"""The tests ``/odds test option:`` offers as you type (``DemoHooks.odds_tests``) are the ones
each ruleset's odds read: none is refused as an unknown test, as a made-up name is."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core import registry
from rules_core.odds import OddsQuery, Refused
from rules_core.state import ON_TABLE

OFFERING = [
    r.id
    for r in registry.all_rulesets(include_unlisted=True)
    if r.rules and r.rules.demo_hooks.odds_tests
]


def test_the_rulesets_with_several_tests_offer_them() -> None:
    assert set(OFFERING) == {"hail_caesar", "heroic_age", "impetus", "pike_and_shot"}


@pytest.mark.parametrize("ruleset", OFFERING)
def test_every_offered_test_is_read_by_the_odds(ruleset: str) -> None:
    rules = registry.get(ruleset).rules
    assert rules is not None and rules.demo_hooks.sample_battle is not None
    state = rules.demo_hooks.sample_battle()
    placed = [u for u in state.units if u.location == ON_TABLE]
    if not placed:  # Impetus's sample waits in reserve until its set-up steps: place one
        placed = [replace(state.units[0], location=ON_TABLE, x=20.0, y=10.0)]
        state = state.with_unit(placed[0])

    def odds_of(unit_id: str, option: str) -> object:
        return rules.odds(state, OddsQuery("test", unit_id, None, {"option": option}))

    # the first unit any offered test applies to (an A grade, where only it chooses)
    unit = next(
        u
        for u in placed
        if any(not isinstance(odds_of(u.id, o), Refused) for o in rules.demo_hooks.odds_tests)
    )
    made_up = odds_of(unit.id, "no_such_test")
    answers = {option: odds_of(unit.id, option) for option in rules.demo_hooks.odds_tests}
    if isinstance(made_up, Refused):
        assert all(a != made_up for a in answers.values()), answers
    assert len({repr(a) for a in answers.values()}) > 1  # each option asks something else
