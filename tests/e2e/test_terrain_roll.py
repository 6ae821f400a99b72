"""/battle terrain roll: a ruleset with a terrain table rolls and lays terrain through Discord
(the dice shown for everyone); one without refuses privately and changes nothing."""

from __future__ import annotations

import json

import pytest

from rules_core.plugin import Rules
from tools.harness import Harness
from tools.skirmish_battle import BLUE, CAMPAIGN, RED, refused, set_up_battle

pytestmark = pytest.mark.usefixtures("fixed_seed")


async def test_a_ruleset_without_terrain_tables_refuses_privately(aide: Harness) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up_battle(h, where)
    before = await h.slash(h.gm, "battle terrain list", channel=where)
    said = await refused(h, h.gm, where, "battle terrain roll")
    assert said == (
        "The skirmish ruleset has no terrain tables; lay terrain with `/battle terrain add`."
    )
    after = await h.slash(h.gm, "battle terrain list", channel=where)
    assert after.content == before.content


async def test_terrain_is_rolled_on_the_rulesets_table_and_laid(
    terrain_roll: Rules, aide: Harness
) -> None:
    h, where = aide, aide.channel("hundred-years")
    await h.slash(h.gm, "campaign create", channel=where, name=CAMPAIGN, ruleset="terrain_roll")
    await h.slash(h.alice, "campaign join", channel=where, side="Red")
    await h.slash(h.bob, "campaign join", channel=where, side="Blue")
    for user, army in ((h.alice, RED), (h.bob, BLUE)):
        upload = h.upload("army.json", json.dumps(army), "application/json")
        await h.slash(user, "army import", channel=where, file=upload)
    created = await h.slash(h.gm, "battle create", channel=where, name="Moor",
                            army_a="Red Host", army_b="Blue Host")  # fmt: skip
    assert created.embeds[0]["footer"]["text"] == (  # the ruleset's way to set up (#39 item 12)
        "Next: GM: /battle terrain roll (or /battle terrain add), players: /battle deploy, then "
        "/battle start"
    )

    only_gm = await refused(h, h.alice, where, "battle terrain roll")
    assert only_gm == f"Only a GM of **{CAMPAIGN}** can do that; `/campaign info` names its GMs."

    rolled = await h.slash(h.gm, "battle terrain roll", channel=where)
    assert not rolled.ephemeral
    text = rolled.content.splitlines()
    assert text[0] == "**Terrain table**"
    assert text[1].startswith("🎲 Terrain table: how many pieces")
    dice = [line for line in text if line.startswith("🎲")]
    laid = [line for line in text if line.startswith("Laid **")]
    assert len(dice) >= 3 and laid  # the count, then one roll per piece
    # The battle's seed is fixed, so the roll is too: 3 pieces, each from the table.
    assert text[1:9] == [
        "🎲 Terrain table: how many pieces: D3 (2) +1 = 3",
        "🎲 Terrain table: piece 1: D6 (6) = 6",
        "🎲 Terrain table: piece 2: D6 (4) = 4",
        "🎲 Terrain table: piece 3: D6 (5) = 5",
        "Laid **Pond** (impassable, `t1`) at 11,15.5",
        "Laid **Rise** (gentle hill, `t2`) at 28,19",
        "Laid **Bog** (marsh, `t3`) at 37.5,17.5",
        "Move or remove pieces with `/battle terrain remove` and `/battle terrain add`.",
    ]
    listed = await h.slash(h.bob, "battle terrain list", channel=where)
    assert listed.text.count("\n") + 1 == len(laid)
    first = laid[0].split("`")[1]
    assert f"`{first}`" in listed.text

    # Rolling again rolls anew: the dice stream is keyed by the next terrain id.
    again = await h.slash(h.gm, "battle terrain roll", channel=where)
    assert not again.ephemeral and again.content != rolled.content  # new ids: a new roll
    shown = await h.slash(h.gm, "battle map", channel=where)
    assert shown.files

    await _deploy(h, where)
    await h.slash(h.gm, "battle start", channel=where)
    late = await refused(h, h.gm, where, "battle terrain roll")
    assert late == "The battle has started; terrain can only change during set-up."


async def _deploy(h: Harness, where) -> None:  # type: ignore[no-untyped-def]
    """Every unit placed in its side's zone, wherever the terrain fell (units may stand in it)."""
    for name, at in (("Red Spearmen", "10,4"), ("Red Archers", "24,4"), ("Red Horse", "38,4")):
        await h.slash(h.alice, "battle deploy", channel=where, unit=name, at=at)
    for name, at in (("Blue Warriors", "10,32"), ("Blue Slingers", "24,32"),
                     ("Blue Riders", "38,32")):  # fmt: skip
        await h.slash(h.bob, "battle deploy", channel=where, unit=name, at=at)
