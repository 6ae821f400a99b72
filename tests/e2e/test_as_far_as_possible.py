"""#40 "As far as possible" through Discord: a move past reach, refused as given, is accepted
with ``as_far_as_possible:true``; its preview says where it will end and why, and the step
result says it too. An order with nothing to go along is refused with that option, privately.

The skirmish battle of test_battle_scenario (same seed: Blue wins the first initiative).
"""

from __future__ import annotations

import pytest

from tools.harness import Harness
from tools.skirmish_battle import lines, open_questions, order, refused, reports, set_up_battle

pytestmark = pytest.mark.usefixtures("fixed_seed")
FULL = 'needs 8" of movement, beyond its 6" move'


async def to_blue_movement(h: Harness) -> None:
    """Set up and start the battle, both deploy as placed, Blue goes first: Blue's movement."""
    where = h.channel("hundred-years")
    await set_up_battle(h, where)
    await h.slash(h.gm, "battle start", channel=where)
    for user in (h.alice, h.bob):
        await h.slash(user, "order done", channel=where)
    (question,) = open_questions(h, where)
    await h.click(h.bob, question, label="go first")


async def test_a_move_as_far_as_possible_previews_and_resolves_where_it_stops(
    aide: Harness,
) -> None:
    h, where = aide, aide.channel("hundred-years")
    await to_blue_movement(h)
    too_far = await refused(h, h.bob, where, "order move", unit="Blue Warriors", x=16, y=18)
    assert too_far.startswith(f"**Blue Warriors** cannot move: {FULL}.\n")
    assert "`as_far_as_possible:true`" in too_far  # the refusal points at the option

    moved = await order(
        h, h.bob, where, "move", unit="Blue Warriors", x=16, y=18, as_far_as_possible=True
    )
    assert moved.content.startswith('✅ **Blue Warriors**: moves 6" to (16, 20)'), moved.content
    assert f"• As far as possible: it stops at (16, 20); the full order: {FULL}" in moved.content

    nothing = await refused(
        h, h.bob, where, "order give", kind="hold", unit="Blue Slingers", as_far_as_possible=True
    )
    assert nothing.startswith("`as_far_as_possible` is for a move to a point"), nothing
    assert "a hold order has nothing to go along" in nothing

    before = len(reports(h, where))
    confirmed = await h.slash(h.bob, "order done", channel=where)
    assert confirmed.content == "Confirmed: every order is in, resolving.", confirmed
    (result,) = reports(h, where)[before:]
    said = lines(result)
    assert f"Blue Warriors: move as far as possible, it stops at (16, 20): {FULL}" in said, said
    assert 'Blue Warriors moves 6" to (16, 20) facing 180°' in said, said
