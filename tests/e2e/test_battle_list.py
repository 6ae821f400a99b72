"""/battle list: the campaign's battles and where each stands."""

from __future__ import annotations

from tools.harness import Harness
from tools.skirmish_battle import BATTLE, set_up_battle


async def test_battles_listed_with_their_state(aide: Harness) -> None:
    where = aide.channel("punic-wars")
    await aide.slash(aide.gm, "campaign create", channel=where, name="Raids", ruleset="skirmish")
    empty = await aide.slash(aide.alice, "battle list", channel=where)
    assert empty.ephemeral and "No battles in this campaign yet" in empty.text


async def test_a_battle_in_set_up_then_in_play(aide: Harness) -> None:
    where = aide.channel("punic-wars")
    await set_up_battle(aide, where)
    listed = await aide.slash(aide.alice, "battle list", channel=where)
    assert listed.ephemeral
    assert listed.text == f"**{BATTLE}** — Red against Blue: setting up (terrain and deployment)"
    await aide.slash(aide.gm, "battle start", channel=where)
    running = await aide.slash(aide.bob, "battle list", channel=where)
    assert running.text.startswith(f"**{BATTLE}** — Red against Blue: Deployment, orders due <t:")
    assert "orders due <t:" in running.text


async def test_outside_a_campaign_the_list_is_refused_privately(aide: Harness) -> None:
    refused = await aide.slash(aide.alice, "battle list", channel=aide.channel("general"))
    assert refused.ephemeral and "campaign" in refused.text.lower()
