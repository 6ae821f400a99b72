"""``/order done turn:true`` with nothing planned asks first (issue 40): a confirmation with
buttons names what each remaining step does by the rules' defaults; Cancel changes nothing,
Confirm passes the turn. Gergovia as in test_plan_ahead.py (Hail Caesar: units hold)."""

from __future__ import annotations

import pytest

from bot.presentation.orders import RESOLVING_TURN
from tests.e2e.sheet_battle import check_post, reports
from tests.e2e.test_hail_caesar_turn import BATTLE
from tests.e2e.test_plan_ahead import to_turn_one
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")


async def test_done_for_the_turn_with_nothing_planned_asks_first(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await to_turn_one(h)
    before = len(reports(h, where, BATTLE))
    asked = await h.slash(h.alice, "order done", channel=where, turn=True)
    assert asked.ephemeral
    assert asked.content.startswith(
        "You have planned nothing for the rest of this turn. Done for the turn, **Rome** "
        "follows the rules' defaults:\n• Command: General Advance — First Cohort, Second "
        "Cohort, Third Cohort, Cretan Archers, Gallic Horse, Numidians: holds\n"
    )
    assert "• Shooting — " in asked.content
    cancelled = await h.click(h.alice, asked, label="Cancel")
    assert cancelled.content == "Cancelled; nothing changed."
    assert len(reports(h, where, BATTLE)) == before  # the turn did not pass

    again = await h.slash(h.alice, "order done", channel=where, turn=True)
    not_hers = await h.click(h.bob, again, label="Confirm")
    assert not_hers.content == "Only the person who asked can confirm or cancel this."
    assert len(reports(h, where, BATTLE)) == before
    passed = await h.click(h.alice, again, label="Confirm")
    assert passed.content == RESOLVING_TURN
    after = reports(h, where, BATTLE)[before:]
    (result,) = after  # Rome's whole part in one result: now Gaul's part waits for Bob
    title = f"{BATTLE} — Turn 1 · Command: General Advance (Rome)"
    check_post(h, result, title, "Command: General Advance", [h.bob])
