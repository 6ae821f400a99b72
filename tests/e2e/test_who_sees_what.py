"""Who sees what, through Discord: the reading commands and their autocomplete for each seat
(GM, the player asked a question, the other side's player, an observer, an outsider) in an open
and then a closed campaign, with a Tree of Battles battle stopped on a charge response.

France charges and also orders its Brigands to hold; the step stops to ask England how York's
Vaward responds. Until England answers, France's orders of that step are France's (and the
GM's): England's ``/battle record`` holds none of them (it did before: the leak of issue 13).
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.sheet_battle import answer, confirm, give, question
from tests.e2e.test_tree_of_battles_turn import (
    BATTLE,
    FRANCE,
    approach_and_shooting,
    command_phase,
    set_up,
)
from tools.fake_discord import FakeUser
from tools.fake_discord.world import FakeChannel
from tools.harness import Harness, InteractionResult

pytestmark = pytest.mark.usefixtures("fixed_seed")
CLOSED = "**Hundred Years** is a closed campaign: ask its GM to admit you."
# Each reading command and its options.
READS: dict[str, dict[str, object]] = {
    "campaign info": {},
    "battle status": {},
    "battle list": {},
    "battle map": {},
    "battle log": {"turn": 1},
    "battle record": {},
    "orders mine": {},
    "orders all": {},
    "battle unit": {"name": "Brigands"},
    "army show": {"name": FRANCE},
    "army export": {"name": FRANCE},
    "battle terrain list": {},
}
# Autocomplete a reader may type into: (command, option, typed).
TYPED = [
    ("battle map", "unit", ""),
    ("battle unit", "name", ""),
    ("army show", "name", ""),
    ("order give", "unit", ""),
    ("order give", "kind", ""),
    ("answer", "answer", ""),
    ("campaign join", "side", ""),
    ("battle end", "winner", ""),
]


async def stopped_on_a_charge(h: Harness, where: FakeChannel) -> str:
    """Play to the charge: France charges York's Vaward and holds its Brigands; the step stops
    for England's response. The Brigands' hold order's preview, which only France may read."""
    await set_up(h)
    await h.slash(h.gm, "battle start", channel=where)
    await command_phase(h)
    await approach_and_shooting(h)
    await give(h, h.bob, where, "move", "Vendôme's Horse", x=6, y=5.5, option="extra_d6")
    await confirm(h, where, BATTLE, h.alice, h.bob)
    await give(h, h.bob, where, "charge", "Vendôme's Horse", target="York's Vaward")
    held = await give(h, h.bob, where, "hold", "Brigands")
    await confirm(h, where, BATTLE, h.bob)
    return held


def record_of(reply: InteractionResult) -> dict:
    """The record a ``/battle record`` reply attaches, privately."""
    assert reply.ephemeral, reply
    (attached,) = reply.files
    return json.loads(attached.data)


def french(record: dict) -> set[str]:
    """Ids of France's units, leaders and groups."""
    state = record["initial_state"]
    return {a["id"] for kind in ("units", "leaders", "groups") for a in state[kind]
            if a["side"] == "b"}  # fmt: skip


def open_step_orders(record: dict) -> list[dict]:
    """The orders of the last resolve entry (the step stopped at the question)."""
    resolves = [e for e in record["entries"] if e["action"] == "resolve"]
    return resolves[-1]["orders"]


async def read_all(h: Harness, user: FakeUser, where: FakeChannel) -> dict[str, InteractionResult]:
    return {name: await h.slash(user, name, channel=where, **opts) for name, opts in READS.items()}


async def typed_all(h: Harness, user: FakeUser, where: FakeChannel) -> dict[str, list[dict]]:
    return {
        f"{command} {option}": await h.autocomplete(
            user, command, option, channel=where, **{option: typed}
        )
        for command, option, typed in TYPED
    }


async def test_who_sees_what_in_an_open_and_a_closed_campaign(aide: Harness) -> None:
    h, where = aide, aide.channel("hundred-years")
    observer = h.world.owner
    held = await stopped_on_a_charge(h, where)
    asked = question(h, where)
    assert asked.content.startswith(f"{h.alice.mention}: Vendôme's Horse charges York's Vaward")
    watched = await h.slash(observer, "campaign watch", channel=where)
    assert watched.content == f"{observer.mention} is watching **Hundred Years** as an observer."
    seats = {"gm": h.gm, "asked": h.alice, "charging": h.bob, "observer": observer,
             "outsider": h.outsider}  # fmt: skip

    for visibility in ("open", "closed"):
        if visibility == "closed":
            closed = await h.slash(h.gm, "campaign visibility", channel=where, visibility="closed")
            assert "closed **Hundred Years**" in closed.content and not closed.ephemeral
            assert "keep a closed campaign in a private channel" in closed.content
        for seat, user in seats.items():
            replies = await read_all(h, user, where)
            offered = await typed_all(h, user, where)
            if visibility == "closed" and seat == "outsider":
                for name, reply in replies.items():
                    assert reply.ephemeral and reply.content == CLOSED, (name, reply)
                    assert not reply.files, name
                assert offered == {key: [] for key in offered}
                continue
            for name, reply in replies.items():
                assert reply.content != CLOSED, (visibility, seat, name)
            info = replies["campaign info"].embeds[0]
            assert info["title"] == "Hundred Years"
            shown = "Closed: members only" if visibility == "closed" else "Open: anyone may watch"
            assert any(f["value"] == shown for f in info["fields"]), info
            assert replies["battle map"].files[0].data.startswith(b"\x89PNG")
            assert offered["battle map unit"], seat  # everyone who may see the table
            record = record_of(replies["battle record"])
            assert record["seed"] is None  # mid-battle
            ordered = {o["actor"] for o in open_step_orders(record)}
            if seat in ("gm", "charging"):
                assert ordered & french(record) == ordered and len(ordered) == 2, seat
            else:
                assert not ordered & french(record), (visibility, seat, ordered)
            if seat != "charging" and seat != "gm":
                for name, reply in replies.items():
                    texts = [reply.text, *(f.data.decode(errors="ignore") for f in reply.files)]
                    assert not any(held in t for t in texts), (seat, name)
                assert not any(held in c["name"] for cs in offered.values() for c in cs), seat
            # One side's view of the map, privately: for whoever plays a side only.
            fogged = await h.slash(user, "battle map", channel=where, fog=True)
            assert fogged.ephemeral, (seat, fogged)
            if seat in ("asked", "charging"):
                assert fogged.files[0].data.startswith(b"\x89PNG"), seat
            else:
                assert fogged.content == (
                    "You have no side in this battle, so there is no view of yours."
                ), (seat, fogged)

    # Outsiders of the closed campaign change nothing; once it resolves, the orders are public.
    refused = await h.slash(h.outsider, "campaign watch", channel=where)
    assert refused.ephemeral and refused.content == CLOSED
    await answer(h, where, BATTLE, h.alice, asked, "counter-charge")
    after = record_of(await h.slash(h.alice, "battle record", channel=where))
    charges = [e for e in after["entries"] if e["action"] == "resolve"
               and {o["actor"] for o in e["orders"]} & french(after)
               and any(o["kind"] == "charge" for o in e["orders"])]  # fmt: skip
    assert charges, "France's charge orders are in England's record once the step resolved"
    # An admitted outsider reads again.
    admitted = await h.slash(h.gm, "campaign admit", channel=where, member=h.outsider)
    assert "is admitted to **Hundred Years** as an observer" in admitted.content
    info = await h.slash(h.outsider, "campaign info", channel=where)
    assert info.embeds[0]["title"] == "Hundred Years"
