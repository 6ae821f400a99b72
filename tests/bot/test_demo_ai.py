"""`python -m bot demo --ai`: the AI general plays a side, or both (#36)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import bot.services.battles
from bot.demo import main, run_demo
from rules_core.verify import verify


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same dice on every run (the orders follow what the dice did)."""
    monkeypatch.setattr(bot.services.battles, "new_seed", lambda: bytes(32 * [1]))


async def test_ai_against_ai_plays_the_turns_with_reasons_and_a_verified_record(
    tmp_path: Path,
) -> None:
    transcript = await run_demo("hail_caesar", 1, tmp_path, ai="both")
    text = transcript.read_text(encoding="utf-8")
    assert "## Turn 1 · Command: Orders — Legio (Legio IX (sample))" in text
    assert "## Turn 1 · Command: Orders — Warbands (Arverni (sample))" in text
    assert "- AI: Cretan Archers: shoots at " in text  # each order with why
    assert "- AI: Arverni Warband: charges " in text
    assert verify(json.loads((tmp_path / "record.json").read_text())).ok


async def test_the_ai_plays_one_side_the_script_the_other(tmp_path: Path) -> None:
    transcript = await run_demo("hail_caesar", 1, tmp_path, ai="arverni (sample)")
    text = transcript.read_text(encoding="utf-8")
    assert "- AI: Arverni Warband: " in text and "- AI: Legate Quintus: " not in text


def test_an_ai_side_that_is_no_side_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--ruleset", "hail_caesar", "--ai", "Carthage", "--out", str(tmp_path / "o")])
    assert str(stopped.value).startswith("--ai Carthage: No side called **Carthage**")


async def test_a_step_stopped_at_a_question_keeps_the_ai_s_orders_sealed_till_it_ends(
    tmp_path: Path,
) -> None:
    transcript = await run_demo("skirmish", 2, tmp_path, ai="both")
    lines = transcript.read_text(encoding="utf-8").splitlines()
    asked = next(i for i, line in enumerate(lines) if "stand or evade?" in line)
    charged = next(
        i for i, line in enumerate(lines) if line.startswith("- AI: ") and "charges" in line
    )
    resumed = next(i for i in range(asked, len(lines)) if lines[i].startswith("## "))
    assert asked < resumed < charged  # explained once the step the question stopped resolved
