"""README.md's "How to play" after its numbered steps, run as written.

The numbered steps are walked by test_readme_how_to_play.py. What follows them (how long a
battle takes, one visit per turn, terrain from tables and units off the table, odds, replay
and report, the campaign map, who sees what) names commands too: every slash command span
there is read from the README itself and either run through the real bot at the moment it
is meant for (set-up, a running battle, the battle ended, between battles on the campaign
map) or, if it names a command without the options it needs, checked against the synced
schema (the command and every option it names exist). Each runnable example must succeed:
the tree's error handler is never called for it, and the answer is not a refusal, except
where the README itself says the command refuses (``REFUSES``).

A new example in those sections fails the test until it is given its moment in ``STAGE``,
so the README cannot drift from the bot.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import MakeHarness
from tests.e2e.sheet_battle import confirm, start
from tests.e2e.test_hail_caesar_turn import BATTLE, ROMANS, set_up
from tests.e2e.test_plan_ahead import step_keys
from tests.e2e.test_readme_how_to_play import (
    Example,
    command_paths,
    parse,
    typed,
    watch_errors,
)
from tools.fake_discord.interactions import find_command
from tools.harness import Harness, InteractionResult

pytestmark = pytest.mark.usefixtures("fixed_seed")
ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MAP_FILE = ROOT / "docs" / "campaign_map" / "marches.yaml"

# When each runnable example is run (by command path); every other one runs mid-battle.
STAGE = {
    "battle terrain roll": "set-up",
    "order done": "done for the turn",
    "battle report": "ended",
    "campaign map import": "map",
    "campaign map move": "map",
    "campaign map show": "map",
    "campaign map turn": "map",
}
# Examples the README says are refused, with what the refusal must point at.
REFUSES = {
    # "A ruleset without terrain tables (none of the playable ones has one yet) refuses
    # privately and points at `/battle terrain add`."
    "/battle terrain roll": "`/battle terrain add`",
    # "(refused until something is planned for the next turn)": the walk plans nothing for it.
    "/order done next_turn:true": "You have planned nothing for the next turn yet",
}
# Named where a question is open; a question's moment is staged by test_who_sees_what.py
# and test_standing_instructions.py, which answer them with `/answer`.
# `/battle start` is named as the usual end of setting up a battle the campaign map made
# (test_campaign_map.py fights one).
# Handing the walk's own side to the AI general would end its player's part of the walk:
# tests/e2e/test_ai_general.py hands a side to the AI and back.
IN_PASSING = {
    "/answer",
    "/answer answer:<option>",
    "/battle start",
    "/battle hand-over side:<side> member:ai",
}


def after_the_steps() -> str:
    """How to play, from the paragraphs after the numbered steps to the next chapter."""
    text = README.read_text(encoding="utf-8")
    start = text.index("**How long a battle takes.**")
    return text[start : text.index("\n## ", start)]


def spans() -> list[str]:
    """Every inline code span starting with a slash, in order (line breaks read as spaces)."""
    section = re.sub(r"```.*?```", "", after_the_steps(), flags=re.S)
    section = re.sub(r"\s*\n\s*", " ", section)
    return [s for s in re.findall(r"`([^`]+)`", section) if s.startswith("/")]


def sorted_examples(h: Harness) -> tuple[list[Example], list[Example]]:
    """The examples to run and the outlines (a command named without what it needs)."""
    paths = command_paths(h)
    runnable, outlines = [], []
    for span in spans():
        example = parse(span, paths)
        if example.path not in paths:
            outlines.append(example)
            continue
        _cmd, _subs, schema = find_command(h.fake, example.path)
        required = {o["name"] for o in schema if o.get("required")}
        empty = any(v == "" for v in example.options.values())
        if example.bare or empty or span in IN_PASSING or not required <= set(example.options):
            outlines.append(example)
        else:
            runnable.append(example)
    return runnable, outlines


class Walk:
    """A GM, Rome (Alice) and Gaul (Bob) at Gergovia (Hail Caesar), running the examples."""

    def __init__(self, h: Harness) -> None:
        self.h, self.where = h, h.channel("punic-wars")
        self.errors: list[str] = []
        watch_errors(h, self.errors)

    def user_for(self, example: Example) -> Any:
        """GM commands by the GM, `/campaign watch` by an outsider, the rest by Alice."""
        h = self.h
        gm_paths = ("gm ", "campaign deadlines", "campaign admit", "campaign visibility")
        gm_paths += ("battle terrain", "campaign map import", "campaign map turn")
        if example.path == "campaign watch":
            return h.outsider
        if example.path == "campaign join":
            return h.world.owner  # the member just admitted
        return h.gm if example.path.startswith(gm_paths) else h.alice

    def fill(self, example: Example) -> dict[str, Any]:
        """The example's options with its placeholders filled."""
        h = self.h
        values = {
            "unit:<unit>": "Cretan Archers",
            "unit:<yours>": "First Cohort",
            "target:<enemy>": "Arverni Warband",
            "reason:<why>": "a GM's ruling",
            "at:<x,y>": "18,10.5",  # where the archers stood
            "number:<n>": "1",
            "side:<side>": "Rome",
            "army:<yours>": ROMANS,
            "to:<region>": "Chester",
        }
        out: dict[str, Any] = {}
        for name, value in example.options.items():
            if name == "member":
                out[name] = h.world.owner
            elif name == "file":  # the README's sample map, its sides named as this campaign's
                text = MAP_FILE.read_text(encoding="utf-8")
                text = text.replace("England", "Rome").replace("Wales", "Gaul")
                out[name] = h.upload("marches.yaml", text)
            elif value.startswith("<"):
                key = f"{name}:{value}"
                assert key in values, f"no value for {key} in {example.text}"
                out[name] = values[key]
            else:
                out[name] = value
        return out

    async def run(self, example: Example) -> InteractionResult:
        """Run one example as its user; it must succeed (or refuse as the README says)."""
        h = self.h
        _cmd, _subs, schema = find_command(h.fake, example.path)
        user = self.user_for(example)
        options = typed(h, schema, self.fill(example))
        if "member" in options:
            options["member"] = h.world.owner  # typed() would pick Bob, already a player
        before = len(self.errors)
        answer = await h.slash(user, example.path, channel=self.where, options=options)
        buttons = [c.get("label") for c in answer.message.interactive] if answer.message else []
        if buttons == ["Confirm", "Cancel"]:
            answer = await h.click(user, answer, label="Confirm")
        if example.text in REFUSES:
            assert answer.ephemeral and REFUSES[example.text] in answer.text, answer
            return answer
        assert self.errors[before:] == [], (example.text, self.errors[before:])
        return answer

    async def start(self) -> None:
        """Start, both sides confirm deployment, and Alice plans the archers' shot."""
        h, where = self.h, self.where
        await start(h, where, BATTLE, bytes(range(32)))
        await confirm(h, where, BATTLE, h.alice, h.bob)
        keys = await step_keys(h, h.alice)
        planned = await h.slash(
            h.alice, "order shoot", channel=where,
            unit="Cretan Archers", target="Slingers", step=keys["Shooting"],
        )  # fmt: skip
        assert planned.content.startswith("🗓️ Planned for **Shooting**"), planned

    async def end(self) -> None:
        """The GM ends the battle (a draw), so the report can be posted and the map moves."""
        h = self.h
        asked = await h.slash(h.gm, "battle end", channel=self.where, reason="nightfall")
        ended = await h.click(h.gm, asked, label="Confirm")
        assert ended.type == 7, ended


