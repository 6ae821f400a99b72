"""What the bot refuses during a battle: privately, saying exactly why, changing nothing.

"Nothing changed" is checked through Discord: the rendered map (the same state always gives
the same PNG bytes), the battle card, each player's orders, the terrain list and the
channel's posts are the same after the refusals as before them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from tools.fake_discord import FakeUser
from tools.fake_discord.world import FakeChannel
from tools.harness import Harness
from tools.skirmish_battle import (
    CAMPAIGN,
    open_questions,
    posts,
    refused,
    reports,
    set_up_battle,
    skirmish_campaign,
)

pytestmark = pytest.mark.usefixtures("fixed_seed")
ONLY_GM = f"Only a GM of **{CAMPAIGN}** can do that; `/campaign info` names its GMs."
MALFORMED = "write it as `x,y`, for example `12,4.5`."


@dataclass(frozen=True)
class Snapshot:
    """Everything a refusal must leave as it was, as Discord shows it."""

    map_png: bytes
    card: dict
    orders: tuple[str, str]
    terrain: str
    posts: int


async def snapshot(h: Harness, where: FakeChannel) -> Snapshot:
    """The battle as the GM and both players see it now."""
    posted = len(posts(h, where))
    shown = await h.slash(h.gm, "battle map", channel=where)
    card = await h.slash(h.gm, "battle status", channel=where)
    mine = [await h.slash(u, "orders mine", channel=where) for u in (h.alice, h.bob)]
    terrain = await h.slash(h.gm, "battle terrain list", channel=where)
    return Snapshot(
        shown.files[0].data, card.embeds[0], (mine[0].content, mine[1].content),
        terrain.content, posted,
    )  # fmt: skip


async def refused_after_confirming(
    h: Harness, user: FakeUser, where: FakeChannel, command: str, **options: object
) -> str:
    """A command that asks privately to confirm, then refuses privately on Confirm."""
    asked = await h.slash(user, command, channel=where, **options)
    assert asked.ephemeral, asked
    assert [c["label"] for c in asked.message.interactive] == ["Confirm", "Cancel"], asked
    answer = await h.click(user, asked, label="Confirm")
    assert answer.ephemeral and answer.followups == [], answer
    assert not answer.content.startswith(("✅", "Something went wrong")), answer
    return answer.content


@pytest.fixture
async def battle(aide: Harness) -> Harness:
    """Border Raids with the battle Ford set up (terrain laid, every unit deployed)."""
    await set_up_battle(aide, aide.channel("hundred-years"))
    return aide


async def test_set_up_refusals(battle: Harness) -> None:
    """Before the start: wrong people, wrong units, malformed and impossible positions."""
    h, where = battle, battle.channel("hundred-years")
    before = await snapshot(h, where)

    assert await refused(h, h.outsider, where, "order move", unit="Red Horse", x=1, y=2) == (
        "The battle has not started yet; a GM starts it with `/battle start`."
    )
    assert await refused(h, h.bob, where, "battle start") == ONLY_GM
    laid = await refused(
        h, h.alice, where, "battle terrain add", kind="wood", shape="circle", at="30,18", size="3"
    )
    assert laid == ONLY_GM
    theirs = await refused(h, h.alice, where, "battle deploy", unit="Blue Riders", at="30,8")
    assert theirs == "**Blue Riders** is not yours to deploy."
    assert await refused(h, h.gm, where, "battle deploy", unit="Red Horse", at="abc") == (
        f"Malformed position `abc`: {MALFORMED}"
    )
    polygon = await refused(
        h, h.gm, where, "battle terrain add", kind="rough", shape="polygon", at="1,2 x"
    )
    assert polygon == f"Malformed point 2 `x`: {MALFORMED}"
    rectangle = await refused(
        h, h.gm, where, "battle terrain add", kind="wood", shape="rectangle", at="1,2 x",
        size="3,3",
    )  # fmt: skip
    assert rectangle == f"Malformed centre `1,2 x`: {MALFORMED}"
    no_size = await refused(
        h, h.gm, where, "battle terrain add", kind="hill", shape="circle", at="24,18", size="big"
    )
    assert no_size == "Malformed radius `big`: give 1 positive number(s), e.g. `3`."
    off_table = await refused(
        h, h.gm, where, "battle terrain add", kind="hill", shape="rectangle", at="46,18",
        size="8,4",
    )  # fmt: skip
    assert off_table == "(50, 16) is off the table, which is 48 by 36 inch."
    assert await refused(h, h.alice, where, "battle deploy", unit="Red Horse", at="32,20") == (
        "**Red Horse** must deploy inside Red's deployment zone (y from 0 to 12 inch, the south"
        " edge): its whole base reaches y=21, past the zone's edge at y=12; move it 9 inch south,"
        " to (32, 11)."
    )
    assert await refused(h, h.alice, where, "battle deploy", unit="Red Horse", at="25,10") == (
        "**Red Horse** would overlap **Red Archers**."
    )
    # A deployment file is all or nothing: a good first row is not applied either.
    rows = [{"unit": "Blue Warriors", "at": [10, 30]}, {"unit": "Red Horse", "at": [30, 30]}]
    upload = h.upload("deploy.json", json.dumps(rows))
    assert await refused(h, h.bob, where, "battle deploy-file", file=upload) == (
        "Row 2 (Red Horse): **Red Horse** is not yours to deploy."
    )
    upload = h.upload("deploy.json", json.dumps([{"unit": "Blue Warriors", "at": "10,30"}]))
    assert await refused(h, h.bob, where, "battle deploy-file", file=upload) == (
        "Row 1: write it as `{unit: Name, at: [x, y], facing: 0}`."
    )

    assert await snapshot(h, where) == before
    # ...while an accepted deployment does show (the snapshot would notice a change).
    await h.slash(h.alice, "battle deploy", channel=where, unit="Red Horse", at="30,8")
    assert (await snapshot(h, where)).map_png != before.map_png


async def test_a_small_tables_zone_refusal_says_which_part_is_out_and_where_it_fits(
    aide: Harness,
) -> None:
    """On a 10" deep table each zone is a third of it (3.33"), not the skirmish's usual 12": a
    base over its edge is told which edge is out, by how much, and where it fits, by
    /battle deploy and a deployment file's row alike; the place it names is then accepted."""
    h, where = aide, aide.channel("punic-wars")
    await skirmish_campaign(h, where)
    await h.slash(
        h.gm, "battle create", channel=where, name="Ford", army_a="Red Host", army_b="Blue Host",
        depth=10,
    )  # fmt: skip
    out = (
        "**Red Spearmen** must deploy inside Red's deployment zone (y from 0 to 3.3 inch, the "
        "south edge): its front edge reaches y=3.8, past the zone's edge at y=3.33; move it 0.47"
        " inch south, to (20, 2.33)."
    )
    said = await refused(h, h.alice, where, "battle deploy", unit="Red Spearmen", at="20,2.8")
    assert said == out
    rows = h.upload("red.json", json.dumps([{"unit": "Red Spearmen", "at": [20, 2.8]}]))
    assert (
        await refused(h, h.alice, where, "battle deploy-file", file=rows)
        == f"Row 1 (Red Spearmen): {out}"
    )
    placed = await h.slash(
        h.alice, "battle deploy", channel=where, unit="Red Spearmen", at="20,2.33"
    )
    assert placed.content == "**Red Spearmen** deployed at (20, 2.33), facing 0°."


