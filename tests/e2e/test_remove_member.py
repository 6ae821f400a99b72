"""/campaign remove: a GM removes an absent player; their side becomes GM-run."""

from __future__ import annotations

from tools.harness import Harness
from tools.skirmish_battle import BATTLE, CAMPAIGN, order, set_up_battle


async def test_a_removed_players_side_is_run_by_the_gm(aide: Harness) -> None:
    where = aide.channel("punic-wars")
    await set_up_battle(aide, where)
    await aide.slash(aide.gm, "battle start", channel=where)

    asked = await aide.slash(aide.gm, "campaign remove", channel=where, member=aide.alice)
    assert asked.ephemeral and "GM-run" in asked.text
    cancelled = await aide.click(aide.gm, asked, label="Cancel")
    assert "nothing changed" in cancelled.text
    still = await aide.slash(aide.alice, "orders mine", channel=where)
    assert still.ephemeral and "no orders" in still.text  # Alice still plays Red

    asked = await aide.slash(aide.gm, "campaign remove", channel=where, member=aide.alice)
    intruder = await aide.click(aide.bob, asked, label="Confirm")
    assert intruder.ephemeral and "Only the person who asked" in intruder.text
    done = await aide.click(aide.gm, asked, label="Confirm")
    assert f"Removed {aide.alice.mention} from **{CAMPAIGN}**." in done.text
    told = aide.messages(where)[-1]
    assert told.content == (
        f"{aide.alice.mention} was removed from **{CAMPAIGN}** by {aide.gm.mention}. "
        f"GM-run from now on: **Red** (orders by {aide.gm.mention}); "
        "armies now the GM's: **Red Host**."
    )

    refused = await aide.slash(aide.alice, "order hold", channel=where, unit="Red Archers")
    assert refused.ephemeral and not refused.text.startswith("✅")
    info = await aide.slash(aide.bob, "campaign info", channel=where)
    assert aide.alice.mention not in info.text
    await order(aide, aide.gm, where, "place", unit="Red Archers", x=26, y=11)  # the GM runs Red
    status = await aide.slash(aide.bob, "battle status", channel=where)
    assert status.embeds[0]["title"] == f"{BATTLE} (running)"


async def test_only_a_gm_removes_and_not_a_gm(aide: Harness) -> None:
    where = aide.channel("punic-wars")
    await set_up_battle(aide, where)
    by_player = await aide.slash(aide.bob, "campaign remove", channel=where, member=aide.alice)
    assert by_player.ephemeral and "GM" in by_player.text
    assert not (by_player.message and by_player.message.interactive)
    a_gm = await aide.slash(aide.gm, "campaign remove", channel=where, member=aide.gm)
    assert a_gm.ephemeral and "`/campaign gm remove`" in a_gm.text
    stranger = await aide.slash(aide.gm, "campaign remove", channel=where, member=aide.outsider)
    assert stranger.ephemeral and "`/campaign info`" in stranger.text
    info = await aide.slash(aide.gm, "campaign info", channel=where)
    assert aide.alice.mention in info.text and aide.bob.mention in info.text
