"""The page that writes: its CSRF token, its order panel and what its Withdraw buttons send."""

from __future__ import annotations

from bot.services import Services
from bot.services.campaigns import Place
from bot.web import pages
from bot.web.actions import csrf_for
from tests.conftest import ALICE, BOB, GM
from tests.web.table import Table
from tests.web.tables import ORDER, ordered_battle, reader
from tests.web.test_page import parsed


async def test_a_member_page_carries_the_token_its_writes_send(
    services: Services, place: Place
) -> None:
    await ordered_battle(services, place)
    page = await pages.table_page(services, reader(place, ALICE), csrf="c5rf<&>")
    assert '<meta name="csrf-token" content="c5rf&lt;&amp;&gt;">' in page
    found = parsed(page)
    assert {"order-panel", "order-form", "verdict", "order-submit", "done-turn"} <= found.ids
    assert found.inline == []


async def test_a_page_without_a_token_writes_nothing(services: Services, place: Place) -> None:
    await ordered_battle(services, place)
    page = await pages.table_page(services, reader(place, None))
    assert 'name="csrf-token"' not in page
    assert "order-panel" not in parsed(page).ids


async def test_each_planned_order_says_what_withdrawing_it_sends(
    services: Services, place: Place
) -> None:
    await ordered_battle(services, place)
    state = await pages.table_state(services, reader(place, ALICE))
    (block,) = state["panels"]["plans"]
    archers = next(card["id"] for card in state["units"] if card["name"] == "Red Archers")
    said = f"Red Archers (place): {ORDER}"
    assert block["orders"] == [{"unit": archers, "step": "", "number": 1, "said": said}]


async def page_of(table: Table, token: str) -> str:
    """The table's page as this link's holder gets it."""
    cid = table.campaign_id
    answer = await table.client.get(f"/c/{cid}/", headers={"Cookie": f"adc_{cid}={token}"})
    assert answer.status == 200
    return await answer.text()


async def test_the_served_page_carries_its_links_token_and_a_spectators_none(
    table: Table,
) -> None:
    member = await table.token(ALICE)
    csrf = await csrf_for(table.services, member)
    assert f'<meta name="csrf-token" content="{csrf}">' in await page_of(table, member)
    other = await table.token(BOB)
    assert csrf not in await page_of(table, other)  # bound to the link, not the campaign
    watching = await page_of(table, await table.token(GM, spectator=True))
    assert 'name="csrf-token"' not in watching and 'id="order-panel"' not in watching


async def test_the_page_offers_orders_for_the_readers_own_sides_only(
    services: Services, place: Place
) -> None:
    await ordered_battle(services, place)
    red = (await services.battles.view(Place(place.guild_id, place.channel_id, ALICE))).seat
    assert red is not None
    offered = {
        who: (await pages.table_state(services, reader(place, who)))["battle"]["orders"]
        for who in (ALICE, GM, None)
    }
    assert offered[ALICE] == {"gm": False, "sides": list(red.sides)} and red.sides
    assert offered[GM]["gm"] is True
    assert offered[None] == {"gm": False, "sides": []}
