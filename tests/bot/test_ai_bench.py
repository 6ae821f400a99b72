"""``python -m bot ai-bench`` plays a small game each way and prints its table (#36)."""

from __future__ import annotations

import pytest

from bot.__main__ import COMMANDS
from bot.ai_bench import main


def test_ai_bench_plays_one_game_each_way_and_prints(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--ruleset", "skirmish", "--games", "1"]) == 0
    printed = capsys.readouterr().out
    assert "skirmish (sample battle, 1 games, turn limit 6)" in printed
    assert "AI vs defaults:" in printed and "AI vs AI:" in printed
    assert "planning CPU per side per game turn" in printed


def test_ai_bench_is_a_command_of_the_bot() -> None:
    assert "ai-bench" in COMMANDS
