"""A conditional plan through Discord (issue 40): a move planned ahead with two alternatives
("else move nearer; else hold") falls through to its second alternative when the first two
cannot be made by its step, and the result says which was used and why (Gergovia, as in
test_plan_ahead)."""

from __future__ import annotations

import pytest

from tests.e2e.sheet_battle import reports
from tests.e2e.test_plan_ahead import (
    BATTLE,
    _horse_sent_away,
    done_for_turn,
    plan,
    step_keys,
    to_turn_one,
)
from tools.fake_discord import BotMessage
from tools.harness import Harness
from tools.skirmish_battle import field, lines

pytestmark = pytest.mark.usefixtures("fixed_seed")
EQUITES = "Command: Orders — Equites"


def log_of(result: BotMessage) -> list[str]:
    """A result's log lines: in the message, or in its log.txt when too long for it."""
    attached = [f.text for f in result.files if f.filename == "log.txt"]
    return attached[0].splitlines() if attached else lines(result)


def horse_fell_through(h: Harness, number: int) -> tuple[BotMessage, list[str], str]:
    """The last result, its log and its note that the Gallic Horse's planned move used its
    ``number``-th alternative (hold)."""
    result = reports(h, h.channel("punic-wars"), BATTLE)[-1]
    log = log_of(result)
    (note,) = [line for line in log if f"alternative {number} (hold) used" in line]
    assert note.startswith("Gallic Horse: planned move could not be carried out, ")
    return result, log, note


async def test_a_conditional_plan_falls_through_to_its_second_alternative(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await to_turn_one(h)
    await plan(h, h.alice, EQUITES, "Gallic Horse", x=33, y=14)
    step = (await step_keys(h, h.alice))[EQUITES]
    nearer = await h.slash(
        h.alice, "order alternative", channel=where, step=step, kind="move",
        unit="Gallic Horse", x=33, y=12,
    )  # fmt: skip
    assert nearer.ephemeral and "If it cannot be carried out then, tried in turn:\n1. " in (
        nearer.content
    )
    hold = await h.slash(
        h.alice, "order alternative", channel=where, step=step, kind="hold", unit="Gallic Horse"
    )
    assert hold.ephemeral and "\n2. " in hold.content
    mine = await h.slash(h.alice, "orders mine", channel=where)
    assert "  else 1: " in mine.content and "  else 2: " in mine.content
    await _horse_sent_away(h)
    await done_for_turn(h, h.alice)
    result, log, note = horse_fell_through(h, 2)
    assert "; alternative 1 (move): " in note
    assert not [line for line in log if "default used" in line]
    assert field(result, "Now") == "Command: General Advance"  # on to Gaul without stopping
    after = await h.slash(h.alice, "orders mine", channel=where)
    assert "Gallic Horse" not in after.content  # used, with its alternatives
