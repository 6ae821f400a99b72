"""The war table's write API: order forms, judgements, orders, withdrawals, done; the page's
anti-forgery token, JSON only, rates per member, and who may write."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from bot.db.models import BattleOrder, PlannedOrder
from bot.web.actions import CSRF_HEADER
from tests.web.actions import member, to_movement
from tests.web.table import PLACE, Table


async def orders_kept(table: Table) -> int:
    """Every order and planned order row in the database."""
    async with table.services.play.db.read() as session:
        found = 0
        for model in (BattleOrder, PlannedOrder):
            found += await session.scalar(select(func.count()).select_from(model)) or 0
        return found


async def test_choices_are_the_step_autocomplete_with_typed_parameters(table: Table) -> None:
    mover = await to_movement(table)
    player = await member(table, mover.user_id)
    status, found = await player.get("choices", unit=mover.unit)
    assert status == 200
    assert found["actor"]["name"] == mover.unit and found["actor"]["kind"] == "unit"
    steps = await table.services.lookups.turn_steps(PLACE, mover.user_id)
    assert [(s["key"], s["words"]) for s in found["steps"]] == steps
    first = found["steps"][0]
    assert first["open"] is True and not any(s["open"] for s in found["steps"][1:])
    move = next(k for k in first["kinds"] if k["id"] == "move")
    assert move["params"] == [{"name": "to", "type": "point", "required": True, "choices": []}]


async def test_choices_of_an_enemy_unit_are_refused_with_the_services_words(table: Table) -> None:
    mover = await to_movement(table)
    status, found = await (await member(table, mover.other)).get("choices", unit=mover.unit)
    assert status == 404 and f"of yours called **{mover.unit}**" in found["error"]


async def test_a_judgement_answers_as_order_give_and_keeps_nothing(table: Table) -> None:
    mover = await to_movement(table)
    player = await member(table, mover.user_id)
    before = await orders_kept(table)
    status, found = await player.post("judge", mover.move())
    assert status == 200 and found["ok"] is True
    assert found["text"].startswith(f"✅ **{mover.unit}**: ")
    status, far = await player.post("judge", mover.move(mover.far))
    assert status == 200 and far["ok"] is False
    assert f"**{mover.unit}** cannot move" in far["text"]
    assert "➡️ Try a shorter move: it has at most" in far["text"] and far["left"] > 0
    assert await orders_kept(table) == before
    assert await table.services.play.mine(PLACE, mover.user_id) == []


@pytest.mark.parametrize("csrf", ["", "0" * 64, "another session's"])
async def test_a_write_without_the_pages_token_is_forbidden(table: Table, csrf: str) -> None:
    mover = await to_movement(table)
    player = await member(table, mover.user_id)
    if csrf == "another session's":
        csrf = (await member(table, mover.other)).csrf
    for endpoint, body in (("order", mover.move()), ("judge", mover.move()), ("done", {})):
        status, found = await player.post(endpoint, body, csrf=csrf)
        assert status == 403 and "security token" in found["error"], endpoint
    assert await orders_kept(table) == 0
    assert await table.services.play.mine(PLACE, mover.user_id) == []


async def test_writes_are_json_from_the_page_only(table: Table) -> None:
    mover = await to_movement(table)
    player = await member(table, mover.user_id)
    url = f"/c/{table.campaign_id}/api/order"
    headers = {"Cookie": player.cookie, CSRF_HEADER: player.csrf}
    response = await table.client.post(url, data="kind=move", headers=headers)
    assert response.status == 415 and "JSON" in (await response.json())["error"]
    status, found = await player.post("order", mover.move(), Origin="https://evil.example")
    assert status == 403 and "security token" in found["error"]
    assert await orders_kept(table) == 0
