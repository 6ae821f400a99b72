"""Planning by pointing, in a real browser: headless Chromium on the page the real bot serves
while it plays a skirmish battle through the fake Discord.

The player whose turn it is clicks one of their units, takes its move, clicks a point past its
reach (the page shows the rules' refusal and its way forward), then one within reach (legal,
with the path the rules will take drawn on the map), and submits: the order is in their
`/orders mine`, never in the other player's nor on their page; "Done for the turn" resolves
the step with that move. ``WRITE_DOCS_PICTURE=1`` writes docs/images/war-table-orders.png.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from sqlalchemy import select

import tests.e2e.conftest as e2e
from bot.client import AideBot
from bot.db.models import Battle
from rules_core.state import BattleState, Unit
from tests.web.test_browser import (
    LINK,
    browser,
    fixed_seed,
    keep_screenshot,
    make_aide,
    make_harness,
    page,
    phone,
    pytestmark,
    until,
)
from tools.fake_discord import FakeUser
from tools.harness import Harness
from tools.skirmish_battle import set_up_battle

try:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:  # skipped with test_browser's marks
    pass

__all__ = ["browser", "fixed_seed", "make_aide", "make_harness", "phone", "pytestmark"]
ROOT = Path(__file__).resolve().parents[2]
PICTURE = ROOT / "docs" / "images" / "war-table-orders.png"
REACH = 6  # every infantry unit of tools/skirmish_battle moves 6 inch
# Where a table point is on the screen: through the map's data-table and its current zoom.
ON_SCREEN = """
const svg = document.getElementById('map');
const [x0, y0, scale] = svg.dataset.table.split(' ').map(Number);
const point = svg.createSVGPoint();
point.x = (arguments[0] - x0) * scale;
point.y = (y0 - arguments[1]) * scale;
const found = point.matrixTransform(svg.getScreenCTM());
return [Math.round(found.x), Math.round(found.y)];
"""
# The verdict of a judgement after the n-th: [ok "true"/"false", words], once it is in.
VERDICT = """
const v = document.getElementById('verdict');
const fresh = v.dataset.ok && Number(v.dataset.judged || 0) > arguments[0];
return fresh && [v.dataset.ok, v.textContent];
"""
JUDGED = "return Number(document.getElementById('verdict').dataset.judged || 0)"


async def stored_state(h: Harness) -> BattleState:
    """The battle as the bot stored it."""
    assert isinstance(h.bot, AideBot)
    async with h.bot.db.read() as session:
        data = await session.scalar(select(Battle.state).order_by(Battle.id.desc()).limit(1))
    return BattleState.from_dict(data)


def mover(h: Harness, state: BattleState) -> tuple[FakeUser, FakeUser, Unit]:
    """The player whose turn it is, the other, and the first infantry unit of the first."""
    active = state.cursor.side_order[state.cursor.player_turn]
    unit = next(u for u in state.units if u.side == active and u.type == "infantry")
    red = unit.name.startswith("Red")  # Alice plays Red, Bob Blue (tools/skirmish_battle)
    player, other = (h.alice, h.bob) if red else (h.bob, h.alice)
    return player, other, unit


async def movement_open(h: Harness) -> tuple[FakeUser, FakeUser, Unit]:
    """The skirmish battle started, deployed and its initiative decided (the GM forcing
    both): movement, for the side the dice chose."""
    where = h.channel("punic-wars")
    await set_up_battle(h, where)
    await h.slash(h.gm, "battle start", channel=where)
    for _ in ("deployment", "the initiative question"):  # both with their defaults
        forced = await h.slash(h.gm, "gm force", channel=where)
        assert not forced.ephemeral, forced
    state = await stored_state(h)
    assert state.cursor.step == "move", state.cursor
    return mover(h, state)


async def open_page(h: Harness, driver: Any, player: FakeUser) -> None:
    """The player asks for their link and opens it; once its script has run."""
    answer = await h.slash(player, "battle table", channel=h.channel("punic-wars"))
    found = LINK.search(answer.text)
    assert answer.ephemeral and found is not None, answer.text
    await page(driver.get, found[1])
    await page(until, driver, "return document.body.dataset.version")


def click_at(driver: Any, table_point: tuple[float, float]) -> None:
    """A real click where a table point is drawn."""
    x, y = driver.execute_script(ON_SCREEN, *table_point)
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(x, y).click()
    actions.perform()


async def verdict_after(driver: Any, judged: int) -> tuple[str, str]:
    """The verdict of a judgement after the ``judged``-th (ok "true"/"false", its words)."""
    found: list[str] = await page(until, driver, VERDICT, judged)
    return found[0], found[1]


async def others_view(h: Harness, other: FakeUser) -> str:
    """The other player's page and state.json, fetched with their own link."""
    answer = await h.slash(other, "battle table", channel=h.channel("punic-wars"))
    found = LINK.search(answer.text)
    assert found is not None, answer.text
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        async with session.get(found[1]) as opened:  # follows to /c/{id}/ with the cookie
            html = await opened.text()
            base = str(opened.url)
        async with session.get(base + "state.json") as state:
            return html + await state.text()


