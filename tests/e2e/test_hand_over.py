"""/battle hand-over: a GM takes over an absent player's side, or gives it to another player,
while that player stays in the campaign; handing it back is the same command.

The battle is Hail Caesar's Gergovia with Rome shared (test_hail_caesar_shared_side.py): Alice
owns Rome and commands the legion, Oscar the horse.
"""

from __future__ import annotations

import pytest

from tests.e2e.sheet_battle import confirm, give, start
from tests.e2e.test_hail_caesar_shared_side import assign_divisions, now_and_waiting
from tests.e2e.test_hail_caesar_turn import BATTLE, set_up
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")


async def test_a_gm_takes_over_a_side_and_hands_it_back(aide: Harness, fixed_seed: bytes) -> None:
    h, where = aide, aide.channel("punic-wars")
    alice, oscar, bob, gm = h.alice, h.outsider, h.bob, h.gm
    await set_up(h)
    await assign_divisions(h)

    offered = await h.autocomplete(gm, "battle hand-over", "side", channel=where, side="ro")
    assert [c["value"] for c in offered] == ["Rome"]
    taken = await h.slash(gm, "battle hand-over", channel=where, side="rome", member=gm.mention)
    assert not taken.ephemeral
    assert taken.content == (
        f"GM {gm.mention} now plays **Rome**, with **Legio**, instead of {alice.mention}: "
        "each step and question of the side waits for them. "
        f"{alice.mention} keeps their place in the campaign; a GM hands the side back with "
        "`/battle hand-over side:Rome member:@them`."
    )
    info = await h.slash(bob, "campaign info", channel=where)
    assert alice.mention in info.text  # Alice is still a player of the campaign

    # The steps wait for the GM (and Oscar, who keeps the horse), no longer for Alice.
    _, opened = await start(h, where, BATTLE, fixed_seed)
    assert now_and_waiting(opened) == (
        "Deployment",
        f"{gm.mention}, {oscar.mention}, {bob.mention}",
    )
    deployed = await confirm(h, where, BATTLE, gm, bob, oscar)
    assert now_and_waiting(deployed) == (
        "Command: General Advance",
        f"{gm.mention}, {oscar.mention}",
    )
    advanced = await confirm(h, where, BATTLE, oscar, gm)
    assert now_and_waiting(advanced) == ("Command: Orders — Legio", gm.mention)
    moved = await give(h, gm, where, "move", "First Cohort", x=5, y=12)  # the GM runs the legion
    assert moved.startswith('moves 6" to (5, 12)')

    # Alice is back: the GM gives Rome (and with it the legion) back to her.
    back = await h.slash(gm, "battle hand-over", channel=where, side="Rome", member=alice.mention)
    assert not back.ephemeral
    assert back.content.startswith(f"{alice.mention} now plays **Rome** instead of {gm.mention}")
    done = await h.slash(gm, "order done", channel=where)
    assert done.ephemeral and "You play no side" in done.content
    status = await h.slash(bob, "battle status", channel=where)
    assert alice.mention in status.text and gm.mention not in status.text.split("Waiting for")[-1]


async def test_hand_over_refuses_what_it_cannot_do_and_changes_nothing(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    alice, bob, gm = h.alice, h.bob, h.gm
    await set_up(h)

    by_player = await h.slash(
        alice, "battle hand-over", channel=where, side="Rome", member=bob.mention
    )
    assert by_player.ephemeral and "Only a GM" in by_player.content
    unknown = await h.slash(
        gm, "battle hand-over", channel=where, side="Carthage", member=gm.mention
    )
    assert unknown.ephemeral
    assert unknown.content == (
        "No side called **Carthage** in this battle; one of: **Gaul**, **Rome**."
    )
    enemy = await h.slash(gm, "battle hand-over", channel=where, side="Rome", member=bob.mention)
    assert enemy.ephemeral and enemy.content.startswith("That member plays **Gaul**")
    stranger = await h.slash(
        gm, "battle hand-over", channel=where, side="Rome", member=h.outsider.mention
    )
    assert stranger.ephemeral and "`/campaign join side:Rome`" in stranger.content
    same = await h.slash(gm, "battle hand-over", channel=where, side="Rome", member=alice.mention)
    assert same.ephemeral and same.content.startswith("That member already plays **Rome**")

    status = await h.slash(bob, "battle status", channel=where)
    assert alice.mention in status.text  # Rome is still Alice's


async def test_the_player_handed_away_is_refused_until_it_is_handed_back(
    aide: Harness, fixed_seed: bytes
) -> None:
    """Rome, one player's, handed to the GM: Alice's orders and confirmation are refused
    privately (she is told who plays it now), the step waits for the GM; handed back, she
    plays it again."""
    h, where = aide, aide.channel("punic-wars")
    alice, bob, gm = h.alice, h.bob, h.gm
    await set_up(h)
    await h.slash(gm, "battle hand-over", channel=where, side="Rome", member=gm.mention)
    refusal = (
        f"**Rome** is handed over to {gm.mention} until a GM hands it back to you "
        "(`/battle hand-over side:Rome member:@you`); meanwhile `/battle status` shows where "
        "the battle stands."
    )
    deploy = await h.slash(alice, "battle deploy", channel=where, unit="First Cohort", at="5,7")
    assert deploy.ephemeral and deploy.content == refusal
    _, opened = await start(h, where, BATTLE, fixed_seed)
    assert now_and_waiting(opened) == ("Deployment", f"{gm.mention}, {bob.mention}")

    refused = await h.slash(alice, "order done", channel=where)
    assert refused.ephemeral and refused.content == refusal
    deployed = await confirm(
        h, where, BATTLE, bob, gm
    )  # Alice's refused confirmation never counted
    assert now_and_waiting(deployed) == ("Command: General Advance", gm.mention)
    refused = await h.slash(alice, "order give", channel=where, kind="hold", unit="Legate Quintus")
    assert refused.ephemeral and refused.content == refusal

    await h.slash(gm, "battle hand-over", channel=where, side="Rome", member=alice.mention)
    status = await h.slash(bob, "battle status", channel=where)
    assert alice.mention in status.text.split("Waiting for")[-1]
    again = await h.slash(gm, "order done", channel=where)
    assert again.ephemeral and "You play no side" in again.content
    back = await h.slash(alice, "order done", channel=where)
    assert back.ephemeral and back.content == "Confirmed: every order is in, resolving."
