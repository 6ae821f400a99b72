"""The GM's table in a real browser: headless Chromium on the page the real bot serves while it
plays a skirmish battle through the fake Discord.

The GM's page shows every side's orders (as `/orders all`); the GM drags a unit to where it
should stand, gives the reason and moves it: the stored battle has it there, and the channel
reads the change with its reason as `/gm move` posts it. A player's page has no GM's panel.
"""

from __future__ import annotations

from typing import Any

import pytest

import tests.e2e.conftest as e2e
from tests.web.test_browser import (
    browser,
    fixed_seed,
    make_aide,
    make_harness,
    page,
    pytestmark,
    until,
)
from tests.web.test_browser_orders import (
    ON_SCREEN,
    click,
    movement_open,
    open_page,
    others_view,
    stored_state,
    text_of,
)

try:
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.by import By
except ImportError:  # skipped with test_browser's marks
    pass

__all__ = ["browser", "fixed_seed", "make_aide", "make_harness", "pytestmark"]
REASON = "knocked over by a cat"


def drag(driver: Any, unit_id: str, to: tuple[float, float]) -> None:
    """Press on the unit drawn on the map, move the pointer to a table point, let go."""
    drawn = driver.find_element(By.CSS_SELECTOR, f'#map g.unit[data-owner="{unit_id}"]')
    x, y = driver.execute_script(ON_SCREEN, *to)
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to(drawn).pointer_down()
    actions.pointer_action.move_to_location(x, y - 20).move_to_location(x, y)
    actions.pointer_action.pointer_up()
    actions.perform()


def type_into(driver: Any, element_id: str, words: str) -> None:
    """Type into an input."""
    driver.find_element(By.ID, element_id).send_keys(words)


async def test_the_gm_drags_a_unit_with_a_reason_and_the_channel_reads_it(
    make_aide: e2e.MakeHarness, browser: Any
) -> None:
    h = await make_aide(web_port=0)
    where = h.channel("punic-wars")
    player, _, unit = await movement_open(h)
    await open_page(h, browser, h.gm)

    # The GM's panel: the order book as /orders all shows the GM.
    book = await h.slash(h.gm, "orders all", channel=where)
    listed = "const o = document.getElementById('gm-orders'); return o && o.children.length && o"
    await page(until, browser, listed)
    shown = await page(text_of, browser, By.ID, "gm-orders")
    assert shown.splitlines()[0] == book.content.splitlines()[0].replace("**", ""), shown

    # Dragged to a new place, moved with the reason.
    target = (unit.x + 3, unit.y + 2)
    await page(drag, browser, unit.id, target)
    await page(until, browser, "return !document.getElementById('gm-move').disabled")
    await page(type_into, browser, "gm-reason", REASON)
    await page(click, browser, By.ID, "gm-move")
    said = await page(
        until,
        browser,
        "const s = document.getElementById('gm-said'); return s.dataset.ok && s.textContent",
    )
    assert REASON in said and f"moved {unit.name}" in said, said
    moved = (await stored_state(h)).unit(unit.id)
    assert (moved.x, moved.y) == pytest.approx(target, abs=0.11)
    posted = [m.content for m in h.messages(where) if not m.ephemeral]
    assert any(f"moved **{unit.name}**: {REASON}" in text for text in posted), posted[-3:]

    # A player's page is not a GM's (the server's word): no order book, no GM's panel.
    theirs = await others_view(h, player)
    assert '"gm": false' in theirs and book.content.splitlines()[0] not in theirs
    errors = [e for e in await page(browser.get_log, "browser") if e["level"] == "SEVERE"]
    assert not errors, errors
