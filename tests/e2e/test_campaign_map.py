"""/campaign map through Discord: a GM imports a map of regions, players seal moves for their
armies (each sees only their own), the GM resolves campaign turns, a battle is set up where two
armies meet, and its end changes who holds the region; the map is posted as a real PNG."""

from __future__ import annotations

import io
import json

import yaml
from PIL import Image

from tools.fake_discord.world import FakeChannel
from tools.harness import Harness
from tools.skirmish_battle import BLUE, RED

PNG = b"\x89PNG\r\n\x1a\n"
MAP = {
    "name": "The Marches",
    "regions": [
        {"name": "Redhold", "at": [100, 200], "holder": "Red", "adjacent": ["Ford"]},
        {
            "name": "Ford",
            "polygon": [[220, 120], [380, 120], [380, 280], [220, 280]],
            "adjacent": ["Bluehold", "Hills"],
        },
        {"name": "Bluehold", "at": [500, 200], "holder": "Blue", "adjacent": []},
        {"name": "Hills", "at": [300, 420], "adjacent": ["Redhold"]},
    ],
}


def png_of(files: list) -> Image.Image:
    """The one attachment, read back as the PNG it claims to be."""
    (image,) = files
    assert image.filename == "campaign_map.png" and image.data.startswith(PNG)
    Image.open(io.BytesIO(image.data)).verify()
    return Image.open(io.BytesIO(image.data))


async def campaign_with_armies(h: Harness, where: FakeChannel) -> None:
    """A skirmish campaign, Alice (Red) and Bob (Blue) with their armies."""
    await h.slash(h.gm, "campaign create", channel=where, name="Border Raids", ruleset="skirmish")
    await h.slash(h.alice, "campaign join", channel=where, side="Red")
    await h.slash(h.bob, "campaign join", channel=where, side="Blue")
    for user, army in ((h.alice, RED), (h.bob, BLUE)):
        upload = h.upload(f"{army['name']}.json", json.dumps(army), "application/json")
        await h.slash(user, "army import", channel=where, file=upload)


async def imported(h: Harness, where: FakeChannel) -> None:
    upload = h.upload("marches.yaml", yaml.safe_dump(MAP))
    answer = await h.slash(h.gm, "campaign map import", channel=where, file=upload)
    assert not answer.ephemeral
    assert "imported the campaign map **The Marches**: 4 regions, 2 held" in answer.text
    png_of(answer.files)


async def resolve(h: Harness, where: FakeChannel) -> str:
    """The GM resolves the campaign turn; the channel post (with its map image)."""
    asked = await h.slash(h.gm, "campaign map turn", channel=where)
    assert asked.ephemeral and "Resolve campaign turn" in asked.text
    before = len(h.messages(where))
    await h.click(h.gm, asked, label="Confirm")
    (post,) = [m for m in h.messages(where)[before:] if m.kind == "channel"]
    assert not post.ephemeral
    png_of(post.files)
    return post.text


