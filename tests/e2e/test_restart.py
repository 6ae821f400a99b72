"""The bot is stopped between a deadline's time and its firing; the next process catches up.

The database file, the fake Discord and the fake clock outlive the bot: ``stop_bot`` closes
the client as a process exit would, the clock moves past the deadline while nothing runs,
and ``start_bot`` builds a new bot on the same file, which fires what is overdue at start-up.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from tools.harness import Harness
from tools.skirmish_battle import (
    BATTLE,
    field,
    lines,
    open_questions,
    order,
    posts,
    reminders,
    reports,
    set_up_battle,
    start_post,
    waiting_for,
)

pytestmark = pytest.mark.usefixtures("fixed_seed")
PAST_THE_DEADLINE = timedelta(hours=49)  # a step's deadline is 48 h after it opens


async def test_a_deadline_missed_while_down_resolves_once_at_start_up(aide: Harness) -> None:
    """Orders given before the stop are applied by the one resolution the new process makes."""
    h, where = aide, aide.channel("hundred-years")
    await set_up_battle(h, where)
    await h.slash(h.gm, "battle start", channel=where)
    await order(h, h.alice, where, "place", unit="Red Archers", x=26, y=11)
    await order(h, h.alice, where, "place", unit="Red Horse", x=38, y=6, facing=45)
    await order(h, h.bob, where, "place", unit="Blue Riders", x=40, y=30)
    waiting = await h.slash(h.bob, "order done", channel=where)
    assert waiting.content == f"Confirmed. Still waiting for Red ({h.alice.mention})."
    assert reports(h, where) == []
    assert field(start_post(h, where), "Now") == "Deployment"
    posted = len(posts(h, where))

    await h.stop_bot()
    assert await h.advance(PAST_THE_DEADLINE) == 0  # nothing runs while the bot is down
    assert len(posts(h, where)) == posted
    await h.start_bot()

    new = posts(h, where)[posted:]
    assert len(new) == 2, [m.text for m in new]  # one step result and the question it opened
    result, question = new
    assert result.embeds[0]["title"] == f"{BATTLE} — Set-up · Deployment"
    assert question.content.startswith(f"{h.bob.mention}: Blue won the initiative")
    assert "Resolved: deadline" in result.text
    assert "No orders from" not in result.text  # both sides had given orders
    for moved in (
        'Red Archers moves 2.2" to (26, 11) facing 0°',
        'Red Horse moves 7.2" to (38, 6) facing 45°',
        'Blue Riders moves 8.9" to (40, 30) facing 180°',
    ):
        assert moved in lines(result), (moved, lines(result))
    assert field(result, "Now") == "Initiative"
    assert waiting_for(result, h) == [h.bob]
    # The stage moved on by exactly one: the question belongs to stage 2 (deployment was 1).
    ids = [c["custom_id"] for c in question.interactive]
    assert [re.sub(r"^decide:\d+:", "", i) for i in ids] == ["2:first", "2:second"]
    assert reminders(h, where) == []

    # Nothing is left to fire: running the deadlines again or another restart posts nothing.
    assert await h.advance(timedelta(0)) == 0
    await h.stop_bot()
    await h.start_bot()
    assert posts(h, where)[posted:] == new

    # The question's buttons, posted by the previous process, still work.
    assert open_questions(h, where) == [question]
    clicked = await h.click(h.bob, question, label="go first")
    assert clicked.type == 7 and question.content == f"Answered by {h.bob.mention}: **go first**"
    answered = reports(h, where)[-1]
    assert answered.embeds[0]["title"] == f"{BATTLE} — Turn 1 · Initiative"
    assert field(answered, "Now") == "Movement"


async def test_orders_given_before_a_restart_are_kept(aide: Harness) -> None:
    """A restart before the deadline loses no order: the step resolves later with them."""
    h, where = aide, aide.channel("hundred-years")
    await set_up_battle(h, where)
    await h.slash(h.gm, "battle start", channel=where)
    await order(h, h.alice, where, "place", unit="Red Spearmen", x=12, y=8)
    await h.stop_bot()
    await h.advance(timedelta(hours=2))  # well before any reminder or deadline
    await h.start_bot()

    mine = await h.slash(h.alice, "orders mine", channel=where)
    assert mine.content == "**Red Spearmen** (place): deploys at (12, 8) facing 0°"
    await h.slash(h.alice, "order done", channel=where)
    await h.slash(h.bob, "order done", channel=where)
    assert 'Red Spearmen moves 4.5" to (12, 8) facing 0°' in lines(reports(h, where)[-1])


async def test_reminders_overdue_at_start_up_are_not_posted_late(aide: Harness) -> None:
    """Down past a deadline nobody gave orders for: the step resolves, nobody is reminded."""
    h, where = aide, aide.channel("hundred-years")
    await set_up_battle(h, where)
    await h.slash(h.gm, "battle start", channel=where)
    posted = len(posts(h, where))
    await h.stop_bot()
    await h.advance(PAST_THE_DEADLINE)
    await h.start_bot()
    assert reminders(h, where) == []
    result, question = posts(h, where)[posted:]  # the step result and its question, no more
    assert result.embeds[0]["title"] == f"{BATTLE} — Set-up · Deployment"
    assert lines(result)[0] == "No orders from Red, Blue: defaults applied."
    assert "Resolved: deadline" in result.text
    assert question.content.startswith(f"{h.bob.mention}: Blue won the initiative")
