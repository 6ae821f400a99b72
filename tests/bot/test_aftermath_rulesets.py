"""Every playable ruleset's sample battle gets a replay and an after-action report.

The battle is played offline by the demo's scripted players (``bench.replay``), ended,
and read back through the aftermath service; the report is written as Markdown."""

from __future__ import annotations

import io
import json
import re

import pytest
from PIL import Image

from bench.replay import after_playing
from bench.replay import main as bench_main
from bot.demo import PLACE
from bot.presentation.aftermath import log_markdown, report_markdown
from bot.rendering.replay import render_replay
from bot.services import Services
from bot.services.aftermath import AfterAction, Replay
from bot.services.story import NOTHING, shares
from rules_core.verify import verify

PLAYABLE = ("skirmish", "tree_of_battles", "hail_caesar")


async def both(services: Services) -> tuple[AfterAction, Replay]:
    return await services.aftermath.report(PLACE), await services.aftermath.replay(PLACE)


@pytest.mark.parametrize("ruleset", PLAYABLE)
async def test_each_ruleset_has_a_report_of_every_turn_and_a_replay(ruleset: str) -> None:
    report, replay = await after_playing(ruleset, 2, both)
    text, log = report_markdown(report), log_markdown(report)
    # Every turn a step was resolved in (as the replay's frames are titled) has its heading,
    # in the story (one marked as the turning point) and in the full log.
    played = sorted({frame.title.split(" · ")[0] for frame in replay.frames[1:]})
    for written in (text, log):
        headings = re.findall(r"^### (.+?)(?: \(the turning point\))?$", written, re.MULTILINE)
        assert played and set(played) <= set(headings)
        assert headings == sorted(headings, key=lambda h: -1 if h == "Set-up" else int(h[5:]))
    # One row per side, each with the units it deployed and those no longer on the table.
    first, last = report.first.state, report.last.state
    kept = {u.id for u in last.units}
    for side in first.sides:
        own = [u for u in first.units if u.side == side.id]
        lost = [u.name for u in own if u.id not in kept]
        shown = ", ".join(lost) if lost else "nothing"
        assert f"| {side.name} | {len(own)} | {len(lost)}: {shown} |" in text
    assert_the_story_tells_what_changed(report)
    assert verify(json.loads(report.record)).ok
    assert replay.whole and replay.finished
    made = render_replay(replay.frames, width=480)
    assert Image.open(io.BytesIO(made.data)).n_frames == len(replay.frames)


def assert_the_story_tells_what_changed(report: AfterAction) -> None:
    """One sentence per change, every unit lost told once, the turning point a turn of change."""
    sentences = [line for turn in report.story for line in turn.sentences]
    assert all(line.endswith(".") and "\n" not in line for line in sentences)
    assert not [line for line in sentences if "; " in line and "fight hand to hand" in line]
    for loss in report.losses:
        for name in loss.lost:
            told = [line for line in sentences if line.startswith(f"{name} is destroyed")]
            assert len(told) == 1, (name, sentences)
    point = report.turning_point
    # The battle's dice are drawn afresh each run: when losses leave every side's share of the
    # strength where it began (each side lost alike), no turn moved the balance.
    before, after = shares(report.first.state), shares(report.last.state)
    if any(abs(before[side] - after[side]) > 1e-6 for side in before):
        assert point is not None and point.fall > 0
    if point is not None:
        turn = next(t for t in report.story if t.turn == point.turn)
        assert turn.sentences != (NOTHING,)
        assert point.sentence in report_markdown(report)


def test_the_benchmark_prints_the_replays_size_and_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert bench_main(["--ruleset", "skirmish", "--turns", "1", "--width", "480"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("replay of a ") and "skirmish battle" in out[0]
    assert [line.split()[0] for line in out[1:]] == ["size", "frames", "CPU"]
    assert "(target <= 3 s for 60 steps), wall " in out[3]  # CPU beside the target
