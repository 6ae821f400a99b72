"""Two players on one side of Hail Caesar through Discord: the GM gives the legion to Alice and
the horse to Oscar, each orders only their own division, and a step waits for both of them.

The battle is set up as in test_hail_caesar_turn.py (Gergovia, the sample armies).
"""

from __future__ import annotations

import pytest

from tests.e2e.sheet_battle import (
    answer,
    confirm,
    field,
    give,
    question,
    refused_order,
    reports,
    start,
)
from tests.e2e.test_hail_caesar_turn import BATTLE, set_up, title
from tools.fake_discord import BotMessage
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")


def now_and_waiting(post: BotMessage) -> tuple[str, str]:
    return field(post, "Now"), field(post, "Waiting for")


async def assign_divisions(h: Harness) -> None:
    """Oscar joins Rome beside Alice; the GM gives Alice the legion and Oscar the horse."""
    where = h.channel("punic-wars")
    await h.slash(h.outsider, "campaign join", channel=where, side="Rome")
    offered = await h.autocomplete(h.gm, "battle assign", "group", channel=where, group="equ")
    assert [(c["name"], c["value"]) for c in offered] == [("Equites", "a_rom_equites")]

    not_gm = await h.slash(h.alice, "battle assign", channel=where, group="Legio", member=h.alice)
    assert not_gm.ephemeral and "Only a GM" in not_gm.content
    gaul = await h.slash(h.gm, "battle assign", channel=where, group="Legio", member=h.bob)
    assert gaul.ephemeral and gaul.content.startswith("That member is not a player of **Rome**")
    itself = await h.slash(h.gm, "battle assign", channel=where, group="Legio", member=h.gm)
    assert itself.ephemeral and itself.content.startswith("That member is a GM")

    for user, group, name in ((h.alice, "a_rom_legio", "Legio"), (h.outsider, "a_rom_equites",
                                                                    "Equites")):  # fmt: skip
        given = await h.slash(h.gm, "battle assign", channel=where, group=group, member=user)
        assert not given.ephemeral
        assert given.content == (
            f"{user.mention} now commands **{name}** of **Rome**: only they order it, "
            "and each step waits for them."
        )


async def test_two_players_on_one_side_each_order_their_own_division(
    aide: Harness, fixed_seed: bytes
) -> None:
    h, where = aide, aide.channel("punic-wars")
    alice, oscar, bob = h.alice, h.outsider, h.bob
    await set_up(h)
    await assign_divisions(h)
    _, opened = await start(h, where, BATTLE, fixed_seed)
    assert now_and_waiting(opened) == (
        "Deployment",
        f"{alice.mention}, {oscar.mention}, {bob.mention}",
    )

    # Deployment and the General Advance wait for both Romans: one confirming is not enough.
    deployed = await confirm(h, where, BATTLE, alice, bob, oscar)
    assert now_and_waiting(deployed) == (
        "Command: General Advance",
        f"{alice.mention}, {oscar.mention}",
    )
    first = await h.slash(alice, "order done", channel=where)
    assert first.content == f"Confirmed. Still waiting for Rome ({oscar.mention})."
    advanced = await confirm(h, where, BATTLE, oscar)
    assert now_and_waiting(advanced) == ("Command: Orders — Legio", alice.mention)

    # The legion's step is Alice's: Oscar may not order its cohorts, nor see them offered.
    offered = await h.autocomplete(oscar, "order give", "unit", channel=where, unit="")
    assert "First Cohort" not in [c["value"] for c in offered]
    assert "Gallic Horse" in [c["value"] for c in offered]
    refused = await refused_order(h, oscar, where, "move", "First Cohort", x=5, y=12)
    assert refused == f"**First Cohort** is in **Legio**, which {alice.mention} commands."
    moved = await give(h, alice, where, "move", "First Cohort", x=5, y=12)
    assert moved.startswith('moves 6" to (5, 12)')
    tested = await confirm(h, where, BATTLE, alice)
    assert now_and_waiting(tested) == ("Command: Orders — Legio", alice.mention)
    asked = question(h, where)  # the legate's order failed: his player may re-roll it
    assert asked.content.startswith(f"{alice.mention}: Legate Quintus may have")
    legio = await answer(h, where, BATTLE, alice, asked, "keep the result")
    assert legio.embeds[0]["title"] == title("Command: Orders — Legio (Rome)")
    assert now_and_waiting(legio) == ("Command: Orders — Equites", oscar.mention)

    # The horse's step is Oscar's.
    refused = await refused_order(h, alice, where, "move", "Gallic Horse", x=33, y=14)
    assert refused == f"**Gallic Horse** is in **Equites**, which {oscar.mention} commands."
    moved = await give(h, oscar, where, "move", "Gallic Horse", x=33, y=14)
    assert moved.startswith('moves 8" to (33, 14)')
    horse = await confirm(h, where, BATTLE, oscar)
    assert horse.embeds[0]["title"] == title("Command: Orders — Equites (Rome)")
    assert now_and_waiting(horse) == ("Shooting", f"{alice.mention}, {oscar.mention}")

    # Shooting: the archers are Alice's, the Numidians' javelins Oscar's; the step waits for both.
    aimed = await give(h, alice, where, "shoot", "Cretan Archers", target="Slingers")
    assert aimed.startswith("shoots at Slingers")
    shot = await confirm(h, where, BATTLE, alice, oscar)
    assert shot.embeds[0]["title"] == title("Shooting (Rome)")
    assert now_and_waiting(shot) == ("Command: General Advance", bob.mention)

    # Gaul, one player as before, plays its player turn out; turn 2 begins.
    for _ in range(4):
        last = await confirm(h, where, BATTLE, bob)
    assert last.embeds[0]["title"] == title("Shooting (Gaul)")
    assert len(reports(h, where, BATTLE)) == 10


async def test_each_player_is_offered_and_may_deploy_only_their_own_division(
    aide: Harness,
) -> None:
    """Set-up after `/battle assign`: the deploy autocomplete offers each Roman only the units
    of their division, and deploying another's is refused (the GM may deploy any)."""
    h, where = aide, aide.channel("punic-wars")
    alice, oscar = h.alice, h.outsider
    await set_up(h)
    await assign_divisions(h)

    def offered_names(choices: list[dict]) -> set[str]:
        return {c["value"] for c in choices}

    legion = {"First Cohort", "Second Cohort", "Third Cohort", "Cretan Archers"}
    horse = {"Gallic Horse", "Numidians"}
    offered = await h.autocomplete(alice, "battle deploy", "unit", channel=where, unit="")
    assert offered_names(offered) == legion
    offered = await h.autocomplete(oscar, "battle deploy", "unit", channel=where, unit="")
    assert offered_names(offered) == horse
    offered = await h.autocomplete(h.gm, "battle deploy", "unit", channel=where, unit="")
    assert offered_names(offered) >= legion | horse

    refused = await h.slash(oscar, "battle deploy", channel=where, unit="First Cohort", at="5,6")
    assert refused.ephemeral
    assert refused.content == f"**First Cohort** is in **Legio**, which {alice.mention} commands."
    moved = await h.slash(oscar, "battle deploy", channel=where, unit="Numidians", at="40,6")
    assert moved.ephemeral and "Numidians" in moved.content
