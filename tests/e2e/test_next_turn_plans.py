"""Plans for the next game turn through Discord (issue 40): Rome plans turn 2 during turn 1
and says it is done for it; when turn 2 opens, Rome's part resolves without waiting for
Rome, with the planned orders (a conditional one falling through to its second alternative
when the first two cannot be made). Gergovia, as in test_plan_ahead."""

from __future__ import annotations

import pytest

from tests.e2e.sheet_battle import reports
from tests.e2e.test_conditional_plans import horse_fell_through, log_of
from tests.e2e.test_plan_ahead import (
    BATTLE,
    _horse_sent_away,
    calls,
    done_for_turn,
    plan,
    step_keys,
    to_turn_one,
)
from tools.harness import Harness
from tools.skirmish_battle import field

pytestmark = pytest.mark.usefixtures("fixed_seed")
NEXT_EQUITES = "Next turn: Command: Orders — Equites"


async def _done_next_turn(h: Harness) -> str:
    """Rome keeps its re-roll (a standing answer) and is done for this turn and the next."""
    where = h.channel("punic-wars")
    await h.slash(h.alice, "standing set", channel=where, topic="reroll", choice="keep")
    done = await h.slash(h.alice, "order done", channel=where, next_turn=True)
    assert done.ephemeral, done
    return done.content


