"""The war table in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``, installed by .ci/run) driven by selenium, on the page the real bot serves
while it plays through the fake Discord.

A player opens the link `/battle table` gave them, finds every unit of the battle on the map,
hovers one for its card, watches a step resolved in Discord arrive without a reload, and
scrubs the replay. Selenium blocks, so each browser call runs in a thread while the bot's
loop (which serves the page) runs on. Screenshots are kept under the test's folder and, with
``ARTIFACTS_DIR`` set, there; ``WRITE_DOCS_PICTURE=1`` also writes the README's picture,
docs/images/war-table.png.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

import tests.e2e.conftest as e2e
from bot.client import AideBot
from bot.db.models import Battle
from rules_core.state import BattleState
from tools.harness import Harness
from tools.skirmish_battle import set_up_battle

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.wait import WebDriverWait
except ImportError:  # the test extra brings it; without it these tests are skipped
    webdriver = None

ROOT = Path(__file__).resolve().parents[2]
PICTURE = ROOT / "docs" / "images" / "war-table.png"
CHROMIUM = next(filter(None, map(shutil.which, ("chromium", "chromium-browser"))), None)
DRIVER = shutil.which("chromedriver")
LINK = re.compile(r"<(http://localhost:\d+/t/[A-Za-z0-9_.=-]+)>")
GUARD_S = 30.0  # a guard against a hang, not a latency check

pytestmark = [
    pytest.mark.skipif(webdriver is None, reason="selenium is not installed (the test extra)"),
    pytest.mark.skipif(
        CHROMIUM is None or DRIVER is None,
        reason="no chromium and chromedriver (Debian: apt-get install chromium chromium-driver; "
        ".ci/run installs them)",
    ),
    pytest.mark.usefixtures("fixed_seed"),
]
# The real bot against the fake Discord, as tests/e2e start it.
make_aide, make_harness, fixed_seed = e2e.make_aide, e2e.make_harness, e2e.fixed_seed


def chromium(phone: bool = False) -> Any:
    """Headless Chromium, desktop-sized, or as a phone (a small touch screen)."""
    options = Options()
    options.binary_location = CHROMIUM or ""
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    if phone:
        metrics = {"width": 390, "height": 844, "pixelRatio": 2.0, "touch": True}
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    else:
        options.add_argument("--window-size=1280,900")
    return webdriver.Chrome(options=options, service=Service(DRIVER))


def driven(phone: bool, folder: Path, name: str) -> Iterator[Any]:
    """A browser for one test; at the end its last screen and console are kept beside the
    screenshots (what a failure looked like), then it quits."""
    driver = chromium(phone)
    try:
        yield driver
    finally:
        try:
            keep_screenshot(driver, folder, f"{name}-last.png")
            console = "\n".join(str(entry) for entry in driver.get_log("browser"))
            (folder / f"{name}-console.txt").write_text(console, encoding="utf-8")
        finally:
            driver.quit()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    """Headless Chromium on a desktop."""
    yield from driven(False, tmp_path, "desktop")


@pytest.fixture
def phone(tmp_path: Path) -> Iterator[Any]:
    """Headless Chromium as a phone."""
    yield from driven(True, tmp_path, "phone")


def until(driver: Any, script: str, *args: Any) -> Any:
    """Wait (in the calling thread) until a page script returns something truthy; that."""
    return WebDriverWait(driver, GUARD_S).until(lambda d: d.execute_script(script, *args))


async def page(call: Callable[..., Any], *args: Any) -> Any:
    """A blocking browser call, off the loop that serves the page."""
    return await asyncio.to_thread(call, *args)


def keep_screenshot(driver: Any, folder: Path, name: str) -> Path:
    """Save a screenshot under ``folder`` and ARTIFACTS_DIR (when set); its path."""
    path = folder / name
    driver.save_screenshot(str(path))
    if artifacts := os.environ.get("ARTIFACTS_DIR"):
        Path(artifacts).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(artifacts) / name)
    return path


async def units_of(h: Harness) -> dict[str, str]:
    """The battle's units by id (their names), as the bot stored them."""
    assert isinstance(h.bot, AideBot)
    async with h.bot.db.read() as session:
        data = await session.scalar(select(Battle.state).order_by(Battle.id.desc()).limit(1))
    return {unit.id: unit.name for unit in BattleState.from_dict(data).units}


async def opened_table(h: Harness, driver: Any) -> str:
    """A started skirmish battle; Alice asks for her link and opens it: the page's version."""
    where = h.channel("punic-wars")
    await set_up_battle(h, where)
    await h.slash(h.gm, "battle start", channel=where)
    answer = await h.slash(h.alice, "battle table", channel=where)
    assert answer.ephemeral, answer
    found = LINK.search(answer.text)
    assert found is not None, answer.text
    await page(driver.get, found[1])
    # Every browser call runs off the loop (``page``): the loop serves what the browser asks.
    assert "/t/" not in await page(lambda: driver.current_url)  # the token went into the cookie
    await page(until, driver, "return document.readyState === 'complete'")  # table.js ran
    version: str = await page(until, driver, "return document.body.dataset.version")
    return version


