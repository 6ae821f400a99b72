"""The recommended standing instructions accepted from a call to arms that came by direct
message (issue 40): the same one button as the channel's call, clicked outside the server,
sets them for the player's side (Agincourt, as in test_recommended_instructions)."""

from __future__ import annotations

import pytest

from tests.e2e.sheet_battle import start
from tests.e2e.test_recommended_instructions import ACCEPT
from tests.e2e.test_tree_of_battles_turn import BATTLE, set_up
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")


async def test_the_recommended_instructions_accepted_from_a_direct_message(
    aide: Harness, fixed_seed: bytes
) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up(h)
    asked = await h.slash(h.alice, "campaign dm", channel=where, on=True)
    assert asked.ephemeral and "direct message" in asked.content, asked
    await start(h, where, BATTLE, fixed_seed)
    (dm_call,) = [m for m in h.dms(h.alice) if m.embeds and "Call to arms" in m.embeds[0]["title"]]
    assert dm_call.component(label=ACCEPT)["custom_id"].startswith("recommend:")
    before = await h.slash(h.alice, "standing list", channel=where)
    assert before.content.startswith("No standing instructions.")
    accepted = await h.click(h.alice, dm_call, label=ACCEPT)
    assert accepted.ephemeral, accepted
    assert accepted.content.startswith("✅ **England** now follows the recommended standing")
    listed = await h.slash(h.alice, "standing list", channel=where)
    assert "• **England** · response to a charge: **stand to receive**" in listed.content
    theirs = await h.slash(h.bob, "standing list", channel=where)
    assert "**France**" not in theirs.content
