"""`python -m bot demo`: a sample battle played offline, written out and verified."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

import bot.services.battles
from bot.demo import main, ruleset_problem, run_demo
from rules_core.verify import verify


@pytest.fixture
def seed_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dice under which the skirmish sample is undecided after turn 2 and Blue wins in turn 3."""
    monkeypatch.setattr(bot.services.battles, "new_seed", lambda: bytes(32 * [1]))


@pytest.mark.usefixtures("seed_one")
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
    assert f"## The record\n\n{verify(record).text()}" in text
    assert text.rstrip().endswith(
        "## How it ended\n\nThe demo stopped after 2 turns (--turns 2) before either army "
        "had won, so the battle is recorded as a draw."
    )


@pytest.mark.usefixtures("seed_one")
async def test_a_battle_won_in_the_demo_ends_its_transcript_with_why(tmp_path: Path) -> None:
    """Played on past its end, the battle stops at the rules' victory, named last."""
    transcript = await run_demo("skirmish", 12, tmp_path)
    ending = transcript.read_text(encoding="utf-8").rstrip().rsplit("## How it ended", 1)[1]
    assert ending.strip() == (
        "The battle ended in turn 3 by the rules of Skirmish (tutorial): "
        "Blue Host wins: every other army has broken."
    )


def test_a_folder_holding_files_is_refused_and_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "step-050.png").write_bytes(b"an old map")
    with pytest.raises(SystemExit) as stopped:
        main(["--out", str(tmp_path), "--turns", "1"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.strip() == (
        f"The folder {tmp_path} already holds files (notes.txt, step-050.png): choose an empty "
        "or new --out folder, or add --force to replace the demo's own files there (its maps, "
        "transcript.md and record.json; other files are kept)."
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "step-050.png"]


def test_force_clears_only_the_demos_own_files(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "step-050.png").write_bytes(b"a map of a longer run")
    (tmp_path / "step-about.png").write_bytes(b"not one of the demo's maps")
    (tmp_path / "transcript.md").write_text("an old transcript")
    assert main(["--out", str(tmp_path), "--turns", "1", "--force"]) == 0
    names = {p.name for p in tmp_path.iterdir()}
    assert {"notes.txt", "step-about.png", "transcript.md", "record.json"} <= names
    assert "step-050.png" not in names and (tmp_path / "notes.txt").read_text() == "mine"
    transcript = (tmp_path / "transcript.md").read_text(encoding="utf-8")
    maps = {n for n in names if n.startswith("step-0")}
    assert maps and all(f"![map]({m})" in transcript for m in maps)


def test_an_output_path_that_is_a_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "out").write_text("a file")
    with pytest.raises(SystemExit) as stopped:
        main(["--out", str(tmp_path / "out"), "--force"])
    assert stopped.value.code == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert (tmp_path / "out").read_text() == "a file"


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
