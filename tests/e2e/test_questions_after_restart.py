"""Questions posted by a bot process that was then killed, as the crash suite found them:
the next process knows nothing of the posts the last one made (it kept them in memory), so it
finds the questions left open in the channel. A question still open keeps its buttons when
the result asking it is posted again; a private question's note, which shows no buttons, is
closed once the question is answered."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, update

from bot.db.models import StageLog
from bot.delivery import flush_outbox
from tests.e2e.sheet_battle import answer, confirm, give, posts, question, start
from tests.e2e.test_heroic_age_turn import BATTLE, set_up
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")


def restarted(h: Harness) -> None:
    """What a new bot process remembers of the posts made before it: nothing."""
    assert h.bot is not None
    h.bot.open_questions.clear()  # type: ignore[attr-defined]
    h.bot.questions_known.clear()  # type: ignore[attr-defined]


async def test_a_question_posted_again_after_a_restart_keeps_its_buttons(
    aide: Harness, fixed_seed: bytes
) -> None:
    """Killed after posting a result and its question but before marking it posted: the new
    process posts it again (the same post, by its nonce) and does not close its question."""
    h, where = aide, aide.channel("hundred-years")
    await set_up(h)
    await start(h, where, BATTLE, fixed_seed)
    await confirm(h, where, BATTLE, h.alice, h.bob)  # deployment: the initiative is asked
    asked = question(h, where)
    services = h.bot.services  # type: ignore[union-attr]
    last = select(func.max(StageLog.number)).scalar_subquery()
    async with services.outbox.db.write() as session:  # the last result not marked posted
        await session.execute(
            update(StageLog).where(StageLog.number == last).values(announced_at=None)
        )
    restarted(h)
    assert await flush_outbox(h.bot) >= 1  # type: ignore[arg-type]
    assert question(h, where) is asked, "posted once"
    assert [c["label"] for c in asked.interactive] == ["go first", "go second"], asked.content
    await answer(h, where, BATTLE, h.bob, asked, "go second")


async def test_a_private_question_from_before_a_restart_is_closed(
    aide: Harness, fixed_seed: bytes
) -> None:
    """A private question posted before a restart, answered with ``/answer``: its note in
    the channel (found by its words, as it has no buttons) and the question in its player's
    direct messages (found there by its buttons) are both closed."""
    h, where = aide, aide.channel("hundred-years")
    await set_up(h)
    await start(h, where, BATTLE, fixed_seed)
    await confirm(h, where, BATTLE, h.alice, h.bob)
    await answer(h, where, BATTLE, h.bob, question(h, where), "go second")
    await give(h, h.bob, where, "challenge", "Guthrum", leader="King Alfred")
    await confirm(h, where, BATTLE, h.alice, h.bob)
    await answer(h, where, BATTLE, h.alice, question(h, where), "accept the challenge (3 LP)")
    (note,) = [m for m in posts(h, where) if "a private question is waiting for" in m.content]
    (asked,) = [m for m in h.dms(h.bob) if m.interactive]
    option = asked.interactive[0]["custom_id"].rsplit(":", 1)[-1].rsplit("/", 1)[-1]
    restarted(h)
    answered = await h.slash(h.bob, "answer", channel=where, answer=option)
    assert answered.ephemeral, answered
    assert note.content.endswith("\n(closed: answered)"), note.content
    assert asked.content.endswith("\n(closed: answered)") and not asked.interactive, asked
