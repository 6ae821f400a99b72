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
from bot.presentation.aftermath import report_markdown
from bot.rendering.replay import render_replay
from bot.services import Services
from bot.services.aftermath import AfterAction, Replay
from rules_core.verify import verify

PLAYABLE = ("skirmish", "tree_of_battles", "hail_caesar")


async def both(services: Services) -> tuple[AfterAction, Replay]:
    return await services.aftermath.report(PLACE), await services.aftermath.replay(PLACE)


@pytest.mark.parametrize("ruleset", PLAYABLE)
async def test_each_ruleset_has_a_report_of_every_turn_and_a_replay(ruleset: str) -> None:
    report, replay = await after_playing(ruleset, 2, both)
    text = report_markdown(report)
    # Every turn a step was resolved in (as the replay's frames are titled) has its heading.
    played = sorted({frame.title.split(" · ")[0] for frame in replay.frames[1:]})
    headings = re.findall(r"^### (.+)$", text, re.MULTILINE)
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
    assert verify(json.loads(report.record)).ok
    assert replay.whole and replay.finished
    made = render_replay(replay.frames, width=480)
    assert Image.open(io.BytesIO(made.data)).n_frames == len(replay.frames)


def test_the_benchmark_prints_the_replays_size_and_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert bench_main(["--ruleset", "skirmish", "--turns", "1", "--width", "480"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("replay of a ") and "skirmish battle" in out[0]
    assert [line.split()[0] for line in out[1:]] == ["size", "frames", "time"]
