"""The war table's plan for the turn: an "else" to a planned order, alternatives reordered,
``ask_me`` toggled, standing instructions listed, set, cleared and the recommended set adopted;
each answered in the slash command's words, refused with nothing written, seen at once by the
services ``/orders mine`` and ``/standing list`` read."""

from __future__ import annotations

from typing import Any

import pytest

from bot.presentation.orders import alternative_text
from bot.presentation.standing import (
    accepted_text,
    standing_cleared_text,
    standing_list_text,
    standing_set_text,
)
from bot.services.intake import Wanted
from bot.services.order_params import OrderInput
from bot.services.plan_edits import PlanEdit
from bot.web.actions import SPECTATOR
from bot.web.server import HUB
from tests.conftest import GM
from tests.web.actions import Member, Mover, member, to_movement
from tests.web.table import DAVE, PLACE, Table


async def later_step(table: Table, mover: Mover) -> str:
    """The next turn's Movement step, as the ``step:`` autocomplete offers it."""
    steps = await table.services.lookups.turn_steps(PLACE, mover.user_id)
    return next(key for key, words in steps if words.startswith("Next turn: Movement"))


async def planned(table: Table, mover: Mover) -> tuple[Member, str]:
    """The mover's page, with a move planned for next turn's Movement (else: hold)."""
    player, step = await member(table, mover.user_id), await later_step(table, mover)
    status, _ = await player.post("order", {**mover.move(), "step": step})
    assert status == 200
    status, _ = await player.post("else", {"step": step, "unit": mover.unit, "kind": "hold"})
    assert status == 200
    return player, step


def beside(mover: Mover) -> list[float]:
    """A point beside the mover's move within reach: another move it may make."""
    return [mover.near[0] + 1, mover.near[1]]


def alternatives(views: list[Any]) -> list[tuple[str, ...]]:
    """The planned orders' alternatives, as ``/orders mine`` lists them."""
    return [v.alternatives for v in views if v.step]


async def test_an_else_on_the_page_is_order_alternatives_and_in_orders_mine(table: Table) -> None:
    mover = await to_movement(table)
    player, step = await planned(table, mover)
    nearer = {"step": step, "unit": mover.unit, "kind": "move", "params": {"to": beside(mover)}}
    hub = table.client.server.app[HUB]
    reader = await table.services.web_links.reader(player.token, table.campaign_id)
    assert reader.battle_id is not None
    with hub.subscribe(reader.battle_id) as news:
        status, answer = await player.post("else", nearer)
        assert news.news.qsize() == 1
    mine = await table.services.play.mine(PLACE, mover.user_id)
    assert status == 200 and len(alternatives(mine)[0]) == 2
    # the same words /order alternative answers with, for the same plan made through Discord
    await table.services.play.withdraw(PLACE, mover.user_id, mover.unit, None, step)
    await table.services.play.submit(
        PLACE, mover.user_id, "move", mover.unit, OrderInput(x=mover.near[0], y=mover.near[1]), step
    )
    add = table.services.alternatives.add
    await add(PLACE, mover.user_id, step, Wanted("hold", mover.unit, OrderInput()))
    view = await add(
        PLACE,
        mover.user_id,
        step,
        Wanted("move", mover.unit, OrderInput(x=beside(mover)[0], y=beside(mover)[1])),
    )
    assert answer["text"] == alternative_text(view)


async def test_alternatives_move_up_and_down_and_the_ends_are_refused(table: Table) -> None:
    mover = await to_movement(table)
    player, step = await planned(table, mover)
    nearer = {"step": step, "unit": mover.unit, "kind": "move", "params": {"to": beside(mover)}}
    assert (await player.post("else", nearer))[0] == 200
    before = alternatives(await table.services.play.mine(PLACE, mover.user_id))[0]
    status, answer = await player.post(
        "alternative/move", {"step": step, "unit": mover.unit, "alternative": 2, "up": True}
    )
    after = alternatives(await table.services.play.mine(PLACE, mover.user_id))[0]
    assert status == 200 and after == (before[1], before[0])
    assert "If it cannot be carried out then, tried in turn:\n1. " in answer["text"]
    for which, up in ((1, True), (2, False), (3, True)):
        body = {"step": step, "unit": mover.unit, "alternative": which, "up": up}
        status, refused = await player.post("alternative/move", body)
        assert status == 422 and refused["error"]
        assert alternatives(await table.services.play.mine(PLACE, mover.user_id))[0] == after


async def test_ask_me_is_set_and_unset_as_order_ask_me_says(table: Table) -> None:
    mover = await to_movement(table)
    player, step = await planned(table, mover)
    status, answer = await player.post("ask_me", {"step": step, "unit": mover.unit, "on": True})
    assert status == 200 and "none can be carried out, you will be asked" in answer["text"]
    assert [v.consult for v in await table.services.play.mine(PLACE, mover.user_id)] == [True]
    status, answer = await player.post("ask_me", {"step": step, "unit": mover.unit, "on": False})
    assert status == 200 and "the default is used" in answer["text"]
    assert [v.consult for v in await table.services.play.mine(PLACE, mover.user_id)] == [False]
    status, refused = await player.post("ask_me", {"step": step, "unit": mover.unit, "on": "yes"})
    assert status == 422 and "`on` is true" in refused["error"]


