"""A campaign group drives the real bot: create, join, import armies, refusals, dice, closing."""

from __future__ import annotations

import json
import re

import discord
import pytest
from discord import app_commands

from tests.e2e.conftest import MakeHarness
from tools.fake_discord import World
from tools.harness import Harness

BLACK_PRINCE = {
    "name": "Black Prince",
    "units": [
        {"name": "Longbowmen", "grade": "A", "stands": 4},
        {"name": "Men-at-arms", "grade": "B"},
        {"name": "Welsh spearmen", "grade": "C"},
    ],
}
ORIFLAMME_YAML = """\
name: Oriflamme
units:
  - name: Genoese crossbowmen
    grade: B
  - name: Gendarmes
    grade: A
"""
BROKEN = {"units": [{"grade": "Z"}, {"name": "Lost", "stands": 99}]}


@pytest.fixture
async def campaign(aide: Harness) -> Harness:
    """A newcomer GM has created 'Hundred Years' in #hundred-years; Alice and Bob have joined."""
    where = aide.channel("hundred-years")
    await aide.slash(
        aide.gm, "campaign create", channel=where, name="Hundred Years", ruleset="tree_of_battles"
    )
    await aide.slash(aide.alice, "campaign join", channel=where, side="England")
    await aide.slash(aide.bob, "campaign join", channel=where, side="France")
    return aide


async def test_newcomer_creates_a_campaign_and_two_players_join(aide: Harness) -> None:
    """A GM who has never used the bot creates a campaign; players pick sides with autocomplete."""
    where = aide.channel("hundred-years")
    empty = await aide.slash(aide.gm, "campaign list", channel=where)
    assert empty.ephemeral and "No campaigns yet" in empty.text

    created = await aide.slash(
        aide.gm, "campaign create", channel=where, name="Hundred Years", ruleset="tree_of_battles"
    )
    assert not created.ephemeral
    assert created.embeds[0]["title"] == "New campaign: Hundred Years"
    assert "The Tree of Battles" in created.text and aide.gm.mention in created.text

    joined = await aide.slash(aide.alice, "campaign join", channel=where, side="England")
    assert not joined.ephemeral
    assert joined.content == f"{aide.alice.mention} joined **Hundred Years** on side **England**."
    offered = await aide.autocomplete(aide.bob, "campaign join", "side", channel=where, side="eng")
    assert [c["value"] for c in offered] == ["England"]
    await aide.slash(aide.bob, "campaign join", channel=where, side="France")

    info = await aide.slash(aide.outsider, "campaign info", channel=where)
    fields = {f["name"]: f["value"] for f in info.embeds[0]["fields"]}
    assert fields["Side: England"] == aide.alice.mention
    assert fields["Side: France"] == aide.bob.mention
    assert fields["GM"] == aide.gm.mention
    listed = await aide.slash(aide.bob, "campaign list", channel=aide.channel("general"))
    assert "**Hundred Years** — The Tree of Battles, lobby" in listed.text


async def test_players_import_armies(campaign: Harness) -> None:
    """Alice imports JSON, Bob YAML; a broken roster is refused listing every problem by path."""
    h, where = campaign, campaign.channel("hundred-years")
    alice_file = h.upload("black_prince.json", json.dumps(BLACK_PRINCE), "application/json")
    imported = await h.slash(h.alice, "army import", channel=where, file=alice_file)
    assert imported.content == f"{h.alice.mention} imported **Black Prince** (3 units)."
    assert not imported.ephemeral
    bob_file = h.upload("oriflamme.yaml", ORIFLAMME_YAML)
    imported = await h.slash(h.bob, "army import", channel=where, file=bob_file)
    assert imported.content == f"{h.bob.mention} imported **Oriflamme** (2 units)."

    refused = await h.slash(
        h.bob, "army import", channel=where, file=h.upload("bad.json", json.dumps(BROKEN))
    )
    assert refused.ephemeral
    assert "problem" in refused.text
    for path in ("name", "units[0].name", "units[0].grade", "units[1].stands"):
        assert f"• `{path}: " in refused.text, (path, refused.text)

    listed = await h.slash(h.gm, "army list", channel=where)
    assert listed.ephemeral
    assert f"**Black Prince** — {h.alice.mention}, 3 units" in listed.text
    assert f"**Oriflamme** — {h.bob.mention}, 2 units" in listed.text
    offered = await h.autocomplete(h.bob, "army show", "name", channel=where, name="bla")
    assert [c["value"] for c in offered] == ["Black Prince"]
    shown = await h.slash(h.bob, "army show", channel=where, name="Black Prince")
    assert shown.ephemeral
    assert "1. Longbowmen — grade A, stands 4" in shown.text


