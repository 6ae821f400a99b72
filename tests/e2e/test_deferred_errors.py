"""Commands that answer publicly after thinking: a refusal found after the defer stays private.

`/battle start`, `/gm force` and `/gm ruling` defer publicly (their success is for everyone);
when the service then refuses, the channel must not keep the error nor an empty "thinking…"
message: the user alone sees why.
"""

from __future__ import annotations

import json

import pytest

from tools.fake_discord import BotMessage
from tools.fake_discord.world import FakeChannel
from tools.harness import Harness, InteractionResult
from tools.skirmish_battle import BLUE, CAMPAIGN, RED, posts, set_up_battle

pytestmark = pytest.mark.usefixtures("fixed_seed")


def visible(h: Harness, where: FakeChannel) -> list[BotMessage]:
    """What everyone in the channel sees: messages neither ephemeral nor deleted."""
    return [m for m in h.messages(where) if not m.ephemeral and not m.deleted]


def private_refusal(h: Harness, where: FakeChannel, answer: InteractionResult) -> str:
    """The one message the user sees; nothing of the interaction stays public."""
    shown = [m for m in answer.messages if not m.deleted]
    assert len(shown) == 1, answer
    assert shown[0].ephemeral, answer
    assert not shown[0].loading, answer
    assert not shown[0].content.startswith(("✅", "Something went wrong")), answer
    assert all(m.interaction_id != answer.record.id for m in visible(h, where)), answer
    return shown[0].content


async def battle_not_deployed(h: Harness, where: FakeChannel) -> None:
    """A skirmish battle created with nothing deployed yet."""
    await h.slash(h.gm, "campaign create", channel=where, name=CAMPAIGN, ruleset="skirmish")
    await h.slash(h.alice, "campaign join", channel=where, side="Red")
    await h.slash(h.bob, "campaign join", channel=where, side="Blue")
    for user, army in ((h.alice, RED), (h.bob, BLUE)):
        upload = h.upload(f"{army['name']}.json", json.dumps(army), "application/json")
        await h.slash(user, "army import", channel=where, file=upload)
    await h.slash(
        h.gm, "battle create", channel=where, name="Ford", army_a=RED["name"], army_b=BLUE["name"]
    )


async def test_start_with_undeployed_units_is_refused_privately(aide: Harness) -> None:
    h, where = aide, aide.channel("hundred-years")
    await battle_not_deployed(h, where)
    before = len(visible(h, where))
    answer = await h.slash(h.gm, "battle start", channel=where)
    text = private_refusal(h, where, answer)
    assert text.startswith("Deploy every unit before the battle starts; still: **Red Spearmen**")
    assert len(visible(h, where)) == before
    assert posts(h, where) == []  # no start post either


async def test_force_and_ruling_refused_privately(aide: Harness) -> None:
    h, where = aide, aide.channel("hundred-years")
    await battle_not_deployed(h, where)
    before = len(visible(h, where))
    forced = await h.slash(h.gm, "gm force", channel=where)
    assert private_refusal(h, where, forced) == "The battle is setup, not running."
    ruled = await h.slash(h.gm, "gm ruling", channel=where, choice="first", reason="because")
    assert private_refusal(h, where, ruled) == "The battle is setup, not running."
    assert len(visible(h, where)) == before


async def test_ruling_with_no_question_waiting_is_refused_privately(aide: Harness) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up_battle(h, where)
    await h.slash(h.gm, "battle start", channel=where)
    before = len(visible(h, where))
    ruled = await h.slash(h.gm, "gm ruling", channel=where, choice="first")
    assert private_refusal(h, where, ruled).startswith("No question is waiting for an answer;")
    assert len(visible(h, where)) == before
