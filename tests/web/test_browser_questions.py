"""Questions on the page, in a real browser: a Heroic Age personal combat (as
tests/e2e/test_heroic_age_duel.py sets it up through the fake Discord) asks Guthrum's player
privately which card to discard. His page shows the question with its options as buttons; a
click answers it through `/answer`'s service and the step goes on. Wessex's player neither sees
the question on their page nor can answer it.
"""

from __future__ import annotations

import contextlib
from typing import Any

import aiohttp

import tests.e2e.conftest as e2e
from tests.e2e.sheet_battle import answer, confirm, give, question, start
from tests.e2e.test_heroic_age_turn import BATTLE, set_up
from tests.web.test_browser import LINK, page, until
from tests.web.test_browser_orders import (
    browser,
    fixed_seed,
    make_aide,
    make_harness,
    pytestmark,
    stored_state,
)
from tools.fake_discord import FakeUser
from tools.harness import Harness

with contextlib.suppress(ImportError):  # skipped with test_browser's marks
    from selenium.webdriver.common.by import By

__all__ = ["browser", "fixed_seed", "make_aide", "make_harness", "pytestmark"]
CHANNEL = "hundred-years"
ASKED = "Guthrum discards a card (1 of 3)"


async def to_the_private_question(h: Harness, seed: bytes) -> None:
    """Guthrum challenges King Alfred, Wessex accepts: Guthrum's player is asked privately."""
    where = h.channel(CHANNEL)
    await set_up(h)
    await start(h, where, BATTLE, seed)
    await confirm(h, where, BATTLE, h.alice, h.bob)  # deployment
    await answer(h, where, BATTLE, h.bob, question(h, where), "go second")
    challenge = await give(h, h.bob, where, "challenge", "Guthrum", leader="King Alfred")
    assert challenge.startswith("Guthrum challenges King Alfred"), challenge
    await confirm(h, where, BATTLE, h.alice, h.bob)
    await answer(h, where, BATTLE, h.alice, question(h, where), "accept the challenge (3 LP)")


async def link_of(h: Harness, user: FakeUser) -> str:
    """The user's war-table link, from `/battle table`."""
    answered = await h.slash(user, "battle table", channel=h.channel(CHANNEL))
    found = LINK.search(answered.text)
    assert answered.ephemeral and found is not None, answered.text
    return found[1]


async def as_member(h: Harness, user: FakeUser, decision: str) -> tuple[str, int, str]:
    """With the user's own link: their page's state.json, and their answer to the decision
    (its status, its refusal)."""
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        async with session.get(await link_of(h, user)) as opened:
            html, base = await opened.text(), str(opened.url)
        csrf = html.split('name="csrf-token" content="')[1].split('"')[0]
        async with session.get(base + "state.json") as state:
            seen = await state.text()
        headers = {"X-CSRF-Token": csrf}
        body = {"decision": decision, "choice": "1"}
        async with session.post(base + "api/answer", json=body, headers=headers) as tried:
            return seen, tried.status, (await tried.json()).get("error", "")


def question_buttons(driver: Any) -> list[str]:
    """The answer buttons of the page's first question."""
    found = driver.find_elements(By.CSS_SELECTOR, "#questions .answers button")
    return [str(b.text) for b in found]


def click_option(driver: Any, label: str) -> None:
    """Click the question's option with that label."""
    for found in driver.find_elements(By.CSS_SELECTOR, "#questions .answers button"):
        if found.text == label:
            found.click()
            return
    raise AssertionError(f"no option {label!r}")


async def test_a_private_question_answered_on_the_page_resumes_the_step(
    make_aide: e2e.MakeHarness, browser: Any, fixed_seed: bytes
) -> None:
    h = await make_aide(web_port=0)
    await to_the_private_question(h, fixed_seed)
    asked = (await stored_state(h)).pending
    assert asked is not None

    # Wessex's player: not on their page, and refused (nothing changes).
    seen, status, refusal = await as_member(h, h.alice, asked.decision.id)
    assert ASKED not in seen and "discards a card" not in seen
    assert status in (403, 404, 409) and refusal, (status, refusal)
    assert (await stored_state(h)).pending == asked

    # Guthrum's player: the question and its options, a click answers it.
    await page(browser.get, await link_of(h, h.bob))
    await page(until, browser, "return document.querySelector('#questions .answers button')")
    assert ASKED in await page(lambda: browser.find_element(By.ID, "questions").text)
    labels = await page(question_buttons, browser)
    assert labels[0].startswith("let the rules choose: ") and len(labels) == 8 + 1, labels
    await page(click_option, browser, labels[1])
    said = "const s = document.getElementById('answer-said'); return s.dataset.ok && s.textContent"
    words = await page(until, browser, said)
    assert "you answered: " in words and "Only your side and the GM see it." in words, words
    card = words.split("you answered: ")[1].split(".")[0]  # the option as sent: its id
    after = await stored_state(h)
    assert after.pending != asked  # the step went on: the next discard, or past the combat
    public = [m.content for m in h.messages(h.channel(CHANNEL)) if not m.ephemeral]
    assert f"{h.bob.mention} answered a private question." in public
    assert not any(labels[1] in text or f"answered: {card}" in text for text in public)
    errors = [e for e in await page(browser.get_log, "browser") if e["level"] == "SEVERE"]
    assert not errors, errors
