"""Muster through Discord: orders by side, group, leader and unit, several at a time, with every
parameter kind and autocomplete; questions answered by button (two open at once), by a select
menu of 30, and by ``/answer`` (points, numbers, a facing, a GM's ruling with its reason),
across bot restarts."""

from __future__ import annotations

import json

import pytest

from bot.services.campaigns import Place
from rules_core.plugin import Rules
from tests.e2e.sheet_battle import give, posts, reports
from tools.fake_discord import BotMessage, FakeUser
from tools.fake_discord.world import FakeChannel
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")
BATTLE = "Field of Muster"
PLACES = {"Red Pikes": (10, 4), "Red Horse": (30, 4), "Blue Axes": (10, 32), "Blue Horse": (30, 32)}


async def set_up(h: Harness, where: FakeChannel, rules: Rules) -> None:
    """Campaign, players, armies, battle, every unit deployed, started and past deployment."""
    await h.slash(h.gm, "campaign create", channel=where, name="Musters", ruleset="muster")
    await h.slash(h.alice, "campaign join", channel=where, side="Red")
    await h.slash(h.bob, "campaign join", channel=where, side="Blue")
    red, blue = rules.sample_armies()
    for user, army in ((h.alice, red), (h.bob, blue)):
        upload = h.upload("army.json", json.dumps(army), "application/json")
        await h.slash(user, "army import", channel=where, file=upload)
    await h.slash(h.gm, "battle create", channel=where, name=BATTLE,
                  army_a="Red Muster", army_b="Blue Muster")  # fmt: skip
    for name, (x, y) in PLACES.items():
        user = h.alice if name.startswith("Red") else h.bob
        await h.slash(user, "battle deploy", channel=where, unit=name, at=f"{x},{y}")
    await h.slash(h.gm, "battle start", channel=where)
    await done(h, where, h.alice, h.bob)


async def done(h: Harness, where: FakeChannel, *users: FakeUser) -> BotMessage:
    """Every user confirms; the step result posted."""
    before = len(reports(h, where, BATTLE))
    for user in users:
        await h.slash(user, "order done", channel=where)
    posted = reports(h, where, BATTLE)
    assert len(posted) == before + 1
    return posted[-1]


def asked(h: Harness, where: FakeChannel) -> BotMessage:
    """The last question posted."""
    return [m for m in posts(h, where) if "?" in m.content][-1]


def state(h: Harness, where: FakeChannel):  # type: ignore[no-untyped-def]
    """The battle's state as the bot keeps it."""
    services = h.bot.services  # type: ignore[union-attr]
    return services, Place(h.world.guild_id, where.id)


