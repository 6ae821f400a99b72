"""Aiming a Hail Caesar move by dragging its ghost, in a real browser: headless Chromium on the
page the real bot serves while it plays Gergovia through the fake Discord.

Rome's player, the legion's orders given, opens the Gallic Horse's move: a ghost of its base
follows the pointer over the shaded reach; placed, then dragged past the reach (the page shows
the refusal, its way forward and the distance the unit has), back within it (legal, with the
path the rules take and the distance used and left), turned with the keyboard and back, and
submitted: the order is in their `/orders mine`, never in Gaul's nor on Gaul's page; "Done for
the turn" resolves the step with that move.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import tests.e2e.conftest as e2e
from tests.e2e.sheet_battle import answer, confirm, give, question, start
from tests.e2e.test_hail_caesar_turn import BATTLE, deployment_and_general_advance, set_up
from tests.web.test_browser import browser, fixed_seed, make_aide, make_harness, page, pytestmark
from tests.web.test_browser_orders import (
    JUDGED,
    ON_SCREEN,
    click,
    click_at,
    enabled,
    others_view,
    stored_state,
    submitted,
    until,
    verdict_after,
)
from tools.harness import Harness

try:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.by import By
except ImportError:  # skipped with test_browser's marks
    pass

__all__ = ["browser", "fixed_seed", "make_aide", "make_harness", "pytestmark"]
UNIT, START = "Gallic Horse", (33.0, 6.0)  # Rome's, facing Gaul up the table; 3 moves of 9"
PLACED, PAST, WITHIN = (33.0, 10.0), (33.0, 35.0), (33.0, 14.0)
GHOST = "const g = document.getElementById('aim-ghost'); return g && g.getAttribute('points')"


def drag(driver: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    """Press on the table point ``start``, move to ``end`` in a few steps, release there."""
    driver.execute_script("window.scrollTo(0, 0)")  # the map in view (a tick may scroll)
    (x0, y0), (x1, y1) = (driver.execute_script(ON_SCREEN, *p) for p in (start, end))
    actions = ActionBuilder(driver, duration=0)  # no pause for the debounced judge mid-drag
    actions.pointer_action.move_to_location(x0, y0).pointer_down()
    for part in (0.25, 0.5, 0.75, 1.0):
        actions.pointer_action.move_to_location(
            round(x0 + (x1 - x0) * part), round(y0 + (y1 - y0) * part)
        )
    actions.pointer_action.pointer_up()
    actions.perform()


async def dragged(driver: Any, start: tuple[float, float], end: tuple[float, float]) -> list[str]:
    """Drag the ghost from ``start`` to ``end``: the verdict that follows (ok, words)."""
    judged = await page(driver.execute_script, JUDGED)
    await page(drag, driver, start, end)
    return list(await verdict_after(driver, judged))


def press(driver: Any, keys: str) -> None:
    """Type keys to the page (the ghost turns with [ and ])."""
    ActionChains(driver).send_keys(keys).perform()


async def legion_fails(h: Harness) -> None:
    """The legion's step as in tests/e2e/test_hail_caesar_turn.py (its division order fails,
    re-rolled): the horse's step opens with the dice where that test has them (it passes)."""
    where = h.channel("punic-wars")
    for cohort, x in (("First Cohort", 5), ("Second Cohort", 12)):
        await give(h, h.alice, where, "move", cohort, x=x, y=12)
    await give(h, h.alice, where, "command", "Legate Quintus", option="division")
    await confirm(h, where, BATTLE, h.alice)
    await answer(h, where, BATTLE, h.alice, question(h, where), "re-roll the order dice")


