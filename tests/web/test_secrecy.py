"""Secrets on the war table exactly as in Discord: the page, the map, state.json and the replay
frames sent to one side never hold the other side's hidden state, cards or planned orders; the
rightful reader (and the GM) does see them, so each absence is a real one. A spectator reads
the public view, never the bot's (a place without a user sees everything)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from sqlalchemy import select

from bot.db.models import Battle
from bot.db.session import Database
from bot.services import Services
from bot.services.campaigns import Place
from bot.web import pages
from rules_core.plugin import Rules
from tests.conftest import ALICE, BOB, GM, OUTSIDER
from tests.e2e.test_hands_matrix import secrets_of
from tests.web.tables import ORDER, ordered_battle, reader

OBSERVER = 31
RED_SECRET = "cards swapped away"  # Parley's hidden count, as its status sheet words it
RED_ANSWER = "Red chose keep"  # Red's answer to its private question, in the log
ARMIES = ({"name": "Red Court", "units": [{"name": "Red Herald"}]},
          {"name": "Blue Court", "units": [{"name": "Blue Herald"}]})  # fmt: skip


async def everything(services: Services, place: Place, user_id: int | None) -> str:
    """Every byte the war table sends this reader: page, map, state and each replay frame."""
    who = reader(place, user_id)
    sent = [
        await pages.table_page(services, who),
        await pages.map_svg(services, who),
        json.dumps(await pages.table_state(services, who), ensure_ascii=False),
    ]
    index = await pages.replay_index(services, who)
    sent += [await pages.replay_frame(services, who, f["number"]) for f in index["frames"]]
    return "\n".join(sent)


@pytest.fixture
def parley_rules(parley: Rules) -> Iterator[Rules]:
    """The Parley test ruleset (private hands, a hidden count per side)."""
    yield parley


async def parley_battle(services: Services, db: Database, place: Place) -> None:
    """A Parley battle past its deal (each side holds a private hand), Red holding a secret."""
    await services.campaigns.create(place, GM, "Parleys", "parley")
    await services.campaigns.join(place, ALICE, "Red")
    await services.campaigns.join(place, BOB, "Blue")
    await services.campaigns.join(place, OBSERVER, None)  # no side: an observer
    for user, army in zip((ALICE, BOB), ARMIES, strict=True):
        await services.armies.import_roster(place, user, json.dumps(army).encode(), "a.json")
    await services.battles.create(place, GM, "The Parley", ["Red Court", "Blue Court"])
    await services.battles.deploy(place, ALICE, "Red Herald", "10,4", None)
    await services.battles.deploy(place, BOB, "Blue Herald", "10,30", None)
    await services.play.start(place, GM)
    for user in (ALICE, BOB):  # a trick played: private questions, private draws
        await services.play.confirm(place, user)
    for user in (ALICE, BOB):
        await services.play.answer_here(place, user, "keep", "", None)
    async with db.write() as session:  # Red's hidden count, as a swap would leave it
        battle = (await session.scalars(select(Battle))).one()
        state = dict(battle.state)
        state["hidden"] = {**state.get("hidden", {}), "a": {"swaps": 3}}
        battle.state = state


async def test_parley_hands_and_hidden_state_stay_with_their_side(
    services: Services, db: Database, place: Place, parley_rules: Rules
) -> None:
    await parley_battle(services, db, place)
    hand = await services.hands.hand(Place(place.guild_id, place.channel_id, ALICE))
    red_cards = secrets_of(c for deck in hand.decks for h in deck.holdings[:1] for c in h.hand)
    assert red_cards  # Red's own hand, as /battle hand shows it to Alice
    for rightful in (ALICE, GM):
        sent = await everything(services, place, rightful)
        assert RED_SECRET in sent and RED_ANSWER in sent
        assert any(card in sent for card in red_cards)  # the card Red drew, in the log
    for other in (BOB, OBSERVER, OUTSIDER, None):
        sent = await everything(services, place, other)
        assert RED_SECRET not in sent, other
        assert RED_ANSWER not in sent, other
        assert not [card for card in red_cards if card in sent], other


async def test_a_sides_planned_orders_reach_only_its_own_page(
    services: Services, place: Place
) -> None:
    await ordered_battle(services, place)
    assert ORDER in await everything(services, place, ALICE)
    for other in (BOB, GM, OUTSIDER, None):
        assert ORDER not in await everything(services, place, other), other
