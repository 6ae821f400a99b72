"""Odds while you aim, in a real browser: headless Chromium on the page the real bot serves
while it plays The Tree of Battles' first turn through the fake Discord (Agincourt, as
tests/e2e/test_tree_of_battles_turn.py plays it, with its fixed dice).

At the charges step France's player opens Vendôme's Horse's orders, takes its charge and aims
it at York's Vaward (legal), then at the Right-wing Archers behind it (refused: in the way):
beside each verdict the page shows that pair's odds, the figures `/odds charge` (the same
service) gives, as if the charge went home.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import tests.e2e.conftest as e2e
import tests.web.test_browser_orders as orders_page
from bot.services.campaigns import Place
from rules_core.state import Unit
from tests.e2e.sheet_battle import confirm, give, start
from tests.e2e.test_tree_of_battles_turn import (
    BATTLE,
    approach_and_shooting,
    command_phase,
    set_up,
)
from tests.web.test_browser import LINK, keep_screenshot, page, until
from tests.web.test_browser_orders import browser, fixed_seed, make_aide, make_harness, pytestmark
from tools.harness import Harness

try:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
except ImportError:  # skipped with test_browser's marks
    pass

__all__ = ["browser", "fixed_seed", "make_aide", "make_harness", "pytestmark"]
HORSE = "Vendôme's Horse"
TARGETS = ("York's Vaward", "Right-wing Archers")
# York's Vaward is in reach; the archers behind it are not, yet their odds are shown as
# `/odds charge` gives them (as if the charge went home).
VERDICTS = (f"true: ✅ {HORSE}: charges York's Vaward", "false: Vendôme's Horse cannot charge")
JUDGED = "return Number(document.getElementById('verdict').dataset.judged || 0)"
# The odds box's rows as [label, percent] ([title, ""] for a table's title), once shown.
ODDS_ROWS = """
const box = document.getElementById('odds');
if (!box || box.hidden) return null;
return [...box.querySelectorAll('tr')].map((r) => {
  const cells = [...r.children].map((c) => c.textContent);
  return cells.length === 2 ? cells : [cells[0], ''];
});
"""


async def to_charges(h: Harness, seed: bytes) -> Unit:
    """Agincourt through the command, approach, shooting and tactical steps: France's horse
    stands 2.9 SF from York's Vaward when the charges step opens; the horse."""
    where = h.channel("hundred-years")
    await set_up(h)
    await start(h, where, BATTLE, seed)
    await command_phase(h)
    await approach_and_shooting(h)
    await give(h, h.bob, where, "move", HORSE, x=6, y=5.5, option="extra_d6")
    await confirm(h, where, BATTLE, h.alice, h.bob)
    state = await orders_page.stored_state(h)
    assert state.cursor.step == "charges", state.cursor
    return next(u for u in state.units if u.name == HORSE)


async def open_table(h: Harness, driver: Any) -> None:
    """France's player asks for their link and opens it; once its script has run."""
    answer = await h.slash(h.bob, "battle table", channel=h.channel("hundred-years"))
    found = LINK.search(answer.text)
    assert answer.ephemeral and found is not None, answer.text
    await page(driver.get, found[1])
    await page(until, driver, "return document.body.dataset.version")


def choose(driver: Any, select_id: str, value: str) -> None:
    """Choose an option of one of the form's selects."""
    Select(driver.find_element(By.ID, select_id)).select_by_value(value)


def click_unit(driver: Any, unit_id: str) -> None:
    """Click a unit where the map draws it."""
    drawn = driver.find_element(By.CSS_SELECTOR, f'#map g.unit[data-owner="{unit_id}"]')
    ActionChains(driver).move_to_element(drawn).click().perform()


async def odds_shown(
    h: Harness, driver: Any, target: str, *, on_map: bool = False
) -> tuple[str, list[list[str]]]:
    """Aim the charge at ``target`` in the form (or by clicking it on the map); once judged,
    the verdict and the odds box's rows."""
    judged = await page(driver.execute_script, JUDGED)
    if on_map:
        state = await orders_page.stored_state(h)
        await page(click_unit, driver, next(u.id for u in state.units if u.name == target))
        chosen = "return document.getElementById('param-target').value"
        assert await page(driver.execute_script, chosen) == target
    else:
        await page(choose, driver, "param-target", target)
    ok, said = await orders_page.verdict_after(driver, judged)
    rows: list[list[str]] = await page(until, driver, ODDS_ROWS)
    services: Any = h.bot.services  # type: ignore[attr-defined]
    place = Place(h.world.guild_id, h.channel("hundred-years").id)
    asked = await services.odds.ask(place, h.bob.id, "charge", HORSE, target)
    title = await page(orders_page.text_of, driver, By.CSS_SELECTOR, "#odds h3")
    assert title == f"Odds: {asked.odds.title}", title
    return f"{ok}: {said}", rows


def expected(answer: Any) -> list[list[str]]:
    """`/odds`'s tables as the page lists them (the percent as `/odds` writes it)."""
    rows: list[list[str]] = []
    for table in answer.odds.tables:
        rows.append([table.title, ""])
        rows += [[c.label, f"{c.percent:.1f}%"] for c in table.chances]
    return rows


async def test_a_charge_aimed_at_two_targets_shows_each_pairs_odds(
    make_aide: e2e.MakeHarness, browser: Any, fixed_seed: bytes, tmp_path: Path
) -> None:
    h = await make_aide(web_port=0)
    horse = await to_charges(h, fixed_seed)
    await open_table(h, browser)
    drawn = await page(
        browser.find_element, By.CSS_SELECTOR, f'#map g.unit[data-owner="{horse.id}"]'
    )
    # Its leader's mark sits on the unit's middle: the keyboard's way opens the unit itself.
    await page(browser.execute_script, "arguments[0].focus()", drawn)
    await page(ActionChains(browser).send_keys(Keys.ENTER).perform)
    await page(until, browser, "return !document.getElementById('order-panel').hidden")
    kind = await page(browser.execute_script, "return document.getElementById('order-kind').value")
    assert kind == "charge"
    no_odds = "return !document.querySelector('#odds:not([hidden])')"
    assert await page(browser.execute_script, no_odds)  # no target yet: no odds

    services: Any = h.bot.services  # type: ignore[attr-defined]
    place = Place(h.world.guild_id, h.channel("hundred-years").id)
    seen = []
    for n, (target, verdict) in enumerate(zip(TARGETS, VERDICTS, strict=True)):
        said, rows = await odds_shown(h, browser, target, on_map=n == 1)  # the 2nd by pointing
        assert verdict in said, said
        asked = await services.odds.ask(place, h.bob.id, "charge", HORSE, target)
        assert rows == expected(asked), (target, rows)
        seen.append(rows)
    assert seen[0] != seen[1]
    assumes = await page(orders_page.text_of, browser, By.CSS_SELECTOR, "#odds .assumes")
    assert assumes.startswith(f"Assumed: as if {HORSE} charged home"), assumes

    await page(keep_screenshot, browser, tmp_path, "war-table-odds.png")

    # A kind without odds hides the box (once judged: no request left in flight at the end).
    judged = await page(browser.execute_script, JUDGED)
    await page(choose, browser, "order-kind", "hold")
    ok, said = await orders_page.verdict_after(browser, judged)
    assert ok == "true", said
    assert await page(browser.execute_script, no_odds)
    errors = [e for e in await page(browser.get_log, "browser") if e["level"] == "SEVERE"]
    assert not errors, errors
