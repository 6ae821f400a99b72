"""The odds benchmark asks real questions of every playable ruleset (no timing is checked)."""

from __future__ import annotations

import pytest

from bot.bench.odds import main, measure
from rules_core import registry


@pytest.mark.parametrize("ruleset", ["tree_of_battles", "hail_caesar", "skirmish", "heroic_age"])
def test_every_kind_of_question_is_answered_somewhere_in_the_sample(ruleset: str) -> None:
    rules = registry.get(ruleset).rules
    assert rules is not None
    state = rules.sample_battle()
    assert state is not None
    times = measure(rules, state)
    assert all(times[kind] for kind in ("charge", "shoot", "test")), times


def test_the_table_has_a_line_per_ruleset_and_kind(capsys: pytest.CaptureFixture[str]) -> None:
    main()
    printed = capsys.readouterr().out.splitlines()
    for ruleset in ("tree_of_battles", "hail_caesar", "skirmish", "heroic_age"):
        assert sum(line.startswith(ruleset) for line in printed) == 3
