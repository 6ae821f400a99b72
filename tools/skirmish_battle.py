"""A skirmish battle set up through Discord, and helpers to read what the bot posts about it."""

from __future__ import annotations

import json
from typing import Any

from tools.fake_discord import BotMessage, FakeUser
from tools.fake_discord.world import FakeChannel
from tools.harness import Harness, InteractionResult

CAMPAIGN = "Border Raids"
BATTLE = "Ford"
RED = {
    "name": "Red Host",
    "units": [
        {"name": "Red Spearmen", "type": "infantry", "move": 6, "stamina": 3},
        {"name": "Red Archers", "type": "archers", "move": 6, "stamina": 2},
        {"name": "Red Horse", "type": "cavalry", "move": 9, "stamina": 2},
    ],
}
BLUE = {
    "name": "Blue Host",
    "units": [
        {"name": "Blue Warriors", "type": "infantry", "move": 6, "stamina": 3},
        {"name": "Blue Slingers", "type": "skirmishers", "move": 6, "stamina": 2},
        {"name": "Blue Riders", "type": "cavalry", "move": 9, "stamina": 2},
    ],
}
# Red deploys with /battle deploy (zone y 0-12), Blue with /battle deploy-file (y 24-36).
RED_DEPLOYMENT = {"Red Spearmen": "16,10", "Red Archers": "24,10", "Red Horse": "32,10"}
BLUE_DEPLOYMENT = [
    {"unit": "Blue Warriors", "at": [16, 26]},
    {"unit": "Blue Slingers", "at": [24, 26]},
    {"unit": "Blue Riders", "at": [32, 26], "facing": 180},
]


async def set_up_battle(h: Harness, where: FakeChannel) -> None:
    """Campaign (skirmish), two players, their armies, the battle, a wood, every unit deployed."""
    await skirmish_campaign(h, where)
    await _create_and_deploy(h, where)


async def skirmish_campaign(h: Harness, where: FakeChannel) -> None:
    """Campaign (skirmish), Alice (Red) and Bob (Blue) with their armies imported."""
    created = await h.slash(
        h.gm, "campaign create", channel=where, name=CAMPAIGN, ruleset="skirmish"
    )
    assert "Skirmish (tutorial)" in created.text, created
    await h.slash(h.alice, "campaign join", channel=where, side="Red")
    await h.slash(h.bob, "campaign join", channel=where, side="Blue")
    for user, army in ((h.alice, RED), (h.bob, BLUE)):
        upload = h.upload(f"{army['name']}.json", json.dumps(army), "application/json")
        imported = await h.slash(user, "army import", channel=where, file=upload)
        assert imported.content == f"{user.mention} imported **{army['name']}** (3 units)."


async def _create_and_deploy(h: Harness, where: FakeChannel) -> None:
    """The battle on the usual table, a wood laid, every unit deployed."""
    offered_a = await h.autocomplete(h.gm, "battle create", "army_a", channel=where, army_a="red")
    offered_b = await h.autocomplete(h.gm, "battle create", "army_b", channel=where, army_b="BLU")
    assert [c["value"] for c in offered_a] == ["Red Host"]
    assert [c["value"] for c in offered_b] == ["Blue Host"]
    army_a, army_b = offered_a[0]["value"], offered_b[0]["value"]
    created = await h.slash(
        h.gm, "battle create", channel=where, name=BATTLE, army_a=army_a, army_b=army_b
    )
    assert not created.ephemeral
    assert created.embeds[0]["title"] == f"{BATTLE} (setup)"
    assert "48 × 36 inch" in created.text

    laid = await h.slash(
        h.gm, "battle terrain add", channel=where,
        kind="wood", shape="rectangle", at="6,18", size="8,6", name="Thornwood",
    )  # fmt: skip
    assert laid.content == "Laid **Thornwood** (wood, `t1`)."
    listed = await h.slash(h.alice, "battle terrain list", channel=where)
    assert listed.ephemeral and "`t1` **Thornwood** — wood, 2,15 10,15 10,21 2,21" in listed.text

    for unit, at in RED_DEPLOYMENT.items():
        offered = await h.autocomplete(h.alice, "battle deploy", "unit", channel=where, unit="")
        assert unit in [c["value"] for c in offered]
        deployed = await h.slash(h.alice, "battle deploy", channel=where, unit=unit, at=at)
        assert deployed.ephemeral
        assert deployed.content == f"**{unit}** deployed at ({at.replace(',', ', ')}), facing 0°."
    blue_file = h.upload("blue-deployment.json", json.dumps(BLUE_DEPLOYMENT))
    deployed = await h.slash(h.bob, "battle deploy-file", channel=where, file=blue_file)
    assert deployed.ephemeral and deployed.content == "Deployed 3 units."


def posts(h: Harness, where: FakeChannel) -> list[BotMessage]:
    """What the bot posted to the channel on its own (not as an interaction reply)."""
    return [m for m in h.messages(where) if m.kind == "channel"]


def start_post(h: Harness, where: FakeChannel) -> BotMessage:
    """The one post announcing the battle's start (not a step result: no step was resolved)."""
    (post,) = [
        m
        for m in h.messages(where)
        if m.kind == "channel" and m.embeds and m.embeds[0]["title"] == f"⚔️ {BATTLE} begins"
    ]
    return post


def reports(h: Harness, where: FakeChannel) -> list[BotMessage]:
    """The step results the bot posted to the channel (not interaction replies), oldest first."""
    return [
        m
        for m in h.messages(where)
        if m.kind == "channel" and m.embeds and m.embeds[0]["title"].startswith(f"{BATTLE} — ")
    ]


def open_questions(h: Harness, where: FakeChannel) -> list[BotMessage]:
    """Channel messages that still show question buttons, oldest first."""
    return [
        m
        for m in h.messages(where)
        if m.kind == "channel"
        and any(c.get("custom_id", "").startswith("decide:") for c in m.interactive)
    ]


def reminders(h: Harness, where: FakeChannel) -> list[BotMessage]:
    """The ⏰ reminders posted to the channel, oldest first."""
    return [m for m in h.messages(where) if m.kind == "channel" and m.content.startswith("⏰")]


def field(message: BotMessage, name: str) -> str:
    """The value of a field of a message's first embed."""
    fields: dict[str, str] = {f["name"]: f["value"] for f in message.embeds[0].get("fields", [])}
    assert name in fields, (name, fields)
    return fields[name]


def lines(message: BotMessage) -> list[str]:
    """The summary lines of a step result."""
    description: str = message.embeds[0].get("description", "")
    return description.splitlines()


def waiting_for(message: BotMessage, h: Harness) -> list[FakeUser]:
    """Who a step result says the battle waits for."""
    value = field(message, "Waiting for")
    return [u for u in (h.alice, h.bob, h.gm) if u.mention in value]


async def order(
    h: Harness, user: FakeUser, where: FakeChannel, kind: str, **options: Any
) -> InteractionResult:
    """Give an order that must be accepted: a private preview starting with ✅."""
    given = await h.slash(user, f"order {kind}", channel=where, **options)
    assert given.ephemeral, given
    assert given.content.startswith("✅ "), given
    assert given.content.endswith("(secret until the step resolves)"), given
    return given


async def refused(
    h: Harness, user: FakeUser, where: FakeChannel, command: str, **options: Any
) -> str:
    """Run a command that must be refused privately, with no buttons; the refusal text."""
    answer = await h.slash(user, command, channel=where, **options)
    assert answer.ephemeral, answer
    assert answer.message is not None and not answer.message.interactive, answer
    assert not answer.content.startswith(("✅", "Something went wrong")), answer
    return answer.content
