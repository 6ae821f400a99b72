"""The war table's write API: order forms, judgements, orders, withdrawals, done; the page's
anti-forgery token, JSON only, rates per member, and who may write."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from bot.db.models import BattleOrder, PlannedOrder, TurnPlan
from bot.presentation.orders import RESOLVING
from bot.services.intake import GM_WITHOUT_SIDE
from bot.services.stages import StageReport
from bot.web.actions import CSRF_HEADER, SPECTATOR
from bot.web.server import API, HUB
from tests.conftest import ALICE, GM
from tests.web.actions import MOVERS, member, to_movement
from tests.web.table import CAROL, DAVE, PLACE, Table


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


async def test_a_parameter_the_order_does_not_have_is_refused_by_name(table: Table) -> None:
    mover = await to_movement(table)
    player = await member(table, mover.user_id)
    before = await orders_kept(table)
    body = mover.move()
    body["params"]["tpye"] = "charge"
    for endpoint in ("judge", "order"):
        status, found = await player.post(endpoint, body)
        assert status == 422, (endpoint, found)
        assert "has no parameter `tpye`; it takes `to`" in found["error"], found
    assert await orders_kept(table) == before


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


async def test_an_order_given_on_the_page_is_in_orders_mine_at_once_and_published(
    table: Table,
) -> None:
    mover = await to_movement(table)
    player = await member(table, mover.user_id)
    hub = table.client.server.app[HUB]
    battle_id = (await table.services.web_links.reader(player.token, table.campaign_id)).battle_id
    assert battle_id is not None
    with hub.subscribe(battle_id) as news:
        status, far = await player.post("order", mover.move(mover.far))
        assert status == 422 and far["ok"] is False and "Try a shorter move" in far["text"]
        assert news.news.empty()  # a refused order changes nothing
        status, given = await player.post("order", mover.move())
        assert status == 200 and given["ok"] is True
        assert news.news.qsize() == 1
    mine = await table.services.play.mine(PLACE, mover.user_id)
    assert [(v.unit_name, v.kind) for v in mine] == [(mover.unit, "move")]
    assert (
        given["text"] == f"✅ **{mover.unit}**: {mine[0].summary}\n(secret until the step resolves)"
    )
    assert await table.services.play.mine(PLACE, mover.other) == []


async def test_an_order_planned_for_a_later_step_and_withdrawn(table: Table) -> None:
    mover = await to_movement(table)
    player = await member(table, mover.user_id)
    steps = await table.services.lookups.turn_steps(PLACE, mover.user_id)
    later = next(key for key, words in steps if words.startswith("Next turn: Movement"))
    status, planned = await player.post("order", {**mover.move(), "step": later, "ask_me": True})
    assert status == 200 and planned["text"].startswith("🗓️ Planned for **Next turn: Movement")
    assert "you will be asked" in planned["text"]
    assert [v.consult for v in await table.services.play.mine(PLACE, mover.user_id)] == [True]
    status, gone = await player.post("withdraw", {"unit": mover.unit, "step": later})
    assert status == 200 and gone["text"].startswith(f"Withdrawn: **{mover.unit}**'s move order")
    assert await table.services.play.mine(PLACE, mover.user_id) == []
    status, nothing = await player.post("withdraw", {"unit": mover.unit})
    assert status == 404 and nothing["error"] == f"**{mover.unit}** has no order to withdraw."


async def test_done_for_the_turn_with_nothing_planned_asks_first(table: Table) -> None:
    mover = await to_movement(table)
    player = await member(table, mover.user_id)
    status, asked = await player.post("done", {"turn": True})
    assert (
        status == 200 and "You have planned nothing for the rest of this turn" in asked["confirm"]
    )
    assert await turn_plans_done(table) == 0  # asking changed nothing
    status, done = await player.post("done", {"turn": True, "confirmed": True})
    assert status == 200 and done["ok"] is True and done["text"].startswith("Done for the turn")
    assert await turn_plans_done(table) == 1


async def turn_plans_done(table: Table) -> int:
    """Turn plans marked done (``/order done turn:true``)."""
    async with table.services.play.db.read() as session:
        query = select(func.count()).select_from(TurnPlan).where(TurnPlan.done_at.is_not(None))
        return await session.scalar(query) or 0


async def test_a_flood_of_judgements_is_slowed_without_delaying_another_member(
    table: Table,
) -> None:
    mover = await to_movement(table)
    flooder, other = await member(table, mover.user_id), await member(table, mover.other)
    table.client.server.app[API].judgements.clock = lambda: 0.0  # no refill while flooding
    statuses = [(await flooder.post("judge", mover.move()))[0] for _ in range(60)]
    assert statuses == [200] * 40 + [429] * 20
    status, slow = await flooder.post("judge", mover.move())
    assert status == 429 and slow["error"].startswith("Slow down")
    status, found = await other.get("choices", unit=MOVERS[mover.other].unit)
    assert status == 200 and found["actor"]["name"] == MOVERS[mover.other].unit
    status, found = await other.post("judge", MOVERS[mover.other].move())
    assert status == 409 and "It is not your turn to give orders" in found["error"]


WRITERS = {
    "other side": (409, "It is not your turn to give orders: the Movement step waits for others."),
    "gm": (409, GM_WITHOUT_SIDE),
    "observer": (403, "You have no side in this battle."),
    "spectator": (403, SPECTATOR),
    "removed": (403, "You are no longer a member of"),
}


@pytest.mark.parametrize("role", ["player", "second player", *WRITERS])
async def test_who_may_give_an_order_on_the_page(table: Table, role: str) -> None:
    mover = await to_movement(table)
    second = CAROL if mover.user_id == ALICE else None  # Carol plays Red beside Alice
    users = {"player": mover.user_id, "other side": mover.other, "gm": GM, "observer": DAVE}
    users |= {"removed": mover.user_id, "second player": second or CAROL}
    writer = await member(table, users.get(role, GM), spectator=role == "spectator")
    if role == "removed":
        await table.services.campaigns.remove_member(PLACE, GM, mover.user_id)
    status, found = await writer.post("order", mover.move())
    if role == "player" or (role == "second player" and second):
        assert status == 200 and found["ok"] is True
        assert len(await table.services.play.mine(PLACE, users[role])) == 1
        return
    expected = WRITERS.get(role, WRITERS["other side"])  # a Red player when Blue moves
    assert (status, found["error"][: len(expected[1])]) == expected
    assert await orders_kept(table) == 0


async def test_a_gm_sees_any_units_forms_an_observer_none(table: Table) -> None:
    mover = await to_movement(table)
    status, found = await (await member(table, GM)).get("choices", unit=mover.unit)
    assert status == 200 and found["actor"]["name"] == mover.unit
    status, found = await (await member(table, DAVE)).get("choices", unit=mover.unit)
    assert (status, found["error"]) == (403, "You have no side in this battle.")
    status, found = await (await member(table, GM, spectator=True)).get("choices", unit="x")
    assert (status, found["error"]) == (403, SPECTATOR)


async def test_the_last_done_resolves_the_step_and_posts_it(table: Table) -> None:
    mover = await to_movement(table)
    posted: list[int] = []

    async def post(report: StageReport) -> None:
        posted.append(report.battle.id)

    table.client.server.app[API].reports = post
    player = await member(table, mover.user_id)
    assert (await player.post("order", mover.move()))[0] == 200
    status, done = await player.post("done", {})
    assert status == 200 and done == {"ok": True, "text": RESOLVING}
    assert len(posted) == 1
    assert await table.services.play.mine(PLACE, mover.user_id) == []  # the step is over
