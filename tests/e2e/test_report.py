"""/battle report through Discord: the after-action report of the fixed-seed skirmish.

Three turns are played (``test_battle_scenario``: Red's horse charges Blue's riders in turn 2
and is destroyed), the GM ends the battle, and anyone asks for the report.
"""

from __future__ import annotations

import json
import re

import pytest

from rules_core.verify import verify
from tests.e2e import test_battle_scenario as scenario
from tools.harness import Harness
from tools.skirmish_battle import field, refused

pytestmark = pytest.mark.usefixtures("fixed_seed")


async def test_the_report_tells_each_turn_with_losses_maps_and_a_record_that_verifies(
    aide: Harness, fixed_seed: bytes
) -> None:
    h, where = aide, aide.channel("hundred-years")
    h.timeout = 60.0  # two maps are drawn; not a timing test
    await scenario.play_to_turn_three(h, where, fixed_seed)
    early = await refused(h, h.alice, where, "battle report")
    assert early == "The after-action report is written once the battle has ended (`/battle end`)."
    asked = await h.slash(h.gm, "battle end", channel=where, reason="Dusk", winner="Blue")
    await h.click(h.gm, asked, label="Confirm")
    ending = h.messages(where)[-1]
    assert field(ending, "Losses") == "Red Host lost Red Horse.\nBlue Host lost nothing."

    answer = await h.slash(h.alice, "battle report", channel=where)
    assert not answer.ephemeral
    assert answer.content == (
        "📜 After-action report of **Ford**: Blue wins: Dusk.\n"
        "Red lost 1 of 3 units; Blue lost nothing. "
        "The story is in `report.md`, every step in `log.md`; check them against `record.json`."
    )
    files = {f.filename: f.data for f in answer.files}
    assert list(files) == ["report.md", "log.md", "map-start.png", "map-end.png", "record.json"]
    assert all(files[name].startswith(b"\x89PNG") for name in ("map-start.png", "map-end.png"))
    report, log = files["report.md"].decode(), files["log.md"].decode()

    assert report.startswith("# After-action report: Ford\n")
    assert "**Result:** Blue wins: Dusk" in report
    # The full log: each turn has its heading, and each resolved step its own, in order.
    headings = re.findall(r"^### (.+)$", log, re.MULTILINE)
    assert headings == ["Set-up", "Turn 1", "Turn 2", "Turn 3"]
    for turn in log.split("\n### ")[2:]:
        number = turn.split("\n")[0]  # "Turn 2": every step under it is of that turn
        steps = re.findall(r"^#### (.+)$", turn, re.MULTILINE)
        assert steps and all(step.startswith(f"{number} · ") for step in steps), turn
    assert "#### Turn 2 · Melee (Red)" in log
    assert "- Red Horse and Blue Riders fight hand to hand" in log
    # The losses are those of the final state: Red's horse, nothing of Blue's.
    assert "| Red | 3 | 1: Red Horse |" in report
    assert "| Blue | 3 | 0: nothing |" in report
    # The story: per turn what changed the battle, one sentence each; the turning point named.
    assert (
        "## The turning point\n\nTurn 2 was the turning point: Red's share of the strength "
        in report
    )
    story = report.split("## What changed the battle, turn by turn")[1].split("\n## ")[0]
    told = {
        title: [line[2:] for line in body.splitlines() if line.startswith("- ")]
        for title, body in re.findall(r"^### (.+?)\n\n(.*?)(?=\n### |\Z)", story, re.M | re.S)
    }
    assert list(told) == ["Set-up", "Turn 1", "Turn 2 (the turning point)", "Turn 3"]
    quiet = "Nothing changed the battle: no unit was lost, routed or broken."
    assert told["Turn 1"] == [quiet]  # a wound, a shot that hit nothing: not a change told
    melee = told["Turn 2 (the turning point)"]
    assert melee[0].startswith("Red Horse is destroyed: beaten in melee by Blue Riders, ")
    assert all(line.endswith(".") and "; " not in line for line in melee)
    assert "fight hand to hand" not in story  # the log's lines are in log.md, not here
    swings = report.split("## The biggest swings of luck")[1].split("\n## ")[0]
    assert len(re.findall(r"standard deviations from the average\)$", swings, re.M)) == 3
    assert "![The table as the battle ended](map-end.png)" in report

    record = json.loads(files["record.json"])
    assert record["seed"] == fixed_seed.hex()
    checked = verify(record)
    assert checked.ok, checked.problem
    assert checked.entries == len(record["entries"])
    assert json.loads(ending.files[0].data) == record  # the record posted at the end