async def test_a_player_reads_the_table_and_follows_it_live(
    make_aide: e2e.MakeHarness, browser: Any, tmp_path: Path
) -> None:
    h = await make_aide(web_port=0)
    version = await opened_table(h, browser)
    owners = await page(
        browser.execute_script,
        "return [...document.querySelectorAll('#map g.unit')].map(g => g.dataset.owner)",
    )
    units = await units_of(h)
    assert sorted(owners) == sorted(units)  # every unit of the battle, each once

    # Hovering a unit fills the card with that unit.
    (archers,) = [unit_id for unit_id, name in units.items() if name == "Red Archers"]
    unit = await page(browser.find_element, By.CSS_SELECTOR, f'#map g.unit[data-owner="{archers}"]')
    await page(ActionChains(browser).move_to_element(unit).perform)
    shown = "return document.getElementById('card').dataset.unit == arguments[0]"
    await page(until, browser, shown, archers)
    card = await page(browser.find_element, By.ID, "card")
    shown_text = await page(lambda: card.text)
    assert "Red Archers" in shown_text
    assert "Red · Red" not in shown_text  # a unit in no group: its side named once
    await page(keep_screenshot, browser, tmp_path, "war-table-card.png")

    # A step resolved in Discord reaches the open page: new version, new map, no reload.
    await page(browser.execute_script, "window.stillHere = document.getElementById('map');")
    forced = await h.slash(h.gm, "gm force", channel=h.channel("punic-wars"))
    assert not forced.ephemeral, forced
    changed = "const v = document.body.dataset.version; return v != arguments[0] && v"
    assert await page(until, browser, changed, version)
    assert await page(until, browser, "return document.getElementById('map') !== window.stillHere")
    assert await page(browser.execute_script, "return window.stillHere !== undefined")  # no reload
    shot = await page(keep_screenshot, browser, tmp_path, "war-table.png")
    if os.environ.get("WRITE_DOCS_PICTURE"):
        PICTURE.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, PICTURE)

    # Scrubbing the replay shows a stored stage.
    slider = await page(browser.find_element, By.ID, "replay")
    assert await page(slider.is_enabled)
    await page(
        browser.execute_script,
        "const s = document.getElementById('replay'); s.value = '0';"
        "s.dispatchEvent(new Event('input', {bubbles: true}));",
    )
    assert await page(until, browser, "return document.body.dataset.frame === '0'")
    await page(keep_screenshot, browser, tmp_path, "war-table-replay.png")

    # Nothing the page asked for was refused: no 404, no script error, nothing the strict
    # Content-Security-Policy blocked (each would be a SEVERE line of the console).
    errors = [e for e in await page(browser.get_log, "browser") if e["level"] == "SEVERE"]
    assert not errors, errors


def touch(driver: Any, element: Any, drag: tuple[int, int] | None = None) -> None:
    """A finger on the element: a tap, or a drag by ``drag`` (CSS pixels)."""
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger)
    actions.pointer_action.move_to(element).pointer_down()
    if drag is not None:
        actions.pointer_action.move_by(*drag).move_by(*drag)
    actions.pointer_action.pointer_up()
    actions.perform()


VIEWBOX = "return document.getElementById('map').getAttribute('viewBox').split(' ').map(Number)"


async def test_on_a_phone_a_tap_shows_the_card_and_the_map_zooms_and_pans(
    make_aide: e2e.MakeHarness, phone: Any, tmp_path: Path
) -> None:
    h = await make_aide(web_port=0)
    await opened_table(h, phone)
    units = await units_of(h)
    (riders,) = [unit_id for unit_id, name in units.items() if name == "Blue Riders"]
    unit = await page(phone.find_element, By.CSS_SELECTOR, f'#map g.unit[data-owner="{riders}"]')
    await page(touch, phone, unit)
    shown = "return document.getElementById('card').dataset.unit == arguments[0]"
    await page(until, phone, shown, riders)
    card = await page(phone.find_element, By.ID, "card")
    assert "Blue Riders" in await page(lambda: card.text)

    whole = await page(phone.execute_script, VIEWBOX)
    await page(phone.find_element(By.ID, "zoom-in").click)
    zoomed = await page(phone.execute_script, VIEWBOX)
    assert zoomed[2] < whole[2] and zoomed[3] < whole[3]  # a closer look, same proportions
    assert zoomed[2] / zoomed[3] == pytest.approx(whole[2] / whole[3])
    board = await page(phone.find_element, By.ID, "board")
    await page(touch, phone, board, (-40, 0))  # a finger dragging the table leftwards
    panned = await page(phone.execute_script, VIEWBOX)
    assert panned[0] > zoomed[0] and panned[2] == zoomed[2]  # moved east, not zoomed
    await page(keep_screenshot, phone, tmp_path, "war-table-phone.png")
