"""Impetus through Discord: a battle plan revealed during the battle by an order planned
ahead. Rome plans ``reveal_plan`` for the Movement step of a command that has not yet
activated; until that step resolves Gaul sees neither the plan nor the order; then the plan
is in the log and in Rome's public status for everyone. A standing instruction answers the
terrain spot question (``/standing set topic:terrain_spot choice:auto`` is accepted). The
seed is fixed (``fixed_seed``)."""

from __future__ import annotations

import pytest

from tests.e2e.sheet_battle import end_and_verify, posts, start
from tests.e2e.test_impetus_turn import BATTLE, later_movement, play_stage, set_up, view
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")
PLAN = "Hold the centre, strike on the left."  # the scripted players' plan (prebattle.demo)


async def test_a_plan_revealed_by_an_order_planned_ahead(aide: Harness, fixed_seed: bytes) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up(h, where)
    users = {"a": h.alice, "b": h.bob}
    spot = await h.slash(h.alice, "standing set", channel=where, topic="terrain_spot",
                         choice="auto")  # fmt: skip
    assert spot.ephemeral and "terrain" in spot.content.lower(), spot.content
    published, _ = await start(h, where, BATTLE, fixed_seed)
    for _ in range(60):
        if (await view(h, where)).state.cursor.turn >= 1:
            break
        await play_stage(h, where, users)
    else:
        pytest.fail("the set-up did not end")

    log: list[str] = []
    planned_for, revealed_at = "", -1
    for _ in range(80):
        state = (await view(h, where)).state
        if state.cursor.turn >= 2:
            break
        later = None if planned_for else await later_movement(h, where, state)
        if later is not None:
            command, wanted, step = later
            kinds = await h.autocomplete(h.alice, "order give", "kind", channel=where,
                                         kind="reveal")  # fmt: skip
            assert "reveal_plan" in [c["value"] for c in kinds], kinds
            given = await h.slash(h.alice, "order give", channel=where, kind="reveal_plan",
                                  unit="Rome", text="the legions turn",
                                  step=step)  # fmt: skip
            assert given.ephemeral and given.content.startswith(
                f"🗓️ Planned for **{wanted}** — **Rome**"
            ), given.content
            assert PLAN not in given.content  # the preview does not show the plan
            planned_for = command.id
            # Sealed: Gaul sees no trace of the plan or the order anywhere.
            assert not any(PLAN in m.text for m in posts(h, where))
            theirs = await h.slash(h.bob, "battle status", channel=where)
            assert PLAN not in theirs.text and "reveal" not in theirs.text.lower()
        before = len(log)
        log += await play_stage(h, where, users, planned_for)
        if revealed_at < 0 and any(PLAN in line for line in log[before:]):
            revealed_at = len(log)
            state = (await view(h, where)).state
            assert state.side("a").status.get("plan_revealed") == PLAN
    else:
        pytest.fail("turn 1 did not end")

    assert planned_for and revealed_at > 0
    (line,) = [line for line in log if PLAN in line]
    assert line == f"Battle plan revealed (turn) for Rome: 1 → {PLAN} (the legions turn)", line
    public = await h.slash(h.bob, "battle status", channel=where)
    assert PLAN in public.text, public.text
    await end_and_verify(h, where, BATTLE, fixed_seed, published, "impetus")
