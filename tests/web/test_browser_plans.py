"""A plan for the turn built on the war table, in a real browser: headless Chromium on the page
the real bot serves while it plays a skirmish battle through the fake Discord.

The player plans a move for next turn's Movement by pointing, then adds two alternatives on the
page ("else" another move, "else" hold); the GM sends the unit away so that neither move can be
made by then, and when the step comes the plan falls through to its second alternative, as the
record says. A standing instruction set on the page is in ``/standing list`` at once.
"""

from __future__ import annotations

from typing import Any

import tests.e2e.conftest as e2e
from rules_core.state import Unit
from tests.e2e.test_conditional_plans import log_of
from tests.web.test_browser import browser, fixed_seed, make_aide, make_harness, page, pytestmark
from tests.web.test_browser_orders import (
    REACH,
    aim,
    click,
    movement_open,
    open_page,
    plans_text,
    stored_state,
    submitted,
    until,
    verdict_after,
)
from tools.fake_discord import FakeUser
from tools.harness import Harness
from tools.skirmish_battle import reports

try:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
except ImportError:  # skipped with test_browser's marks
    pass

__all__ = ["browser", "fixed_seed", "make_aide", "make_harness", "pytestmark"]
NEXT_MOVEMENT = "Next turn: Movement"
# The value of the step select's option for next turn's Movement.
STEP_VALUE = """
const found = [...document.querySelectorAll('#order-step option')]
  .find((o) => o.textContent.startsWith(arguments[0]));
return found && found.value;
"""


def choose(driver: Any, select_id: str, value: str) -> None:
    """Choose an option of a select, as a person does (its change event fires)."""
    Select(driver.find_element(By.ID, select_id)).select_by_value(value)


# Click a button of the plan panel by its words (in one script: the panel is refilled as news
# comes).
PLAN_BUTTON = """
const found = [...document.querySelectorAll('#plans li.planned button')]
  .find((b) => b.textContent === arguments[0]);
if (found) found.click();
return !!found;
"""


async def add_else(driver: Any, count: int) -> None:
    """Open the order form for an alternative to the planned order (the ``count``-th to come)."""
    heading = "const h = document.querySelector('#order-form h3');"
    await page(driver.execute_script, heading + "if (h) h.dataset.old = 'yes'")  # the last form
    await page(until, driver, PLAN_BUTTON, "Add else…")
    fresh = "return h && !h.dataset.old && h.textContent.endsWith(': else…')"
    await page(until, driver, heading + fresh)
    assert f"else {count}:" not in await page(plans_text, driver)


async def else_kept(driver: Any, count: int) -> None:
    """Submit the alternative; once the plan panel lists it."""
    await page(click, driver, By.ID, "order-submit")
    shown = "return document.getElementById('plans').textContent.includes(arguments[0])"
    await page(until, driver, shown, f"else {count}:")


async def resolved_with_note(h: Harness) -> list[str]:
    """Force the steps on (defaults for whoever has not given orders) until a result notes the
    planned move's alternative 2 used; that result's log."""
    where = h.channel("punic-wars")
    for _ in range(12):
        for result in reports(h, where):
            log = log_of(result)
            if any("alternative 2 (hold) used" in line for line in log):
                return log
        forced = await h.slash(h.gm, "gm force", channel=where)
        assert not forced.ephemeral, forced.text
    raise AssertionError("the planned move's step never resolved")


async def players_page(make_aide: e2e.MakeHarness, driver: Any) -> tuple[Harness, FakeUser, Unit]:
    """The skirmish battle at its first Movement; the moving player's page open in ``driver``,
    and their first infantry unit."""
    h = await make_aide(web_port=0)
    player, _, unit = await movement_open(h)
    await open_page(h, driver, player)
    return h, player, unit


