"""`python -m bot demo`: a sample battle played offline, written out and verified."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from bot.demo import main, ruleset_problem, run_demo
from rules_core.verify import verify


async def test_demo_plays_writes_maps_and_a_verified_record(tmp_path: Path) -> None:
    transcript = await run_demo("skirmish", 2, tmp_path)
    text = transcript.read_text(encoding="utf-8")
    assert text.startswith("# Demo: Skirmish (tutorial)")
    assert "## Turn 1 · Movement" in text and "## Turn 2 · Movement" in text
    maps = sorted(tmp_path.glob("step-*.png"))
    assert len(maps) >= 8
    assert all(f"![map]({m.name})" in text for m in maps)
    with Image.open(maps[-1]) as image:
        assert image.format == "PNG" and image.width == 1600
    record = json.loads((tmp_path / "record.json").read_text())
    assert record["seed"] is not None and verify(record).ok
    assert text.rstrip().endswith(verify(record).text())


def test_unknown_ruleset_is_one_line_naming_the_playable_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--ruleset", "nope"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "No ruleset 'nope'; the demo plays tree_of_battles, pike_and_shot, hail_caesar, "
        "impetus, heroic_age, skirmish."
    ]


@pytest.mark.usefixtures("sketch")
def test_a_ruleset_without_rules_is_refused_in_one_line() -> None:
    problem = ruleset_problem("sketch")  # the test folder's playable rulesets are listed too
    assert problem is not None and problem.startswith(
        "Sketch (test) cannot play a demo yet; the demo plays tree_of_battles, pike_and_shot, "
        "hail_caesar, impetus, heroic_age, "
    )
    assert problem.endswith(", skirmish.") and "sketch" not in problem


async def test_hail_caesar_demo_stops_at_the_turns_asked_for(tmp_path: Path) -> None:
    transcript = await run_demo("hail_caesar", 1, tmp_path)
    text = transcript.read_text(encoding="utf-8")
    assert "## Turn 1 · " in text and "## Turn 2 · " not in text
