"""The recommended standing instructions through Discord (issue 40): the first call to arms
offers them with one button (still working after a restart); pressed, they answer England's
charge response at once.

Agincourt as in test_standing_instructions.py (same layout, orders and fixed seed), where
England is asked how York's Vaward responds to Vendôme's Horse's charge.
"""

from __future__ import annotations

import pytest

from tests.e2e.sheet_battle import confirm, full_log, give, posts, start
from tests.e2e.test_plan_ahead import calls
from tests.e2e.test_standing_instructions import _buttons
from tests.e2e.test_tree_of_battles_turn import (
    BATTLE,
    approach_and_shooting,
    command_phase,
    set_up,
)
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")
ACCEPT = "Accept the recommended instructions"
STOOD = "answered by standing instruction: stand to receive (response to a charge)"


async def test_the_recommended_instructions_accepted_with_one_button(
    aide: Harness, fixed_seed: bytes
) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up(h)
    await start(h, where, BATTLE, fixed_seed)
    (english_call,) = [c for c in calls(h, where) if c.content == h.alice.mention]
    assert "Accept the recommended instructions" in english_call.embeds[0]["description"]
    assert english_call.component(label=ACCEPT)["custom_id"].startswith("recommend:")
    await command_phase(h)
    await approach_and_shooting(h)
    assert not [c for c in calls(h, where)[2:] if c.interactive]  # offered once per battle

    shown = await h.slash(h.alice, "standing recommended", channel=where)
    assert shown.ephemeral
    assert "• response to a charge: **stand to receive** (else counter-charge" in shown.content
    assert "treachery" not in shown.content  # the GM rules it: no instruction answers it
    not_his = await h.click(h.bob, english_call, label=ACCEPT)
    assert not_his.ephemeral
    assert not_his.content == "You can set instructions only for your own side, not **England**."
    listed = await h.slash(h.alice, "standing list", channel=where)
    assert listed.content.startswith("No standing instructions.")  # the refusal set nothing

    await h.stop_bot()
    await h.start_bot()  # the button of the call to arms still works after a restart
    accepted = await h.click(h.alice, english_call, label=ACCEPT)  # the one button
    assert accepted.ephemeral
    assert accepted.content.startswith("✅ **England** now follows the recommended standing")
    listed = await h.slash(h.alice, "standing list", channel=where)
    assert "• **England** · response to a charge: **stand to receive**" in listed.content

    moved = await give(h, h.bob, where, "move", "Vendôme's Horse", x=6, y=5.5, option="extra_d6")
    assert moved.startswith("moves 2 AvD + D6")
    await confirm(h, where, BATTLE, h.alice, h.bob)
    charge = await give(h, h.bob, where, "charge", "Vendôme's Horse", target="York's Vaward")
    assert charge.startswith("charges York's Vaward")
    buttons = _buttons(h, where)
    fought = await confirm(h, where, BATTLE, h.bob)
    log = full_log(fought)
    assert f"England chose stand, {STOOD}" in log  # not asked: answered at once
    assert _buttons(h, where) == buttons  # no question waits for England
    assert not [p for p in posts(h, where) if "what response to the charge" in p.content]