OTHERS = {
    "other side": (422, "is not a step of this turn or the next your side acts in"),
    "gm": (403, "You have no side in this battle."),
    "observer": (403, "You have no side in this battle."),
    "spectator": (403, SPECTATOR),
}


@pytest.mark.parametrize("role", OTHERS)
async def test_nobody_else_edits_a_players_plan(table: Table, role: str) -> None:
    mover = await to_movement(table)
    _, step = await planned(table, mover)
    users = {"other side": mover.other, "gm": GM, "observer": DAVE, "spectator": GM}
    other = await member(table, users[role], spectator=role == "spectator")
    before = await table.services.play.mine(PLACE, mover.user_id)
    writes = {
        "else": {"step": step, "unit": mover.unit, "kind": "move", "params": {"to": beside(mover)}},
        "ask_me": {"step": step, "unit": mover.unit, "on": True},
        "alternative/move": {"step": step, "unit": mover.unit, "alternative": 1, "up": False},
    }
    for endpoint, body in writes.items():
        status, refused = await other.post(endpoint, body)
        assert status in (403, 404, 409, 422), (endpoint, status, refused)
        if endpoint != "alternative/move":
            assert refused["error"]
    status, refused = await other.post("ask_me", writes["ask_me"])
    expected = OTHERS[role]
    assert status == expected[0] and expected[1] in refused["error"]
    assert await table.services.play.mine(PLACE, mover.user_id) == before


async def test_a_plan_write_without_the_pages_token_writes_nothing(table: Table) -> None:
    mover = await to_movement(table)
    player, step = await planned(table, mover)
    before = await table.services.play.mine(PLACE, mover.user_id)
    body = {"step": step, "unit": mover.unit, "on": True}
    status, refused = await player.post("ask_me", body, csrf="forged")
    assert status == 403 and "security token" in refused["error"]
    status, refused = await player.post("standing/recommended", {}, csrf="")
    assert status == 403
    assert await table.services.play.mine(PLACE, mover.user_id) == before
    assert await table.services.standing.shown(PLACE, mover.user_id) == []


async def test_standing_instructions_listed_set_cleared_as_standing_says(table: Table) -> None:
    mover = await to_movement(table)
    player = await member(table, mover.user_id)
    status, shown = await player.get("standing")
    assert status == 200 and shown["instructions"] == [] and shown["recommended"] is True
    assert shown["text"] == standing_list_text([])
    topics = {t["id"]: t for t in shown["topics"]}
    offered = await table.services.standing.topics(PLACE)
    assert [(t["id"], t["title"]) for t in shown["topics"]] == offered
    choices = await table.services.standing.choices(PLACE, "charge_response")
    assert [tuple(c) for c in topics["charge_response"]["choices"]] == choices  # autocomplete's
    body = {"topic": "charge_response", "choice": "evade"}
    status, answer = await player.post("standing/set", body)
    views = await table.services.standing.shown(PLACE, mover.user_id)
    assert status == 200 and answer["text"] == standing_set_text(views[0])
    status, shown = await player.get("standing")
    assert shown["text"] == standing_list_text(views) and len(shown["instructions"]) == 1
    status, refused = await player.post("standing/set", {"topic": "nonsense", "choice": "x"})
    assert status == 422 and "nonsense" in refused["error"]
    assert await table.services.standing.shown(PLACE, mover.user_id) == views
    status, answer = await player.post("standing/clear", {"topic": "charge_response"})
    assert status == 200 and answer["text"] == standing_cleared_text(views)
    assert await table.services.standing.shown(PLACE, mover.user_id) == []


async def test_the_recommended_set_is_adopted_on_the_page(table: Table) -> None:
    mover = await to_movement(table)
    player = await member(table, mover.user_id)
    status, answer = await player.post("standing/recommended", {})
    views = await table.services.standing.shown(PLACE, mover.user_id)
    assert status == 200 and views and answer["text"] == accepted_text(views)
    observer = await member(table, DAVE)
    status, refused = await observer.post("standing/recommended", {})
    assert status == 403 and refused["error"]
    spectator = await member(table, GM, spectator=True)
    status, refused = await spectator.get("standing")
    assert (status, refused["error"]) == (403, SPECTATOR)


async def test_a_change_made_through_discord_is_news_for_open_pages(table: Table) -> None:
    mover = await to_movement(table)
    player, step = await planned(table, mover)
    reader = await table.services.web_links.reader(player.token, table.campaign_id)
    assert reader.battle_id is not None
    news = table.services.news
    before = await news.marks([reader.battle_id])
    await table.services.plan_edits.change(PLACE, mover.user_id, step, mover.unit, PlanEdit(True))
    assert await news.marks([reader.battle_id]) != before  # the hub polls these marks
    assert [v.consult for v in await table.services.play.mine(PLACE, mover.user_id)] == [True]