async def test_outsider_is_refused_gm_commands(campaign: Harness) -> None:
    """A member with no role and no seat cannot run GM commands; refusals are private."""
    h, where = campaign, campaign.channel("hundred-years")
    for command, options in (("campaign gm add", {"member": h.outsider}), ("campaign close", {})):
        refused = await h.slash(h.outsider, command, channel=where, **options)
        assert refused.ephemeral, command
        assert refused.content == (
            "Only a GM of **Hundred Years** can do that; `/campaign info` names its GMs."
        )
        assert not refused.message.interactive
    player = await h.slash(h.alice, "campaign gm remove", channel=where, member=h.gm)
    assert player.ephemeral and "Only a GM" in player.content
    info = await h.slash(h.gm, "campaign info", channel=where)
    fields = {f["name"]: f["value"] for f in info.embeds[0]["fields"]}
    assert fields["GM"] == h.gm.mention


async def test_gm_adds_a_gm_and_closes_with_confirmation(campaign: Harness) -> None:
    """GM commands work for the GM; closing asks first and only the asker can confirm."""
    h, where = campaign, campaign.channel("hundred-years")
    added = await h.slash(h.gm, "campaign gm add", channel=where, member=h.alice)
    assert not added.ephemeral and h.alice.mention in added.content

    asked = await h.slash(h.gm, "campaign close", channel=where)
    assert asked.ephemeral
    assert [c["label"] for c in asked.message.interactive] == ["Confirm", "Cancel"]
    intruder = await h.click(h.bob, asked, label="Confirm")
    assert intruder.ephemeral and "Only the person who asked" in intruder.text

    done = await h.click(h.gm, asked, label="Confirm")
    assert done.type == 7
    assert asked.message.content == "Closed **Hundred Years**."
    assert asked.message.interactive == []
    announcement = done.followups[0]
    assert not announcement.ephemeral
    assert "has been closed by" in announcement.content

    gone = await h.slash(h.gm, "campaign info", channel=where)
    assert gone.ephemeral


async def test_roll_answers_showing_every_die(aide: Harness) -> None:
    """/roll shows each die publicly; a malformed expression is refused privately, with why."""
    assert aide.bot.clock is aide.clock  # the FakeClock is what the bot tells time by
    rolled = await aide.slash(aide.alice, "roll", expression="2d6")
    assert not rolled.ephemeral
    dice = re.search(r"2D6 \((\d), (\d)\) = (\d+)", rolled.content)
    assert dice, rolled.content
    assert int(dice[1]) + int(dice[2]) == int(dice[3])

    counted = await aide.slash(aide.bob, "roll", expression="6d6>=4", label="Shooting")
    assert "Shooting: 6D6>=4" in counted.content
    assert len(re.findall(r"\d", counted.content.split("(", 1)[1].split(")")[0])) == 6

    bad = await aide.slash(aide.bob, "roll", expression="2q6")
    assert bad.ephemeral
    assert bad.content.startswith("Cannot roll `2q6`")


async def test_campaign_survives_a_restart(make_aide: MakeHarness) -> None:
    """The campaign lives in the SQLite file: a new bot process on the same file still knows it."""
    world = World()
    first = await make_aide(world)
    where = first.channel("hundred-years")
    await first.slash(
        first.gm, "campaign create", channel=where, name="Punic", ruleset="hail_caesar"
    )
    await first.close()

    second = await make_aide(world)
    info = await second.slash(second.alice, "campaign info", channel=where)
    assert info.embeds[0]["title"] == "Punic"
    assert "Hail Caesar" in info.text


async def test_a_broken_command_fails_the_harness(make_aide: MakeHarness) -> None:
    """A command that raises inside the real bot: the user gets the apology, the test fails."""
    from bot.client import AideBot

    async def explode(interaction: discord.Interaction) -> None:
        raise RuntimeError("deliberately broken")

    class BrokenAide(AideBot):
        async def setup_hook(self) -> None:
            self.tree.add_command(
                app_commands.Command(name="explode", description="Raises", callback=explode)
            )
            await super().setup_hook()

    h = await make_aide(bot_class=BrokenAide)
    with pytest.raises(AssertionError, match=r"unhandled error in explode .*deliberately broken"):
        await h.slash(h.gm, "explode")
    apology = h.messages()[-1]
    assert apology.ephemeral and apology.content.startswith("Something went wrong (ref `")