async def test_every_actor_parameter_and_answer_kind_through_discord(
    muster: Rules, aide: Harness
) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up(h, where, muster)

    # Council: the side, a wing and the general give orders; autocomplete offers each.
    offered = await h.autocomplete(
        h.alice, "order give", "unit", channel=where, kind="stance", unit=""
    )
    assert [c["value"] for c in offered] == ["Red"]
    assert await give(h, h.alice, where, "stance", "Red", option="bold") == "stance: bold"
    wings = await h.autocomplete(
        h.alice, "order give", "unit", channel=where, kind="posture", unit=""
    )
    assert [c["value"] for c in wings] == ["Red", "Left wing a", "Right wing a"]  # army, wings
    assert await give(h, h.alice, where, "posture", "Left wing a", option="attack") == (
        "posture: attack"
    )
    groups = await h.autocomplete(
        h.alice, "order give", "group", channel=where, kind="rally", group="right"
    )
    assert [(c["name"], c["value"]) for c in groups] == [
        ("Right wing a", "a_right"),
        ("Right wing b", "b_right"),
    ]
    general = "General a"
    await give(h, h.alice, where, "inspire", general, target="Red Pikes", text="For Red!")
    await give(h, h.alice, where, "rally", general, group="a_right")
    await give(h, h.alice, where, "inspire", general, target="Red Horse")
    refused = await h.slash(
        h.alice, "order give", channel=where, kind="inspire", unit=general, target="Red Pikes"
    )
    assert refused.ephemeral and refused.content == (
        f"**{general}** cannot inspire: at most 2 inspire order(s) per step."
    )
    withdrawn = await h.slash(h.alice, "order withdraw", channel=where, unit=general, number=1)
    assert (
        withdrawn.ephemeral
        and withdrawn.content == f"Withdrawn: **{general}**'s inspire order; 2 left."
    )
    mine = await h.slash(h.alice, "orders mine", channel=where)
    assert [line.split(" (")[0] for line in mine.content.splitlines()] == [
        "**Red**", "**Left wing a**", f"**{general}**", f"**{general}**",
    ]  # fmt: skip
    secret = await h.slash(h.bob, "orders mine", channel=where)
    assert secret.content == "You have given no orders for this step."
    await done(h, where, h.alice, h.bob)

    # March: a unit marches twice; another follows a path typed as x,y x,y.
    await give(h, h.alice, where, "march", "Red Pikes", x=10, y=6)
    await give(h, h.alice, where, "march", "Red Pikes", x=12, y=8)
    bad = await h.slash(
        h.alice, "order give", channel=where, kind="route", unit="Red Horse", path="30;6"
    )
    assert bad.ephemeral and "takes points as `x,y`" in bad.content
    assert (
        await give(h, h.alice, where, "route", "Red Horse", path="30,6 32,8")
        == "marches by 2 points"
    )
    await done(h, where, h.alice, h.bob)

    # The parley: thirty omens do not fit on buttons: select menus, and searchable in /answer.
    omen = asked(h, where)
    menus = [c for c in omen.interactive if c["type"] == 3]
    assert [len(m["options"]) for m in menus] == [25, 5]
    found = await h.autocomplete(h.alice, "answer", "answer", channel=where, answer="27")
    assert [(c["name"], c["value"]) for c in found] == [("Omen 27", "omen_27")]
    await h.stop_bot()
    await h.start_bot()  # the menus still work after a restart
    picked = await h.select(h.alice, omen, ["omen_27"], custom_id=menus[1]["custom_id"])
    assert picked.type == 7 and omen.content == f"Answered by {h.alice.mention}: **omen_27**"

    # Two questions open at once, each with its own buttons; answered in any order.
    champion, banner = [m for m in posts(h, where) if "?" in m.content][-2:]
    assert [c["label"] for c in champion.interactive] == ["Blue Axes", "Blue Horse"]
    assert [c["custom_id"].split(":")[-1] for c in banner.interactive] == [
        "banner/raise", "banner/furl",
    ]  # fmt: skip
    before = len(reports(h, where, BATTLE))
    await h.click(h.alice, banner, label="Furl it")
    assert len(reports(h, where, BATTLE)) == before  # the step waits for the champion
    assert champion.interactive  # still open
    await h.click(h.bob, champion, label="Blue Horse")
    assert len(reports(h, where, BATTLE)) == before + 1

    herald = asked(h, where)
    assert "Answer with `/answer` (a point `x,y`)" in herald.content and not herald.interactive
    wrong = await h.slash(h.alice, "answer", channel=where, answer="north")
    assert wrong.ephemeral and wrong.content == "`north` is not a point: answer `x,y`."
    said = await h.slash(h.alice, "answer", channel=where, answer="30,20")
    assert not said.ephemeral and said.content == f"{h.alice.mention} answered: **30,20**."

    wager = asked(h, where)
    assert "a number from 1 to 6" in wager.content
    out = await h.slash(h.bob, "answer", channel=where, answer="9")
    assert out.ephemeral and out.content == "`9` is not an answer: give a number from 1 to 6."
    await h.slash(h.bob, "answer", channel=where, answer="5")

    await h.stop_bot()
    await h.start_bot()  # /answer works after a restart too
    assert "a facing in degrees" in asked(h, where).content
    await h.slash(h.alice, "answer", channel=where, answer="270")

    envoy = asked(h, where)
    assert envoy.content.startswith(h.bob.mention)
    envoys = await h.autocomplete(h.gm, "answer", "answer", channel=where, answer="general")
    assert [c["value"] for c in envoys] == ["a_general", "b_general"]
    ruled = await h.slash(h.gm, "answer", channel=where, answer="b_general", reason="Blue is away")
    assert ruled.content == f"{h.gm.mention} answered: **b_general** (Blue is away)."

    services, place = state(h, where)
    battle = (await services.battles.view(place)).state
    red, blue = battle.sides
    assert red.status == {
        **red.status, "stance": "bold", "omen": "omen_27", "herald": "30,20", "banner": "furl"
    }  # fmt: skip
    assert blue.status["wager"] == 5 and blue.status["envoy"] == "b_general"
    units = {u.name: u for u in battle.units}
    assert (units["Red Pikes"].x, units["Red Pikes"].y, units["Red Pikes"].facing) == (12, 8, 270)
    assert (units["Red Horse"].x, units["Red Horse"].y) == (32, 8)
    assert (
        units["Red Horse"].status["inspired"] == 1 and "inspired" not in units["Red Pikes"].status
    )
    assert units["Blue Horse"].status["champion"] is True
    assert battle.group("a_left").status["posture"] == "attack"
    assert battle.group("a_right").status["rallied"] is True
    record = json.loads(await services.records.record(place))
    last = [e["answer"] for e in record["entries"] if e["action"] == "answer"][-1]
    assert (last["by"], last["reason"]) == ("gm", "Blue is away")


