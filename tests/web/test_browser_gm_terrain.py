"""The GM's terrain by pointing in a real browser: headless Chromium on the page the real bot
serves while it plays a skirmish battle through the fake Discord.

The GM picks a hill, clicks its corners on the map, says why and places it; then drags out a
marsh's radius: the stored battle has both where they were drawn (as `/gm terrain add` typed
with those points lays them), the channel reads the change with its reason, the map shows them.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

import tests.e2e.conftest as e2e
import tests.web.test_browser_orders as orders_page
from bot.services.shapes import CIRCLE_POINTS
from tests.web.test_browser import (
    browser,
    fixed_seed,
    make_aide,
    make_harness,
    page,
    pytestmark,
    until,
)
from tests.web.test_browser_gm import type_into

with contextlib.suppress(ImportError):  # skipped with test_browser's marks
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

__all__ = ["browser", "fixed_seed", "make_aide", "make_harness", "pytestmark"]
REASON = "the scenario's hidden hill"
CORNERS = [(30.0, 22.0), (40.0, 22.0), (35.0, 27.0)]
STORM = "flooded by the storm"
SHOW_MAP = "document.getElementById('map').scrollIntoView({block: 'center'})"
SAID = "const s = document.getElementById('gm-terrain-said'); return s.dataset.ok && s.textContent"


def choose(driver: Any, element_id: str, value: str) -> None:
    """Pick an option of a select."""
    Select(driver.find_element(By.ID, element_id)).select_by_value(value)


def drag_out(driver: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    """Press where one table point is drawn, move to another, let go."""
    x0, y0 = driver.execute_script(orders_page.ON_SCREEN, *start)
    x1, y1 = driver.execute_script(orders_page.ON_SCREEN, *end)
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(x0, y0).pointer_down()
    actions.pointer_action.move_to_location((x0 + x1) // 2, (y0 + y1) // 2)
    actions.pointer_action.move_to_location(x1, y1).pointer_up()
    actions.perform()


def map_texts(driver: Any) -> list[str]:
    """The words drawn on the page's map."""
    found = driver.find_elements(By.CSS_SELECTOR, "#map text")
    return [str(t.get_attribute("textContent")) for t in found]


async def test_the_gm_draws_terrain_on_the_map_with_a_reason(
    make_aide: e2e.MakeHarness, browser: Any
) -> None:
    h = await make_aide(web_port=0)
    where = h.channel("punic-wars")
    await orders_page.movement_open(h)
    await orders_page.open_page(h, browser, h.gm)
    await page(until, browser, "return document.getElementById('gm-terrain-kind')")
    assert "Hill" not in await page(map_texts, browser)

    # A hill: its three corners clicked on the map.
    await page(choose, browser, "gm-terrain-kind", "hill")
    await page(orders_page.click, browser, By.ID, "gm-terrain-draw")
    await page(browser.execute_script, SHOW_MAP)
    for corner in CORNERS:
        await page(orders_page.click_at, browser, corner)
    await page(until, browser, "return !document.getElementById('gm-terrain-place').disabled")
    await page(type_into, browser, "gm-terrain-reason", REASON)
    await page(orders_page.click, browser, By.ID, "gm-terrain-place")
    said = await page(until, browser, SAID)
    assert f"laid terrain: {REASON}" in said, said
    laid = (await orders_page.stored_state(h)).terrain[-1]
    assert laid.kind == "hill" and len(laid.points) == 3
    for got, drawn in zip(laid.points, CORNERS, strict=True):
        assert got == pytest.approx(drawn, abs=0.21)
    posted = [m.content for m in h.messages(where) if not m.ephemeral]
    assert any(f"laid terrain: {REASON}" in text for text in posted), posted[-3:]
    await page(
        until,
        browser,
        "return [...document.querySelectorAll('#map text')].some((t) => t.textContent === 'Hill')",
    )

    # A marsh: pressed at its centre, its radius dragged out.
    await page(choose, browser, "gm-terrain-kind", "marsh")
    await page(choose, browser, "gm-terrain-shape", "circle")
    await page(orders_page.click, browser, By.ID, "gm-terrain-draw")
    await page(browser.execute_script, SHOW_MAP)
    await page(drag_out, browser, (10.0, 20.0), (13.0, 20.0))
    await page(until, browser, "return !document.getElementById('gm-terrain-place').disabled")
    await page(type_into, browser, "gm-terrain-reason", STORM)
    await page(orders_page.click, browser, By.ID, "gm-terrain-place")
    await page(until, browser, SAID + f" && s.textContent.includes('{STORM}')")
    marsh = (await orders_page.stored_state(h)).terrain[-1]
    xs, ys = [x for x, _ in marsh.points], [y for _, y in marsh.points]
    assert marsh.kind == "marsh"
    assert ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2) == pytest.approx((10, 20), abs=0.21)
    radius = (max(xs) - min(xs)) / 2
    assert radius == pytest.approx(3, abs=0.21)
    assert len(marsh.points) == CIRCLE_POINTS  # the outline /gm terrain add lays a circle with
    errors = [e for e in await page(browser.get_log, "browser") if e["level"] == "SEVERE"]
    assert not errors, errors