async def test_a_plan_for_the_next_turn_resolves_it_without_waiting(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await to_turn_one(h)
    offered = list(await step_keys(h, h.alice))
    assert offered[:4] == [
        "Command: General Advance", "Command: Orders — Legio", "Command: Orders — Equites",
        "Shooting",
    ]  # fmt: skip
    assert NEXT_EQUITES in offered[4:]  # the next turn's steps after this one's
    # Nothing planned for the next turn: refused, and nothing is changed.
    refused = await h.slash(h.bob, "order done", channel=where, next_turn=True)
    assert refused.ephemeral and refused.content.startswith(
        "You have planned nothing for the next turn yet"
    ), refused
    planned = await plan(h, h.alice, NEXT_EQUITES, "Gallic Horse", x=33, y=14)
    assert planned.startswith(f"🗓️ Planned for **{NEXT_EQUITES}** — **Gallic Horse**: ")
    mine = await h.slash(h.alice, "orders mine", channel=where)
    assert f"{NEXT_EQUITES} · **Gallic Horse** (move)" in mine.content
    theirs = await h.slash(h.bob, "orders mine", channel=where)
    assert "Gallic Horse" not in theirs.content  # sealed, like any plan
    answered = await _done_next_turn(h)
    assert "Your plan for the next turn stands too" in answered, answered
    before = len(calls(h, where))
    await done_for_turn(h, h.bob)
    result = reports(h, where, BATTLE)[-1]
    log = log_of(result)
    # Turn 2 opened and Rome's part of it resolved at once, with the planned move.
    assert "— Turn 2: Command: Orders (Equites) —" in log, log
    assert any(line.startswith("Gallic Horse moves") for line in log), log
    assert field(result, "Now") == "Command: General Advance"
    assert h.bob.mention in field(result, "Waiting for")
    assert h.alice.mention not in field(result, "Waiting for")
    turn_two = [call.embeds[0]["title"] for call in calls(h, where)[before:]]
    assert turn_two == ["📯 Call to arms: Gaul"]  # nobody calls Rome back for turn 2
    after = await h.slash(h.alice, "orders mine", channel=where)
    assert "Gallic Horse" not in after.content  # carried out


async def test_a_conditional_plan_for_the_next_turn_falls_through(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await to_turn_one(h)
    await plan(h, h.alice, NEXT_EQUITES, "Gallic Horse", x=33, y=14)
    step = (await step_keys(h, h.alice))[NEXT_EQUITES]
    for kind, options in (("move", {"x": 33, "y": 12}), ("hold", {})):
        given = await h.slash(
            h.alice, "order alternative", channel=where, step=step, kind=kind,
            unit="Gallic Horse", **options,
        )  # fmt: skip
        assert given.ephemeral and "tried in turn" in given.content, given
    await _horse_sent_away(h)
    await _done_next_turn(h)
    await done_for_turn(h, h.bob)
    result, log, _ = horse_fell_through(h, 2)
    assert "— Turn 2: Command: Orders (Equites) —" in log
    assert field(result, "Now") == "Command: General Advance"  # on to Gaul's part of turn 2


async def test_an_else_on_order_give_is_the_plans_alternative(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await to_turn_one(h)
    # For the open step `else` is refused, and the order is not kept either.
    refused = await h.slash(
        h.alice, "order give", channel=where, kind="hold", unit="Gallic Horse", **{"else": "move"}
    )
    assert refused.ephemeral and refused.content.startswith("`else` is for an order planned")
    mine = await h.slash(h.alice, "orders mine", channel=where)
    assert "Gallic Horse" not in mine.content
    step = (await step_keys(h, h.alice))[NEXT_EQUITES]
    given = await h.slash(
        h.alice, "order give", channel=where, kind="move", unit="Gallic Horse", x=33, y=14,
        step=step, **{"else": "hold"},
    )  # fmt: skip
    assert given.ephemeral and "If it cannot be carried out then, tried in turn:\n1. " in (
        given.content
    ), given
    mine = await h.slash(h.alice, "orders mine", channel=where)
    assert f"{NEXT_EQUITES} · **Gallic Horse** (move)" in mine.content
    assert "  else 1: " in mine.content
    await _horse_sent_away(h)
    await _done_next_turn(h)
    await done_for_turn(h, h.bob)
    horse_fell_through(h, 1)


async def test_a_player_whose_plan_stands_is_told_so_and_not_waited_on(aide: Harness) -> None:
    """Gaul plans its part of turn 2 during turn 1; Rome does not. Turn 2 waits for Rome only;
    Gaul's call says its plan stands, and Gaul's part then resolves as soon as Rome is done."""
    h, where = aide, aide.channel("punic-wars")
    await to_turn_one(h)
    horse = await plan(h, h.bob, "Next turn: Command: Orders — Horse", "Noble Horse", x=34, y=24)
    assert horse.startswith("🗓️ Planned for **Next turn: Command: Orders — Horse**"), horse
    await h.slash(h.bob, "standing set", channel=where, topic="reroll", choice="keep")
    done = await h.slash(h.bob, "order done", channel=where, next_turn=True)
    assert "Your plan for the next turn stands too" in done.content, done
    await h.slash(h.alice, "standing set", channel=where, topic="reroll", choice="keep")
    await done_for_turn(h, h.alice)  # Rome's part of turn 1; Gaul is done for it: turn 2 opens
    opened = reports(h, where, BATTLE)[-1]
    assert "— Turn 2: Command: Rally Elite (Rome) —" in log_of(opened)
    assert field(opened, "Now") == "Command: General Advance"
    assert h.alice.mention in field(opened, "Waiting for")
    roman, gallic = calls(h, where)[-2:]
    assert roman.embeds[0]["title"] == "📯 Call to arms: Rome"
    stands = gallic.embeds[0]["description"]
    assert stands.startswith("Your plan for this turn, made last turn, stands"), stands
    await done_for_turn(h, h.alice)  # Rome's part of turn 2: Gaul's follows without a stop
    log = log_of(reports(h, where, BATTLE)[-1])
    assert "— Turn 2: Command: Orders (Horse) —" in log, log
    # The planned move was taken to its order test (failed on these dice), and turn 3 began.
    horse_step = log[log.index("— Turn 2: Command: Orders (Horse) —") :]
    assert any(line.startswith("Order test (Leadership 7) for Noble Horse") for line in horse_step)
    assert "— Turn 3: Command: Rally Elite (Rome) —" in horse_step
