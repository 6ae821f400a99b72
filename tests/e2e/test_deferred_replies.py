"""Commands whose work may take long answer Discord first: an order, a withdrawal, a standing
instruction, a deployment, an army file or an answer (tried in test_player_writes) is deferred
before its database work, so a busy bot
cannot miss Discord's 3 s (and lose the reply of an order it stored).

The fake Discord looks at the database at the moment each command's first response arrives:
no row may have changed yet. The command then ends in its answer; a refusal stays private.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.test_deferred_errors import battle_not_deployed
from tests.e2e.test_outsider_writes import rows
from tools.fake_discord import FakeUser, InteractionRecord
from tools.harness import Harness, InteractionResult
from tools.skirmish_battle import RED, set_up_battle

pytestmark = pytest.mark.usefixtures("fixed_seed")
OTHER_ARMY = {**RED, "name": "Second Host"}


async def first_response_before_work(
    h: Harness, db: str, user: FakeUser, command: str, where: str = "hundred-years",
    **options: Any,
) -> tuple[InteractionResult, bool]:  # fmt: skip
    """Run a command (in channel ``where``); assert no row had changed when Discord got its
    first response. The answer, and whether the command changed rows in the end."""
    before = rows(db)
    seen: list[tuple[InteractionRecord, bool]] = []

    def look(record: InteractionRecord) -> None:
        seen.append((record, rows(db) == before))

    h.fake.on_callback.append(look)
    try:
        answer = await h.slash(user, command, channel=h.channel(where), **options)
    finally:
        h.fake.on_callback.remove(look)
    (unchanged,) = [u for r, u in seen if r is answer.record]
    assert unchanged, f"/{command} answered Discord only after writing: {answer}"
    assert "Something went wrong" not in answer.text, answer
    return answer, rows(db) != before


async def test_orders_are_deferred_before_they_are_stored(aide: Harness) -> None:
    h, db = aide, aide.database_url
    await set_up_battle(h, h.channel("hundred-years"))
    await h.slash(h.gm, "battle start", channel=h.channel("hundred-years"))

    accepted = [
        (h.alice, "order place", {"unit": "Red Horse", "x": 30, "y": 8}),
        (h.alice, "order place", {"unit": "Red Horse", "x": 31, "y": 8}),  # a change
        (h.alice, "order give", {"kind": "place", "unit": "Red Archers", "x": 20, "y": 6}),
        (h.alice, "order withdraw", {"unit": "Red Horse"}),
        (h.bob, "standing set", {"topic": "charge_response", "choice": "evade"}),
        (h.bob, "standing clear", {}),
        (h.alice, "army import", {"file": h.upload("second.json", json.dumps(OTHER_ARMY))}),
    ]
    for user, command, options in accepted:
        answer, wrote = await first_response_before_work(h, db, user, command, **options)
        assert answer.type == 5, (command, answer)  # deferred, then answered
        assert wrote, f"/{command} should have been accepted: {answer}"
        assert answer.ephemeral == (command != "army import"), answer

    refused = [
        (h.bob, "order place", {"unit": "Red Horse", "x": 30, "y": 8}),  # not his
        (h.alice, "order place", {"unit": "Red Horse", "x": 30, "y": 30}),  # outside the zone
        (h.alice, "order withdraw", {"unit": "Red Spearmen"}),  # no order to withdraw
        (h.alice, "army import", {"file": h.upload("red.json", json.dumps(RED))}),  # in battle
    ]
    for user, command, options in refused:
        answer, wrote = await first_response_before_work(h, db, user, command, **options)
        assert not wrote and answer.ephemeral, (command, answer)
        assert not answer.content.startswith("✅"), answer
        assert len([m for m in answer.messages if not m.deleted]) == 1, answer


async def test_deployment_is_deferred_before_it_is_stored(aide: Harness) -> None:
    h, db = aide, aide.database_url
    await battle_not_deployed(h, h.channel("hundred-years"))
    placed, wrote = await first_response_before_work(
        h, db, h.alice, "battle deploy", unit="Red Horse", at="32,10"
    )
    assert placed.type == 5 and wrote and placed.ephemeral, placed
    plan = [{"unit": "Blue Riders", "at": [32, 26], "facing": 180}]
    upload = h.upload("deploy.json", json.dumps(plan))
    filed, wrote = await first_response_before_work(h, db, h.bob, "battle deploy-file", file=upload)
    assert filed.type == 5 and wrote and filed.ephemeral, filed
    outside = h.upload("deploy.json", json.dumps([{"unit": "Blue Warriors", "at": [16, 2]}]))
    refused, wrote = await first_response_before_work(
        h, db, h.bob, "battle deploy-file", file=outside
    )
    assert not wrote and refused.ephemeral and not refused.content.startswith("Deployed"), refused