async def test_refusals_during_play(battle: Harness) -> None:
    """After the start: no seat, someone else's unit, wrong step, answered question, not GM."""
    h, where = battle, battle.channel("hundred-years")
    await h.slash(h.gm, "battle start", channel=where)
    before = await snapshot(h, where)

    # Deployment: both sides give orders, but only `place` ones, for their own units.
    for command in ("order place", "order done"):
        options = {"unit": "Red Horse", "x": 30.0, "y": 8.0} if command == "order place" else {}
        no_seat = await refused(h, h.outsider, where, command, **options)
        assert no_seat == "You have no side in this battle."
    enemy = await refused(h, h.alice, where, "order place", unit="Blue Riders", x=30, y=8)
    assert enemy == (
        "There is no unit of yours called **Blue Riders** on the table; one of: "
        "**Red Archers**, **Red Horse**, **Red Spearmen**."
    )
    wrong_step = await refused(h, h.bob, where, "order move", unit="Blue Riders", x=32, y=24)
    assert wrong_step == (
        "**Blue Riders** cannot move: move orders are not given in the Deployment step;"
        " it takes only place.\n"
        "➡️ It is given in the Movement step: give it then, or plan it ahead with `step:`."
    )
    assert await refused(h, h.alice, where, "order give", kind="fly", unit="Red Horse") == (
        "This ruleset has no `fly` order; its orders are: place, move, charge, shoot, hold."
    )
    assert await refused(h, h.alice, where, "order give", kind="place", unit="Red Horse") == (
        "A deploy order needs a destination: give `x` and `y`."
    )
    assert await refused(h, h.alice, where, "order withdraw", unit="Red Horse") == (
        "**Red Horse** has no order to withdraw."
    )
    assert await refused(h, h.alice, where, "battle terrain add", kind="wood",
                         shape="circle", at="30,18", size="3") == ONLY_GM  # fmt: skip
    assert await refused(h, h.gm, where, "battle terrain add", kind="wood", shape="circle",
                         at="30,18", size="3") == (
        "The battle has started; terrain can only change during set-up."
    )  # fmt: skip
    assert await refused(h, h.alice, where, "gm force") == ONLY_GM
    # No Confirm prompt for a player: the refusal comes at once.
    assert await refused(h, h.alice, where, "gm undo", reason="I want a redo") == ONLY_GM
    assert await refused(h, h.bob, where, "battle end", reason="I win", winner="Blue") == ONLY_GM
    assert await refused_after_confirming(h, h.gm, where, "gm undo", reason="too early") == (
        "There is no earlier step to go back to."
    )
    assert await snapshot(h, where) == before

    # The initiative question: only Blue's player answers it; once ruled, it is closed.
    await h.slash(h.alice, "order done", channel=where)
    await h.slash(h.bob, "order done", channel=where)
    (question,) = open_questions(h, where)
    waits = await refused(h, h.alice, where, "order place", unit="Red Horse", x=30, y=8)
    assert waits == "The battle waits for an answer to a question, not for orders."
    for user in (h.alice, h.outsider):
        intruder = await h.click(user, question, label="go second")
        assert intruder.ephemeral and intruder.content == "This question is not yours to answer."
    assert await refused(h, h.alice, where, "gm ruling", choice="second") == ONLY_GM
    await h.slash(h.gm, "gm ruling", channel=where, choice="first")
    before = await snapshot(h, where)
    late = await h.click(h.bob, question, label="go second")
    assert late.ephemeral and late.content == "That question has already been answered."

    # Blue's movement: Red waits its turn; Blue may not shoot yet, nor charge a friend.
    assert await refused(h, h.alice, where, "order move", unit="Red Horse", x=32, y=14) == (
        "It is not your turn to give orders: the Movement step waits for others."
    )
    assert (
        await refused(h, h.bob, where, "order shoot", unit="Blue Slingers", target="Red Archers")
        == "**Blue Slingers** cannot shoot: shoot orders are not given in the Movement step;"
        " it takes only move, charge or hold.\n"
        "➡️ The same order is taken later this turn: give it again with `step:Shooting`."
    )
    assert (
        await refused(h, h.bob, where, "order charge", unit="Blue Riders", target="Blue Warriors")
        == "**Blue Riders** cannot charge: Blue Warriors is a friendly unit.\n"
        "➡️ Orders it can take now (`/order give kind:…`): move, hold."
    )
    assert (
        await refused(h, h.bob, where, "order charge", unit="Blue Riders", target="Red Horse")
        == '**Blue Riders** cannot charge: Red Horse is 14" away, beyond its 9" charge.\n'
        "➡️ Orders it can take now (`/order give kind:…`): move, hold."
    )
    assert await refused(h, h.bob, where, "order charge", unit="Blue Riders", target="Nobody") == (
        "There is no unit called **Nobody** on the table; one of: **Blue Riders**, "
        "**Blue Slingers**, **Blue Warriors**, **Red Archers**, **Red Horse**, **Red Spearmen**."
    )
    assert await refused(h, h.bob, where, "order move", unit="Blue Riders", x=32, y=14) == (
        '**Blue Riders** cannot move: needs 12" of movement, beyond its 9" move.\n'
        '➡️ Try a shorter move: it has at most 9" of movement; or give it again with'
        " `as_far_as_possible:true` to go as far as the rules allow."
    )
    assert await snapshot(h, where) == before
    assert reports(h, where)[-1].embeds[0]["title"] == "Ford — Turn 1 · Initiative"