async def aim(driver: Any, point: tuple[float, float]) -> tuple[str, str]:
    """Pick the move's point again and click it on the map: the verdict that follows."""
    judged = await page(driver.execute_script, JUDGED)
    pick = await page(driver.find_element, By.CSS_SELECTOR, '[data-param="to"] button')
    if await page(pick.get_attribute, "aria-pressed") != "true":  # a new move is aimed at once
        await page(pick.click)
    await page(click_at, driver, point)
    return await verdict_after(driver, judged)


async def submitted(driver: Any) -> None:
    """Submit the order; once the plans panel offers to withdraw it."""
    await page(click, driver, By.ID, "order-submit")
    await page(until, driver, "return document.querySelector('#plans ul.withdraw button')")


def plans_text(driver: Any) -> str:
    """What the page's plans panel says."""
    return str(driver.find_element(By.ID, "plans").text)


# Every browser call runs off the loop (``page``): the loop serves what the browser asks for,
# so a call made on it (even ``find_element``) can wait on the very page it blocks.
def click(driver: Any, by: str, what: str) -> None:
    """Click the element found."""
    driver.find_element(by, what).click()


def text_of(driver: Any, by: str, what: str) -> str:
    """The element's text."""
    return str(driver.find_element(by, what).text)


def enabled(driver: Any, by: str, what: str) -> bool:
    """Whether the element is enabled."""
    return bool(driver.find_element(by, what).is_enabled())