async def test_import_move_meet_fight_and_take_a_region(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await campaign_with_armies(h, where)
    await imported(h, where)

    # Turn 1: each army enters the map in a region its side holds.
    entered = await h.slash(
        h.alice, "campaign map move", channel=where, army="Red Host", to="Redhold"
    )
    assert entered.ephemeral
    assert entered.text == (
        "Sealed: **Red Host** marches from off the map to **Redhold** when the GM resolves "
        "campaign turn 1. Only you see this."
    )
    await h.slash(h.bob, "campaign map move", channel=where, army="Blue Host", to="Bluehold")
    post = await resolve(h, where)
    assert "• **Red Host**: off the map → **Redhold**" in post
    assert "• **Redhold** held by **Red** · armies: Red Host (Red, 3/3 units)" in post

    # Turn 2: both march on the Ford; each sees only their own sealed move.
    await h.slash(h.alice, "campaign map move", channel=where, army="Red Host", to="Ford")
    await h.slash(h.bob, "campaign map move", channel=where, army="Blue Host", to="Ford")
    seen = await h.slash(h.alice, "campaign map show", channel=where)
    assert seen.ephemeral
    assert "• **Red Host**: **Redhold** → **Ford**" in seen.text
    assert "Blue Host**: **Bluehold**" not in seen.text
    png_of(seen.files)

    post = await resolve(h, where)
    assert "• **Blue Host**: **Bluehold** → **Ford**" in post
    # The set-up advice is the skirmish's (#39 item 12): no terrain table, so no terrain roll.
    assert (
        "⚔️ Armies meet in **Ford**: the battle **Battle of Ford** is set up; GM: "
        "`/battle terrain add`, players: `/battle deploy`, then `/battle start`."
    ) in post
    assert "terrain roll" not in post
    said = await h.slash(h.gm, "battle terrain roll", channel=where)
    assert said.ephemeral and "has no terrain tables" in said.text
    listed = await h.slash(h.gm, "battle list", channel=where)
    assert "Battle of Ford" in listed.text

    # No campaign turn while the battle is fought; the armies cannot march away.
    asked = await h.slash(h.gm, "campaign map turn", channel=where)
    assert asked.text == (
        "**Battle of Ford** is still being fought; the next campaign turn comes once it has "
        "ended (`/battle status`, `/battle end`)."
    )
    fled = await h.slash(h.alice, "campaign map move", channel=where, army="Red Host", to="Hills")
    assert fled.ephemeral and "is fighting in **Battle of Ford**" in fled.text

    ended = await h.slash(h.gm, "battle end", channel=where, reason="Red breaks", winner="Blue")
    await h.click(h.gm, ended, label="Confirm")
    shown = await h.slash(h.bob, "campaign map show", channel=where)
    assert "⚔️ **Battle of Ford** is over: **Blue** holds **Ford**." in shown.text
    assert "• **Ford** held by **Blue** · armies: Blue Host (Blue, 3/3 units)" in shown.text
    # Red fell back to where it came from.
    assert "• **Redhold** held by **Red** · armies: Red Host (Red, 3/3 units)" in shown.text

    post = await resolve(h, where)
    assert "No army moved." in post
    assert "• **Ford** held by **Blue**" in post


async def test_refusals_are_private_specific_and_change_nothing(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await campaign_with_armies(h, where)
    none = await h.slash(h.alice, "campaign map show", channel=where)
    assert none.ephemeral and none.text == (
        "**Border Raids** has no campaign map yet; a GM imports one with `/campaign map import`."
    )
    by_player = await h.slash(
        h.alice, "campaign map import", channel=where,
        file=h.upload("m.yaml", yaml.safe_dump(MAP)),
    )  # fmt: skip
    assert by_player.ephemeral and "Only a GM of **Border Raids**" in by_player.text

    bad = dict(MAP, regions=[*MAP["regions"][:3], {"name": "Ford", "at": [1, 1]}])
    bad["regions"][0] = dict(bad["regions"][0], adjacent=["Atlantis"])
    refused = await h.slash(
        h.gm, "campaign map import", channel=where,
        file=h.upload("bad.yaml", yaml.safe_dump(bad)),
    )  # fmt: skip
    assert refused.ephemeral and not refused.files
    assert "• regions[3]: the name Ford is used twice" in refused.text
    assert "• Redhold: adjacent region Atlantis is not on the map" in refused.text
    alias = await h.slash(
        h.gm, "campaign map import", channel=where,
        file=h.upload("a.yaml", "regions: &r [1]\nmore: *r\n"),
    )  # fmt: skip
    assert alias.ephemeral and "anchors or aliases" in alias.text

    await imported(h, where)
    far = await h.slash(h.alice, "campaign map move", channel=where, army="Red Host", to="Ford")
    assert far.ephemeral and far.text == (
        "**Red Host** is not on the map yet; it enters in a region **Red** holds, one of: Redhold."
    )
    theirs = await h.slash(h.alice, "campaign map move", channel=where, army="Blue Host", to="Ford")
    assert theirs.text == "**Blue Host** is not yours; you can move one of: **Red Host**."
    nowhere = await h.slash(h.alice, "campaign map move", channel=where, army="Red Host", to="Oz")
    assert nowhere.text == (
        "There is no region **Oz** on **The Marches**; its regions: Redhold, Ford, Bluehold, Hills."
    )
    await h.slash(h.alice, "campaign map move", channel=where, army="Red Host", to="Redhold")
    await resolve(h, where)
    adjacent = await h.slash(
        h.alice, "campaign map move", channel=where, army="Red Host", to="Bluehold"
    )
    assert adjacent.text == (
        "**Red Host** is in **Redhold**; it can march to one of: Ford, Hills (or stay: "
        "`to:Redhold`)."
    )
    turn = await h.slash(h.alice, "campaign map turn", channel=where)
    assert turn.ephemeral and "Only a GM of **Border Raids**" in turn.text
    offered = await h.autocomplete(h.alice, "campaign map move", "to", channel=where, to="h")
    assert [c["value"] for c in offered] == ["Redhold", "Bluehold", "Hills"]


async def test_a_map_over_a_background_picture(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await campaign_with_armies(h, where)
    junk = await h.slash(
        h.gm, "campaign map import", channel=where,
        file=h.upload("marches.yaml", yaml.safe_dump(MAP)),
        background=h.upload("map.png", b"not a picture"),
    )  # fmt: skip
    assert junk.ephemeral and junk.text == (
        "`map.png` is not a picture the bot can use as a background: give a PNG or JPEG file."
    )
    land = io.BytesIO()
    Image.new("RGB", (640, 480), (30, 140, 60)).save(land, format="JPEG")
    answer = await h.slash(
        h.gm, "campaign map import", channel=where,
        file=h.upload("marches.yaml", yaml.safe_dump(MAP)),
        background=h.upload("land.jpg", land.getvalue()),
    )  # fmt: skip
    assert not answer.ephemeral and "**The Marches**: 4 regions" in answer.text
    drawn = png_of(answer.files).convert("RGB")
    # Outside every region the background shows (the JPEG's green, give or take).
    r, g, b = drawn.getpixel((drawn.width - 70, drawn.height // 2))
    assert g > 100 and r < 80 and b < 100