async def test_gm_sets_leaders_groups_sides_and_terrain_through_discord(
    muster: Rules, aide: Harness
) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up(h, where, muster)
    offered = await h.autocomplete(h.gm, "gm set", "unit", channel=where, unit="wing a")
    assert [(c["name"], c["value"]) for c in offered] == [
        ("Left wing a", "a_left"), ("Right wing a", "a_right"),
    ]  # fmt: skip
    fields = await h.autocomplete(
        h.gm, "gm set", "field", channel=where, unit="a_general", field=""
    )
    assert [c["value"] for c in fields][:2] == ["points", "wounds"]
    points = await h.slash(h.gm, "gm set", channel=where, unit="a_general", field="points",
                           value="2", reason="a hero's boon")  # fmt: skip
    assert points.content == (
        f"🛠️ {h.gm.mention} set points of **General a**: a hero's boon\nBefore: 0\nAfter: 2"
    )
    posture = await h.slash(h.gm, "gm set", channel=where, unit="a_left", field="posture",
                            value="withdraw", reason="panic")  # fmt: skip
    assert posture.content.endswith("Before: (unset)\nAfter: withdraw")
    wrong = await h.slash(h.gm, "gm set", channel=where, unit="a", field="posture",
                          value="attack", reason="typo")  # fmt: skip
    assert wrong.ephemeral and wrong.content.startswith("Sides have no status `posture`")
    refused = await h.slash(h.alice, "gm terrain add", channel=where, kind="wood",
                            shape="circle", at="24,18", size="3", reason="mine")  # fmt: skip
    assert refused.ephemeral
    laid = await h.slash(h.gm, "gm terrain add", channel=where, kind="wood", shape="circle",
                         at="24,18", size="3", reason="a fire")  # fmt: skip
    assert laid.content.endswith("laid terrain: a fire\nBefore: (unset)\nAfter: Wood")
    features = await h.autocomplete(h.gm, "gm terrain remove", "feature", channel=where, feature="")
    lifted = await h.slash(h.gm, "gm terrain remove", channel=where,
                           feature=features[0]["value"], reason="burnt out")  # fmt: skip
    assert lifted.content.endswith("lifted terrain: burnt out\nBefore: Wood\nAfter: (unset)")
