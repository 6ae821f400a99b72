"""The GM's table over HTTP: ``api/gm/orders`` is ``/orders all`` as a GM reads it and
``api/gm/move`` is ``/gm move``; anyone but a GM is refused in the GM commands' words, a move
without its reason in its own, and nothing is written when refused."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.presentation.gm import change_text
from bot.presentation.orders import order_book_text
from bot.services.battle_state import load_battle
from bot.services.campaigns import gm_only
from bot.services.gm import REASON_NEEDED, Placement
from bot.web.actions import SPECTATOR
from rules_core.state import BattleState
from tests.conftest import ALICE, BOB, GM
from tests.web.actions import member, to_movement
from tests.web.table import CAROL, DAVE, PLACE, Table

UNIT = "Red Spearmen"


async def stored(table: Table) -> BattleState:
    """The battle as stored."""
    async with table.services.play.db.read() as session:
        return (await load_battle(session, PLACE)).state


def where(state: BattleState) -> tuple[float, float, float]:
    """Where the Red Spearmen stand and face."""
    unit = next(u for u in state.units if u.name == UNIT)
    return unit.x, unit.y, unit.facing


async def test_the_gm_reads_every_sides_orders_as_orders_all_shows_them(table: Table) -> None:
    mover = await to_movement(table)
    player = await member(table, mover.user_id)
    assert (await player.post("order", mover.move()))[0] == 200
    status, found = await (await member(table, GM)).get("gm/orders")
    assert status == 200, found
    book = await table.services.order_book.book(PLACE, GM)
    assert found["lines"] == order_book_text(book).splitlines()
    assert any(mover.unit in line for line in found["lines"])


ROLES = {"red": ALICE, "blue": BOB, "red too": CAROL, "observer": DAVE}


@pytest.mark.parametrize("role", [*ROLES, "spectator"])
async def test_no_one_but_the_gm_gets_the_order_book_or_moves(table: Table, role: str) -> None:
    mover = await to_movement(table)
    assert (await (await member(table, mover.user_id)).post("order", mover.move()))[0] == 200
    writer = await member(table, ROLES.get(role, GM), spectator=role == "spectator")
    words = SPECTATOR if role == "spectator" else gm_only("Border Raids")
    status, found = await writer.get("gm/orders")
    assert (status, found) == (403, {"error": words})
    before = await stored(table)
    body = {"unit": UNIT, "to": [20, 20], "reason": "it was misplaced"}
    assert (await writer.post("gm/move", body)) == (403, {"error": words})
    assert (await writer.post("gm/move", {"unit": UNIT})) == (403, {"error": words})
    assert await stored(table) == before


async def test_the_gm_moves_a_unit_with_its_reason_as_gm_move_does(table: Table) -> None:
    gm = await member(table, GM)
    x, y, facing = where(await stored(table))
    body = {"unit": UNIT, "to": [20, 10], "facing": 90, "reason": "it was misplaced"}
    status, found = await gm.post("gm/move", body)
    assert status == 200, found
    assert where(await stored(table)) == (20, 10, 90)
    # The same words /gm move posts (the service's change, worded by the same function).
    change = await table.services.gm.move(PLACE, GM, UNIT, "20,10", 90, "it was misplaced")
    assert found["text"] == change_text(replace(change, before=Placement(x, y, facing)))
    assert "it was misplaced" in found["text"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"unit": UNIT, "to": [20, 10]}, REASON_NEEDED),
        ({"unit": UNIT, "to": [20, 10], "reason": "  "}, REASON_NEEDED),
        ({"unit": UNIT, "to": "20,10", "reason": "why"}, "`to` is where the unit goes"),
        ({"unit": UNIT, "to": [20, 10], "facing": 400, "reason": "why"}, "`facing` is"),
        ({"unit": UNIT, "to": [999, 10], "reason": "why"}, "(999, 10) is off the table."),
        ({"unit": "Nobody", "to": [20, 10], "reason": "why"}, "Nobody"),
    ],
)
async def test_a_bad_move_is_refused_saying_why_and_moves_nothing(
    table: Table, body: dict[str, object], words: str
) -> None:
    before = await stored(table)
    status, found = await (await member(table, GM)).post("gm/move", body)
    assert status in (404, 422) and words in found["error"], found
    assert await stored(table) == before


async def test_a_move_without_the_pages_token_is_forbidden(table: Table) -> None:
    before = await stored(table)
    body = {"unit": UNIT, "to": [20, 10], "reason": "why"}
    status, found = await (await member(table, GM)).post("gm/move", body, csrf="")
    assert status == 403 and "security token" in found["error"]
    assert await stored(table) == before
