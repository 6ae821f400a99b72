"""Three players, two on one side, in a ruleset whose steps run in rounds (The Tree of Battles'
command actions): the player given York's battle is called to arms with their part named,
each step waits for them, and their order is theirs alone.

The battle is set up as in test_tree_of_battles_turn.py (Agincourt, the sample armies).
"""

from __future__ import annotations

import pytest

from tests.e2e.sheet_battle import confirm, give, posts, refused_order, start
from tests.e2e.test_tree_of_battles_turn import BATTLE, set_up
from tools.harness import Harness
from tools.skirmish_battle import field, lines

pytestmark = pytest.mark.usefixtures("fixed_seed")
YORK = "Edward, Duke of York's battle"


async def test_the_player_given_york_s_battle_is_called_awaited_and_confirms_their_part(
    aide: Harness, fixed_seed: bytes
) -> None:
    h, where = aide, aide.channel("hundred-years")
    alice, oscar, bob = h.alice, h.outsider, h.bob
    await set_up(h)
    await h.slash(oscar, "campaign join", channel=where, side="England")
    given = await h.slash(h.gm, "battle assign", channel=where, group=YORK, member=oscar)
    assert given.content.startswith(f"{oscar.mention} now commands **{YORK}** of **England**")

    _, opened = await start(h, where, BATTLE, fixed_seed)
    assert field(opened, "Now") == "Command — action 1"
    assert field(opened, "Waiting for") == f"{alice.mention}, {oscar.mention}, {bob.mention}"
    calls = {
        p.content: p.embeds[0]["description"]
        for p in posts(h, where)
        if p.embeds and p.embeds[0]["title"] == "📯 Call to arms: England"
    }
    assert set(calls) == {alice.mention, oscar.mention}
    assert calls[oscar.mention].startswith(f"You command **{YORK}** of **England**. ")
    assert calls[alice.mention].startswith(
        "You command **England**, **King Henry V's battle**, **Thomas, Lord Camoys's battle** "
        "of **England**. "
    )

    # York is Oscar's: Alice may not order him, and the round waits for Oscar's confirmation.
    refused = await refused_order(
        h, alice, where, "new_orders", "Edward, Duke of York", option="hold the line"
    )
    assert refused == f"**Edward, Duke of York** is in **{YORK}**, which {oscar.mention} commands."
    preview = await give(
        h, oscar, where, "new_orders", "Edward, Duke of York", option="hold the line"
    )
    assert preview == "Edward, Duke of York issues new orders (2 CPs): hold the line"
    first = await h.slash(alice, "order done", channel=where)
    assert first.content == (
        f"Confirmed. Still waiting for England, France ({oscar.mention}, {bob.mention})."
    )
    resolved = await confirm(h, where, BATTLE, bob, oscar)
    assert "Edward, Duke of York: orders: hold the line (issue or listen to new orders)" in lines(
        resolved
    )
