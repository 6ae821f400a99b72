"""``python -m bot ai-bench`` plays a small game each way and prints its table (#36)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.__main__ import COMMANDS
from bot.ai_bench import ended_by_break, main, start
from rules_core.big_battles import begun
from rules_core.registry import get
from rules_core.state import Outcome


def test_ai_bench_plays_one_game_each_way_and_prints(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--ruleset", "skirmish", "--games", "1"]) == 0
    printed = capsys.readouterr().out
    assert "skirmish (sample battle, 1 games, turn limit 6)" in printed
    assert "AI vs defaults:" in printed and "AI vs AI:" in printed
    assert "planning CPU per side per game turn" in printed


def test_ai_bench_is_a_command_of_the_bot() -> None:
    assert "ai-bench" in COMMANDS


def test_both_armies_breaking_at_once_ends_a_game_and_the_turn_limit_does_not() -> None:
    rules = get("skirmish").rules
    assert rules is not None
    state = begun(rules, 4)
    assert not ended_by_break(rules, state)
    limit = replace(state, outcome=Outcome(None, "6 turns played with neither army broken"))
    assert not ended_by_break(rules, limit)
    gone = replace(state, units=())
    both = replace(gone, outcome=rules.outcome(gone))
    assert both.outcome is not None and both.outcome.winner is None
    assert ended_by_break(rules, both)
    won = replace(state, outcome=Outcome(state.sides[0].id, "the enemy army broke"))
    assert ended_by_break(rules, won)


def test_a_campaigns_parameter_plays_every_game_and_is_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rules = get("tree_of_battles").rules
    assert rules is not None
    assert start(rules, None, {"army_break_share": 0.5}).parameters["army_break_share"] == 0.5
    assert "army_break_share" not in start(rules, None).parameters
    assert main(["--ruleset", "skirmish", "--games", "1", "--param", "max_turns=2"]) == 0
    assert "turn limit 2, max_turns 2)" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="NAME one of: .*max_turns"):
        main(["--ruleset", "skirmish", "--games", "1", "--param", "no_such=1"])
