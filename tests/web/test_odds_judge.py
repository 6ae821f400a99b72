"""The odds beside a judged order: a Tree of Battles charge aimed at the war table carries the
same chances as `/odds` gives for that pair, on what the player may see; a move has none; only
the unit's own player is answered, and a judgement keeps nothing."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

import bot.services.battles
from bot.db.session import Database
from bot.presentation.odds import odds_text
from bot.rendering.odds_chart import percent
from bot.services import Services
from bot.services.intake import Wanted
from bot.services.odds import OddsAnswer
from bot.services.order_params import OrderInput
from tests.bot.test_tree_of_battles_battle import next_stage, set_up
from tests.conftest import ALICE, BOB, GM
from tests.e2e.fake_clock import FakeClock
from tests.web.actions import member, to_movement
from tests.web.table import PLACE, Table, client_of
from tests.web.test_actions import orders_kept

HORSE = "Vendôme's Horse"  # France's mounted contingent, in reach of two English ones
TARGETS = ("York's Vaward", "Right-wing Archers")


@pytest.fixture
async def charges(
    db: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Table]:
    """Agincourt at turn 1's charges step (the services test's orders up to it, its dice)."""
    monkeypatch.setattr(bot.services.battles, "new_seed", lambda: bytes(range(32)))
    services = Services.build(db, rng=random.Random(1), clock=clock)
    await set_up(services, PLACE)
    report = await services.play.start(PLACE, GM)
    while report.battle.state.cursor.step != "charges":
        report = await next_stage(services, PLACE, report)
    campaign_id = (await services.campaigns.info(PLACE)).id
    async with client_of(services) as client:
        yield Table(services, client, campaign_id)


def charge(target: str) -> dict[str, Any]:
    """The horse's charge at a target, as the page sends it."""
    return {"kind": "charge", "unit": HORSE, "params": {"target": target}}


def as_page(answer: OddsAnswer) -> dict[str, Any]:
    """What the page should show of `/odds`'s answer: its title, each table's title then its
    rows as `/odds`'s text lists them, its assumptions."""
    text = odds_text(answer)
    lines: list[list[str]] = []
    for table in answer.odds.tables:
        lines.append([table.title, ""])
        lines += [[c.label, percent(c.percent)] for c in table.chances]
    for label, chance in lines:  # a table's title in bold, a result with its chance
        said = rf"\*\*{re.escape(label)}\*\*" if not chance else rf"{re.escape(label)} +{chance}"
        assert re.search(said, text), (label, text)
    assumes = [f"Assumed: {note}" for note in answer.odds.notes]
    assert all(said in text for said in assumes)
    return {"title": answer.odds.title, "lines": lines, "assumes": "\n".join(assumes)}


async def test_a_charge_aimed_at_two_targets_has_each_pairs_odds_from_odds(
    charges: Table,
) -> None:
    player = await member(charges, BOB)
    before = await orders_kept(charges)
    shown = []
    for target in TARGETS:
        status, judged = await player.post("judge", charge(target))
        assert status == 200, judged
        asked = await charges.services.odds.ask(PLACE, BOB, "charge", HORSE, target)
        assert judged["odds"] == as_page(asked), target
        assert f"against {target}" in judged["odds"]["title"]
        assert "as if Vendôme's Horse charged home" in judged["odds"]["assumes"]
        shown.append(judged["odds"]["lines"])
    assert shown[0] != shown[1]
    assert await orders_kept(charges) == before


async def test_odds_are_for_the_units_own_player_only(charges: Table) -> None:
    before = await orders_kept(charges)
    other = await member(charges, ALICE)
    status, found = await other.post("judge", charge(TARGETS[0]))
    assert status == 409 and "not your turn" in found["error"] and "odds" not in found, found
    # The service itself answers only for the player's own units, whatever asks it.
    wanted = Wanted("charge", HORSE, OrderInput(named={"target": TARGETS[0]}))
    assert await charges.services.odds.aimed(PLACE, ALICE, wanted) is None
    assert await charges.services.odds.aimed(PLACE, BOB, wanted) is not None
    spectator = await member(charges, BOB, spectator=True)
    status, found = await spectator.post("judge", charge(TARGETS[0]))
    assert status == 403 and "odds" not in found, found
    status, held = await (await member(charges, BOB)).post("judge", {"kind": "hold", "unit": HORSE})
    assert status == 200 and held["ok"] is True and "odds" not in held, held
    assert await orders_kept(charges) == before


async def test_a_move_has_no_odds(table: Table) -> None:
    mover = await to_movement(table)
    status, found = await (await member(table, mover.user_id)).post("judge", mover.move())
    assert status == 200 and found["ok"] is True and "odds" not in found, found
