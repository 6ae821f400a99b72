"""A question missed under the `ai` policy through Discord (#36): at its deadline the AI
stand-in answers it for the player (not the default), said in the result, and its answer's
reason is posted once the step has resolved. Skirmish, Alice (Red) and Bob (Blue)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tools.harness import Harness
from tools.skirmish_battle import open_questions, posts, reports, set_up_battle

pytestmark = pytest.mark.usefixtures("fixed_seed")
AI_POST = "🤖 The AI stand-in's orders and answers in the step just resolved:"


async def test_a_missed_question_under_the_ai_policy_gets_the_ai_s_answer(aide: Harness) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up_battle(h, where)
    policy = await h.slash(h.gm, "campaign deadlines", channel=where, missing="ai")
    assert not policy.ephemeral, policy.content
    await h.slash(h.gm, "battle start", channel=where)
    for user in (h.alice, h.bob):
        await h.slash(user, "order done", channel=where)
    (asked,) = open_questions(h, where)  # who goes first: the winner's to answer
    await h.advance(timedelta(hours=25))  # no one answers it
    answered = reports(h, where)[-1]
    assert "Resolved: deadline: answers by the AI stand-in" in answered.text, answered.text
    (explained,) = [p for p in posts(h, where) if p.content.startswith(AI_POST)]
    (line,) = explained.content.splitlines()[1:]
    assert "won the initiative" in line and " → " in line and " — " in line, line
    assert asked.interactive == []  # the question's buttons are gone