GM_COMMANDS = {
    "battle start": {},
    "gm force": {},
    "gm ruling": {"choice": "first"},
    "gm undo": {"reason": "I want a redo"},
    "battle end": {"reason": "I win", "winner": "Red"},
}


@pytest.mark.parametrize("command", list(GM_COMMANDS))
async def test_gm_only_commands_refuse_privately(battle: Harness, command: str) -> None:
    """A player trying a GM command is told privately, with no prompt, and nothing is posted."""
    h, where = battle, battle.channel("hundred-years")
    if command != "battle start":
        await h.slash(h.gm, "battle start", channel=where)
        await h.slash(h.alice, "order done", channel=where)
        await h.slash(h.bob, "order done", channel=where)  # a step resolved: undo could run
    before = await snapshot(h, where)
    answer = await h.slash(h.alice, command, channel=where, **GM_COMMANDS[command])
    assert answer.type == 4, answer  # answered at once, not deferred publicly first
    assert answer.ephemeral and answer.followups == [], answer
    assert answer.content == ONLY_GM and not answer.message.interactive, answer
    assert await snapshot(h, where) == before


async def test_deploying_after_the_start_says_why(battle: Harness) -> None:
    """Once the battle has begun, /battle deploy and deploy-file say so and change nothing."""
    h, where = battle, battle.channel("hundred-years")
    await h.slash(h.gm, "battle start", channel=where)
    before = await snapshot(h, where)
    started = "The battle has started: units move by orders now, or by a GM with `/gm move`."
    assert await refused(h, h.alice, where, "battle deploy", unit="Red Horse", at="30,8") == (
        started
    )
    upload = h.upload("deploy.json", json.dumps([{"unit": "Blue Riders", "at": [40, 30]}]))
    assert await refused(h, h.bob, where, "battle deploy-file", file=upload) == started
    assert await refused(h, h.gm, where, "battle deploy", unit="Red Horse", at="30,8") == started
    assert await snapshot(h, where) == before
