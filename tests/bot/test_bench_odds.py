"""The odds benchmark asks real questions of every playable ruleset (no timing is checked)."""

from __future__ import annotations

import pytest

from bench.odds import main, measure
from rules_core import registry


# Impetus's sample battle starts with every unit in reserve (it sets its table up in its
# own steps), so there is nothing on the table to ask about: its odds are tested in
# tests/rules_core/rulesets/impetus/test_chances.py.
@pytest.mark.parametrize(
    "ruleset", ["tree_of_battles", "hail_caesar", "skirmish", "heroic_age", "pike_and_shot"]
)
def test_every_kind_of_question_is_answered_somewhere_in_the_sample(ruleset: str) -> None:
    rules = registry.get(ruleset).rules
    assert rules is not None
    state = rules.sample_battle()
    assert state is not None
    times = measure(rules, state)
    # Pike and shot has no charge: melee comes from moving into contact (its odds: "melee").
    kinds = ("shoot", "test") if ruleset == "pike_and_shot" else ("charge", "shoot", "test")
    assert all(times[kind] for kind in kinds), times


def test_the_table_has_a_line_per_ruleset_and_kind(capsys: pytest.CaptureFixture[str]) -> None:
    main([])
    printed = capsys.readouterr().out.splitlines()
    for ruleset in (
        "tree_of_battles",
        "hail_caesar",
        "skirmish",
        "heroic_age",
        "pike_and_shot",
        "impetus",
    ):
        assert sum(line.startswith(ruleset) for line in printed) == 3
