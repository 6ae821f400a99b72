"""Questions answered by pointing, in a real browser: the muster test ruleset's parley (as
tests/e2e/test_muster_orders.py plays it through the fake Discord) asks Blue's player which
unit stands champion and then Red's player where the herald stands (a point). On each page the
question offers to click the map: a click on the unit, then on the point, answers it through
`/answer`'s service; the step goes on as `/answer` would carry it, and the channel reads each
answer as `/answer` posts it.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

import tests.e2e.conftest as e2e
from bot.presentation.gm import answered_text
from rules_core.plugin import Rules
from tests.e2e.sheet_battle import posts
from tests.e2e.test_muster_orders import done, set_up
from tests.web import test_browser_orders as orders_page
from tests.web.test_browser import (
    LINK,
    browser,
    fixed_seed,
    make_aide,
    make_harness,
    page,
    pytestmark,
    until,
)
from tools.fake_discord import FakeUser
from tools.harness import Harness

with contextlib.suppress(ImportError):  # skipped with test_browser's marks
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

__all__ = ["browser", "fixed_seed", "make_aide", "make_harness", "pytestmark"]
CHANNEL = "hundred-years"
HERALD = (24.0, 20.0)
SHOW_MAP = "document.getElementById('map').scrollIntoView({block: 'center'})"
PICK = "return document.querySelector('#questions .answers button.pick')"
SAID = "const s = document.getElementById('answer-said'); return s.dataset.ok && s.textContent"


async def open_as(h: Harness, driver: Any, user: FakeUser) -> None:
    """The user's page, opened from their `/battle table` link, once a question offers a pick."""
    answer = await h.slash(user, "battle table", channel=h.channel(CHANNEL))
    found = LINK.search(answer.text)
    assert found is not None, answer.text
    await page(driver.get, found[1])
    await page(until, driver, PICK)


def click_unit(driver: Any, unit_id: str) -> None:
    """Click a unit where the map draws it."""
    drawn = driver.find_element(By.CSS_SELECTOR, f'#map g.unit[data-owner="{unit_id}"]')
    ActionChains(driver).move_to_element(drawn).click().perform()


def answers(h: Harness, user: FakeUser) -> list[str]:
    """The channel's notes of the user's answers."""
    where = h.channel(CHANNEL)
    return [m.content for m in posts(h, where) if m.content.startswith(f"{user.mention} answered")]


async def test_a_unit_and_a_point_are_answered_by_clicking_the_map(
    muster: Rules, make_aide: e2e.MakeHarness, browser: Any
) -> None:
    h = await make_aide(web_port=0)
    where = h.channel(CHANNEL)
    await set_up(h, where, muster)
    await done(h, where, h.alice, h.bob)  # the council
    await done(h, where, h.alice, h.bob)  # the march
    await h.slash(h.alice, "answer", channel=where, answer="omen_1")
    await h.slash(h.alice, "answer", channel=where, answer="furl")  # the banner, as Red

    # Blue's champion: the unit clicked on the map.
    horse = next(u for u in (await orders_page.stored_state(h)).units if u.name == "Blue Horse")
    assert (await orders_page.stored_state(h)).pending.decision.id == "champion"
    await open_as(h, browser, h.bob)
    await page(lambda: browser.execute_script(PICK).click())
    await page(browser.execute_script, SHOW_MAP)
    await page(click_unit, browser, horse.id)
    said = await page(until, browser, SAID)
    assert "answered" in said, said
    assert answers(h, h.bob)[-1] == answered_text(h.bob.id, horse.id)  # as /answer posts it
    after = await orders_page.stored_state(h)
    # The step carried on with it: recorded as the champion's answer, the next question asked.
    given = {a.decision: a.choice for a in after.pending.answers} if after.pending else {}
    assert given.get("champion") == horse.id

    # Red's herald: the point clicked on the map.
    assert after.pending is not None and after.pending.decision.id == "herald"
    await open_as(h, browser, h.alice)
    await page(lambda: browser.execute_script(PICK).click())
    await page(browser.execute_script, SHOW_MAP)
    await page(orders_page.click_at, browser, HERALD)
    said = await page(until, browser, SAID)
    assert "answered" in said, said
    note = answers(h, h.alice)[-1]
    choice = note.split("**")[1]
    assert note == answered_text(h.alice.id, choice)
    assert tuple(float(v) for v in choice.split(",")) == pytest.approx(HERALD, abs=0.2)
    last = (await orders_page.stored_state(h)).pending
    assert last is not None and last.decision.id == "wager"  # the step went on with the point
    assert {a.decision: a.choice for a in last.answers}["herald"] == choice
    errors = [e for e in await page(browser.get_log, "browser") if e["level"] == "SEVERE"]
    assert not errors, errors