async def test_a_player_plans_a_move_by_pointing_and_it_is_carried_out(
    make_aide: e2e.MakeHarness, browser: Any, tmp_path: Path
) -> None:
    h = await make_aide(web_port=0)
    where = h.channel("punic-wars")
    player, other, unit = await movement_open(h)
    await open_page(h, browser, player)
    csrf = "return !!document.querySelector('meta[name=csrf-token]')"
    assert await page(browser.execute_script, csrf)

    # An enemy unit shows its card only; the player's own opens its order panel on its first
    # step's first kind, a move.
    enemy = next(u for u in (await stored_state(h)).units if u.side != unit.side)
    theirs = await page(
        browser.find_element, By.CSS_SELECTOR, f'#map g.unit[data-owner="{enemy.id}"]'
    )
    await page(ActionChains(browser).move_to_element(theirs).click().perform)
    drawn = await page(
        browser.find_element, By.CSS_SELECTOR, f'#map g.unit[data-owner="{unit.id}"]'
    )
    await page(ActionChains(browser).move_to_element(drawn).click().perform)
    await page(until, browser, "return !document.getElementById('order-panel').hidden")
    kind = await page(browser.execute_script, "return document.getElementById('order-kind').value")
    assert kind == "move"
    assert await page(text_of, browser, By.CSS_SELECTOR, "#order-form h3") == unit.name

    # Past its reach: refused, with the way forward.
    ahead = 1 if unit.y < 18 else -1
    ok, said = await aim(browser, (unit.x, unit.y + ahead * (REACH + 4)))
    assert ok == "false", said
    assert "cannot move" in said and "Try a shorter move" in said, said
    assert not await page(enabled, browser, By.ID, "order-submit")

    # Within reach: legal, the path drawn as a dashed line on the map.
    target = (unit.x, unit.y + ahead * (REACH - 2))
    ok, said = await aim(browser, target)
    assert ok == "true", said
    assert f"{unit.name}: moves 4" in said, said
    assert await page(until, browser, "return document.querySelector('#map .order-path')")
    await page(browser.set_window_size, 1280, 1100)  # the verdict in the picture too
    shot = await page(keep_screenshot, browser, tmp_path, "war-table-orders.png")
    if os.environ.get("WRITE_DOCS_PICTURE"):
        PICTURE.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, PICTURE)

    # Submitted: in the player's /orders mine and plans, never the other's, nor their page.
    await submitted(browser)
    mine = await h.slash(player, "orders mine", channel=where)
    assert mine.ephemeral and f"**{unit.name}** (move)" in mine.content, mine.content
    assert f"{unit.name} (move)" in await page(plans_text, browser)
    theirs = await h.slash(other, "orders mine", channel=where)
    assert unit.name not in theirs.content
    assert f"{unit.name} (move)" not in await others_view(h, other)

    # Withdrawn from the page: gone from /orders mine; aimed and submitted again.
    await page(click, browser, By.CSS_SELECTOR, "#plans ul.withdraw button")
    gone = "return !document.querySelector('#plans ul.withdraw button')"
    await page(until, browser, gone)
    assert unit.name not in (await h.slash(player, "orders mine", channel=where)).content
    ok, said = await aim(browser, target)
    assert ok == "true", said
    await submitted(browser)

    # Done for the turn: the step resolves with that move.
    await page(click, browser, By.ID, "done-turn")
    done = "const s = document.getElementById('turn-said').textContent;"
    said = await page(until, browser, done + "return s.startsWith('Done') && s")
    moved = (await stored_state(h)).unit(unit.id)
    assert (moved.x, moved.y) == pytest.approx(target, abs=0.11), said
    errors = [e for e in await page(browser.get_log, "browser") if e["level"] == "SEVERE"]
    assert not errors, errors


async def test_on_a_phone_a_unit_opens_by_keyboard_and_done_with_nothing_planned_asks(
    make_aide: e2e.MakeHarness, phone: Any
) -> None:
    h = await make_aide(web_port=0)
    player, _, unit = await movement_open(h)
    await open_page(h, phone, player)
    # The keyboard's way to a unit's orders: focus it, Enter.
    drawn = await page(phone.find_element, By.CSS_SELECTOR, f'#map g.unit[data-owner="{unit.id}"]')
    await page(phone.execute_script, "arguments[0].focus()", drawn)
    await page(ActionChains(phone).send_keys(Keys.ENTER).perform)
    await page(until, phone, "return !document.getElementById('order-panel').hidden")
    assert await page(text_of, phone, By.CSS_SELECTOR, "#order-form h3") == unit.name
    await page(click, phone, By.ID, "done-turn")
    asked = "return document.getElementById('done-confirm') && "
    asked += "document.getElementById('turn-said').textContent"
    question = await page(until, phone, asked)
    assert "default" in question.lower(), question
    still = (await stored_state(h)).cursor
    assert still.step == "move"  # asking changed nothing
    await page(click, phone, By.ID, "done-confirm")
    done = "const s = document.getElementById('turn-said').textContent;"
    assert await page(until, phone, done + "return s.startsWith('Done') && s")
    assert (await stored_state(h)).cursor != still  # the step resolved with its defaults
