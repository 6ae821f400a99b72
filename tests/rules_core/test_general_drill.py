"""A ruleset's drill for the AI general (#36): Pike and Shot's stands off until the last turns."""

from __future__ import annotations

from bot import ai_bench
from rules_core import registry
from rules_core.rulesets.pike_and_shot.general_drill import LATE
from rules_core.rulesets.pike_and_shot.kept import engaged


def test_pike_and_shot_general_stands_off_a_holding_line_until_the_last_turns() -> None:
    """Against a side that holds, the general's units never walk into contact early (the
    demo's drill reaches the enemy's line by the third turn and is beaten piecemeal)."""
    rules = registry.get("pike_and_shot").rules
    assert rules is not None
    state = ai_bench.start(rules, None)
    limit = rules.parameter_values(state.parameters)["max_turns"]
    assert isinstance(limit, int)
    state, _ = ai_bench.play(rules, state, frozenset({"royalists"}), 0, last=limit - LATE - 1)
    assert state.outcome is None
    assert not any(engaged(state, u) for u in state.units_on_table)
    assert state.cursor.turn == limit - LATE
    ahead = [u.y for u in state.units_of("royalists", on_table=True)]
    assert max(ahead) > 30.0  # the line did come on (it started at 5")
