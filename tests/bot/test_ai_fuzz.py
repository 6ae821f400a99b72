"""The AI general's games as a rules fuzzer: every registered ruleset's sample battle, played
AI against AI from a few seeds to its end or its turn limit through ``ai-bench``'s own ``play``,
raises nothing; every state it passes through keeps the ruleset's declared status (each key
declared, each value of its kind and allowed by the ruleset), no two bases overlap, and the
game's battle record verifies. ``python -m bot ai-bench --ruleset ID --games N`` plays more.
"""

from __future__ import annotations

import json

import pytest

from bot import ai_bench
from rules_core import registry
from rules_core.engine import Resolution
from rules_core.plugin import Rules
from rules_core.record import BattleRecord
from rules_core.state import BattleState
from rules_core.status import held
from rules_core.verify import verify
from tests.rules_core.test_no_overlap import on_table, overlaps

SEEDS = (0, 1, 2)
# The AI's CPU per side per game turn: an hour, so that its planning never stops for time and a
# seed plays the same game on any machine (a sample battle's side plans in well under a second).
BUDGET_S = 3600.0
RULESETS = [ruleset.id for ruleset in registry.all_rulesets() if ruleset.rules is not None]


def problems(rules: Rules, state: BattleState) -> list[str]:
    """What is wrong with a state the engine left: undeclared status, a value of the wrong
    kind or one the ruleset refuses, overlapping bases."""
    where = f"turn {state.cursor.turn} {state.cursor.step}"
    found = []
    for scope, key in held(state):
        if not rules.statuses.declares(key, scope):
            found.append(f"{where}: status {key!r} is not declared for a {scope.value}")
    for unit in state.units:
        for key, value in unit.status.items():
            try:
                rules.statuses.get(key).check(value)
            except (KeyError, TypeError, ValueError) as error:
                found.append(f"{where}: {unit.id} {key}={value!r}: {error}")
            refused = rules.status_problem(state, unit, key, value)
            if refused is not None:
                found.append(f"{where}: {unit.id} {key}={value!r}: {refused}")
    found += [
        f"{o.where}: {o.first} overlaps {o.second} by {o.depth}"
        for o in overlaps(on_table(state), where)
    ]
    return found


def fuzzed(rules: Rules, seed: int) -> tuple[BattleState, BattleRecord, list[str]]:
    """One AI-vs-AI game of the sample battle: its last state, its record (seed revealed) and
    every problem found in a state after an engine call."""
    state = ai_bench.start(rules, None)
    record = [BattleRecord.start(state, ai_bench.dice(seed))]
    found = problems(rules, state)

    def watch(result: Resolution) -> None:
        record[0] = record[0].extended(result.entries)
        found.extend(problems(rules, result.state))

    sides = frozenset(side.id for side in state.sides)
    end, _ = ai_bench.play(rules, state, sides, seed, budget_s=BUDGET_S, watch=watch)
    return end, record[0].revealed(ai_bench.dice(seed)), found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_ai_games_raise_nothing_keep_the_rules_and_verify(ruleset: str) -> None:
    rules = registry.get(ruleset).rules
    assert rules is not None
    for seed in SEEDS:
        end, record, found = fuzzed(rules, seed)
        assert found == [], f"seed {seed}"
        assert end.outcome is not None or end.cursor.turn > ai_bench.TURNS, seed
        report = verify(json.loads(json.dumps(record.to_dict())))
        assert report.ok, f"seed {seed}: {report.problem}"
        assert report.entries == len(record.entries) > 0
        assert BattleState.from_dict(json.loads(json.dumps(end.to_dict()))) == end
