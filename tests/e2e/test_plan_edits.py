"""``/plan change`` through Discord: a planned order's alternatives tried
in another order and its player asked when none can be carried out, as ``/orders mine`` then
shows (the war table's plan panel calls the same service)."""

from __future__ import annotations

import pytest

from tests.e2e.test_conditional_plans import EQUITES
from tests.e2e.test_plan_ahead import step_keys, to_turn_one
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")


async def test_a_planned_orders_alternatives_reordered_and_ask_me_set(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await to_turn_one(h)
    step = (await step_keys(h, h.alice))[EQUITES]
    given = await h.slash(
        h.alice, "order give", channel=where, kind="move", unit="Gallic Horse", x=33, y=14,
        step=step, **{"else": "hold"},
    )  # fmt: skip
    assert given.ephemeral and "tried in turn" in given.content, given.content
    added = await h.slash(
        h.alice, "order alternative", channel=where, step=step, kind="move",
        unit="Gallic Horse", x=33, y=12,
    )  # fmt: skip
    assert added.ephemeral and "\n2. " in added.content, added.content
    before = (await h.slash(h.alice, "orders mine", channel=where)).content
    assert "else 2: " in before, before

    moved = await h.slash(
        h.alice, "plan change", channel=where, step=step, unit="Gallic Horse", earlier=2,
    )  # fmt: skip
    assert moved.ephemeral and "If it cannot be carried out then, tried in turn:" in moved.content
    after = (await h.slash(h.alice, "orders mine", channel=where)).content
    firsts = [line for line in after.splitlines() if "else 1: " in line]
    seconds = [line for line in before.splitlines() if "else 2: " in line]
    assert firsts and seconds and firsts[0].split("else 1: ")[1] == seconds[0].split("else 2: ")[1]

    refused = await h.slash(
        h.alice, "plan change", channel=where, step=step, unit="Gallic Horse", earlier=1,
    )  # fmt: skip
    assert refused.ephemeral and "That alternative is tried first already." in refused.content
    assert (await h.slash(h.alice, "orders mine", channel=where)).content == after

    asked = await h.slash(
        h.alice, "plan change", channel=where, step=step, unit="Gallic Horse", ask=True
    )
    assert asked.ephemeral and "you will be asked" in asked.content, asked.content
    theirs = await h.slash(
        h.bob, "plan change", channel=where, step=step, unit="Gallic Horse", ask=False
    )
    assert theirs.ephemeral and "you will be asked" not in theirs.content
    mine = await h.slash(h.alice, "orders mine", channel=where)
    assert "ask me" in mine.content.lower(), mine.content