async def test_a_player_drags_a_hail_caesar_ghost_and_the_move_is_carried_out(
    make_aide: e2e.MakeHarness, browser: Any, fixed_seed: bytes
) -> None:
    h = await make_aide(web_port=0)
    where = h.channel("punic-wars")
    await set_up(h)
    await start(h, where, BATTLE, fixed_seed)
    await deployment_and_general_advance(h)
    await legion_fails(h)
    answer = await h.slash(h.alice, "battle table", channel=where)
    link = answer.text.split("<", 1)[1].split(">", 1)[0]
    await page(browser.get, link)
    await page(until, browser, "return document.body.dataset.version")
    unit = next(u for u in (await stored_state(h)).units if u.name == UNIT)
    drawn = await page(
        browser.find_element, By.CSS_SELECTOR, f'#map g.unit[data-owner="{unit.id}"]'
    )
    await page(ActionChains(browser).move_to_element(drawn).click().perform)
    await page(until, browser, "return !document.getElementById('order-panel').hidden")

    # The move is aimed at once: the reach is shaded, the ghost follows the pointer; a click
    # places it (legal), then it is dragged past the reach: refused, saying what it has.
    await page(until, browser, "return document.querySelector('#map .aim-reach')")
    judged = await page(browser.execute_script, JUDGED)
    await page(click_at, browser, PLACED)
    ok, said = await verdict_after(browser, judged)
    assert ok == "true" and await page(browser.execute_script, GHOST), said
    ok, said = await dragged(browser, PLACED, PAST)
    assert ok == "false", said
    assert "cannot move" in said and "Try a shorter move" in said, said
    drawn = re.search(r"Drawn ([\d.]+); it has 27\.", said)
    assert drawn and float(drawn[1]) == pytest.approx(29, abs=0.2), said
    assert not await page(enabled, browser, By.ID, "order-submit")

    # "As far as possible": legal, stopping where the rules stop it; unticked, refused again.
    judged = await page(browser.execute_script, JUDGED)
    await page(click, browser, By.ID, "order-far")
    ok, said = await verdict_after(browser, judged)
    assert ok == "true" and "As far as possible, it stops at (33, " in said, said
    judged = await page(browser.execute_script, JUDGED)
    await page(click, browser, By.ID, "order-far")
    ok, said = await verdict_after(browser, judged)
    assert ok == "false", said

    # Back within reach: legal, with the rules' path and the distance used and left.
    ok, said = await dragged(browser, PAST, WITHIN)
    assert ok == "true", said
    facts = re.search(
        r"Path: \(33, 6\) → \(([\d.]+), ([\d.]+)\)\. Used ([\d.]+), ([\d.]+) left", said
    )
    assert facts, said
    end, used, left = (float(facts[1]), float(facts[2])), float(facts[3]), float(facts[4])
    assert end == pytest.approx(WITHIN, abs=0.11) and used == pytest.approx(8, abs=0.11), said
    assert used + left == pytest.approx(27), said
    assert await page(until, browser, "return document.querySelector('#map .order-path')")

    # Turned by the keyboard (the ghost's base turns), and turned back.
    straight = await page(browser.execute_script, GHOST)
    await page(press, browser, "]")
    assert await page(browser.execute_script, GHOST) != straight
    judged = await page(browser.execute_script, JUDGED)
    await page(press, browser, "[")
    ok, said = await verdict_after(browser, judged)
    assert ok == "true" and await page(browser.execute_script, GHOST) == straight, said

    # Submitted: in Rome's /orders mine, never Gaul's, nor on Gaul's page or state.json.
    await submitted(browser)
    mine = await h.slash(h.alice, "orders mine", channel=where)
    assert mine.ephemeral and f"**{UNIT}** (move)" in mine.content, mine.content
    assert UNIT not in (await h.slash(h.bob, "orders mine", channel=where)).content
    assert f"{UNIT} (move)" not in await others_view(h, h.bob)

    # Done for the turn (confirmed): the step resolves with that move.
    await page(click, browser, By.ID, "done-turn")
    ask = "return document.getElementById('done-confirm') || null"
    said = ask + " || document.getElementById('turn-said').textContent"
    if await page(until, browser, said) and await page(browser.execute_script, ask):
        await page(click, browser, By.ID, "done-confirm")
    moved = "return document.getElementById('turn-said').textContent.startsWith('Done')"
    await page(until, browser, moved)
    stood = (await stored_state(h)).unit(unit.id)
    assert (stood.x, stood.y) == pytest.approx(end, abs=0.11)
    assert START != WITHIN
    errors = [e for e in await page(browser.get_log, "browser") if e["level"] == "SEVERE"]
    assert not errors, errors