async def test_the_sections_after_the_steps_run_as_written(make_aide: MakeHarness) -> None:
    aide = await make_aide(web_port=0)  # the war table served, as by default: /battle table
    walk = Walk(aide)
    runnable, outlines = sorted_examples(aide)
    assert len(runnable) >= 20, [e.text for e in runnable]  # the walk really runs the sections

    # An outline names a real command (or group) and only options it has.
    groups = command_paths(aide, groups=True)
    for outline in outlines:
        words = outline.text[1:].split()
        path = " ".join(words[: max(k for k in range(1, 4) if " ".join(words[:k]) in groups)])
        assert path in groups, outline.text
        if outline.options and path in command_paths(aide):
            _cmd, _subs, schema = find_command(aide.fake, path)
            assert set(outline.options) <= {o["name"] for o in schema}, outline.text

    stages = {e.text: STAGE.get(e.path, "running") for e in runnable}
    ran: list[str] = []

    async def run_stage(stage: str) -> None:
        for example in runnable:
            if stages[example.text] == stage:
                await walk.run(example)
                ran.append(example.text)

    await set_up(aide)  # the campaign, both armies, the battle set up and deployed
    await run_stage("set-up")
    await walk.start()
    await run_stage("running")
    await run_stage("done for the turn")
    await walk.end()
    await run_stage("ended")
    await run_stage("map")
    assert sorted(ran) == sorted(e.text for e in runnable)  # every example, once
    assert "/order done turn:true" in ran and "/campaign map turn" in ran
