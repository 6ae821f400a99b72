"""The war table's page, map and data for each reader, from a real battle on a SQLite file."""

from __future__ import annotations

import json
from html.parser import HTMLParser

from sqlalchemy import select

from bot.db.models import Battle
from bot.db.session import Database
from bot.services import Services
from bot.services.battle_state import rules_of
from bot.services.campaigns import Place
from bot.web import pages
from rules_core.big_battles import big_battle
from rules_core.state import BattleState
from tests.bot.battle_setup import DEPLOYMENT, deployed_battle
from tests.conftest import ALICE, BOB, GM
from tests.web.tables import ORDER, ordered_battle, reader

SECTIONS = ("sides", "steps", "log", "plans", "standing", "questions", "card")


class Parsed(HTMLParser):
    """Every element's id, every inline script or style, and every unit group."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.inline: list[str] = []
        self.units: list[str] = []
        self._script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if "style" in found or tag == "style":
            self.inline.append(tag)
        if tag == "script" and "src" not in found and found.get("type") != "application/json":
            self.inline.append("script")
        if tag == "g" and found.get("class") == "unit":
            self.units.append(str(found["data-owner"]))


def parsed(html: str) -> Parsed:
    """The page parsed."""
    parser = Parsed()
    parser.feed(html)
    parser.close()
    return parser


async def test_the_page_has_every_section_and_draws_every_unit(
    services: Services, place: Place
) -> None:
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    page = await pages.table_page(services, reader(place, ALICE))
    found = parsed(page)
    assert set(SECTIONS) | {"map", "board", "replay", "play", "live-now", "data"} <= found.ids
    assert len(found.units) == len(DEPLOYMENT)
    assert found.inline == []
    assert '<script type="module" src="/static/table.js"></script>' in page
    assert '<meta name="viewport"' in page and '<html lang="en">' in page
    assert "<title>Ford — war table</title>" in page


async def test_a_units_card_says_its_profile_status_and_your_orders(
    services: Services, place: Place
) -> None:
    await ordered_battle(services, place)
    state = await pages.table_state(services, reader(place, ALICE))
    cards = {card["name"]: card for card in state["units"]}
    assert set(cards) == set(DEPLOYMENT)
    archers = cards["Red Archers"]
    assert archers["side_name"] == "Red" and archers["profile"]
    assert archers["orders"] == [ORDER]
    assert cards["Red Horse"]["orders"] == []
    plans = state["panels"]["plans"]
    assert plans and f"Red Archers (place): {ORDER}" in plans[0]["lines"]
    steps = state["panels"]["steps"]
    assert next(s for s in steps if s.get("current"))["lines"] == [f"Waiting for @{ALICE}, @{BOB}"]


async def test_the_version_changes_when_the_battle_does(services: Services, place: Place) -> None:
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    before = (await pages.table_state(services, reader(place, BOB)))["version"]
    assert (await pages.table_state(services, reader(place, BOB)))["version"] == before
    await services.play.confirm(place, ALICE)
    await services.play.confirm(place, BOB)
    after = await pages.table_state(services, reader(place, BOB))
    assert after["version"] != before
    assert after["replay"]["frames"] == 2 and after["panels"]["log"]
    index = await pages.replay_index(services, reader(place, BOB))
    assert [f["number"] for f in index["frames"]] == [0, 1]
    frame = await pages.replay_frame(services, reader(place, BOB), 1)
    assert len(parsed(frame).units) == len(DEPLOYMENT)


async def test_a_campaign_without_a_battle_gets_a_friendly_page(
    services: Services, place: Place
) -> None:
    await services.campaigns.create(place, GM, "Border Raids", "skirmish")
    page = await pages.table_page(services, reader(place, GM))
    assert "No battle yet" in page and "/battle create" in page
    assert parsed(page).inline == []


async def test_the_120_unit_page_stays_under_400_kb(
    services: Services, db: Database, place: Place
) -> None:
    await deployed_battle(services, place)
    async with db.write() as session:  # the battle copied side by side to 120 units
        battle = (await session.scalars(select(Battle))).one()
        state = BattleState.from_dict(battle.state)
        battle.state = big_battle(rules_of("skirmish"), 120, state).to_dict()
    page = await pages.table_page(services, reader(place, GM))
    assert len(parsed(page).units) >= 120
    assert len(page.encode()) < 400_000
    data = json.loads(page.split('id="data">')[1].split("</script>")[0])
    assert len(data["units"]) == len(parsed(page).units)