async def test_a_conditional_plan_built_on_the_page_falls_through_to_its_second_alternative(
    make_aide: e2e.MakeHarness, browser: Any
) -> None:
    h, player, unit = await players_page(make_aide, browser)
    where = h.channel("punic-wars")
    drawn = await page(
        browser.find_element, By.CSS_SELECTOR, f'#map g.unit[data-owner="{unit.id}"]'
    )
    await page(ActionChains(browser).move_to_element(drawn).click().perform)
    await page(until, browser, "return !document.getElementById('order-panel').hidden")
    step = await page(browser.execute_script, STEP_VALUE, NEXT_MOVEMENT)
    assert step, "next turn's Movement is offered"
    await page(choose, browser, "order-step", step)

    # The plan: a move within reach, else a shorter one, else hold.
    ahead = 1 if unit.y < 18 else -1
    ok, said = await aim(browser, (unit.x, unit.y + ahead * (REACH - 2)))
    assert ok == "true", said
    await submitted(browser)
    await add_else(browser, 1)
    ok, said = await aim(browser, (unit.x, unit.y + ahead * (REACH - 3)))
    assert ok == "true", said
    await else_kept(browser, 1)
    await add_else(browser, 2)
    judged = await page(
        browser.execute_script,
        "return Number(document.getElementById('verdict').dataset.judged || 0)",
    )
    await page(choose, browser, "order-kind", "hold")
    ok, said = await verdict_after(browser, judged)
    assert ok == "true", said
    await else_kept(browser, 2)
    mine = await h.slash(player, "orders mine", channel=where)
    assert "  else 1: " in mine.content and "  else 2: " in mine.content, mine.content

    # Hold tried first, then put back: each move is in /orders mine at once.
    for words, first in (("Up: else 2", "else 1: hold"), ("Down: else 1", "else 2: hold")):
        await page(until, browser, PLAN_BUTTON, words)
        shown = "return document.getElementById('plans').textContent.includes(arguments[0])"
        await page(until, browser, shown, first)
        mine = await h.slash(player, "orders mine", channel=where)
        assert first in mine.content.lower(), mine.content

    # The GM sends the unit far from both moves: when the step comes, hold is used.
    away = unit.x + 14 if unit.x < 24 else unit.x - 14
    moved = await h.slash(
        h.gm, "gm move", channel=where, unit=unit.name, at=f"{away},{unit.y}", reason="scouting"
    )
    assert unit.name in moved.text, moved.text
    log = await resolved_with_note(h)
    (note,) = [line for line in log if "alternative 2 (hold) used" in line]
    assert note.startswith(f"{unit.name}: planned move could not be carried out, "), note
    assert "; alternative 1 (move): " in note
    held = (await stored_state(h)).unit(unit.id)
    assert (held.x, held.y) == (away, unit.y)  # it held where the GM put it


async def test_a_standing_instruction_set_on_the_page_is_in_standing_list(
    make_aide: e2e.MakeHarness, browser: Any
) -> None:
    h, player, _ = await players_page(make_aide, browser)
    where = h.channel("punic-wars")
    await page(until, browser, "return document.getElementById('standing-topic')")
    before = await h.slash(player, "standing list", channel=where)
    assert "evade" not in before.content.lower()
    await page(choose, browser, "standing-topic", "charge_response")
    await page(choose, browser, "standing-choice", "evade")
    await page(click, browser, By.ID, "standing-set")
    said = "const s = document.getElementById('standing-said'); return s && s.textContent"
    answer = await page(until, browser, said)
    assert answer.startswith("✅ Standing instruction set: "), answer
    listed = await h.slash(player, "standing list", channel=where)
    assert listed.ephemeral and "evade" in listed.content.lower(), listed.content
    # and the page lists it with its Remove button, from the same service
    remove = (
        "return [...document.querySelectorAll('#standing-tools button')].map(b => b.textContent)"
    )
    buttons = await page(until, browser, remove + ".filter(t => t.startsWith('Remove'))")
    assert any("evade" in b.lower() for b in buttons), buttons
