"""The services' writes locked for their battle (#38): a player's order on one battle goes
through while another battle's write holds its lock (on PostgreSQL, in this process and in
another), waits for a write on its own battle, and a write never loads a battle it did not
lock."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.db.locks import MOVED_ON, SESSION_KEYS, WriteKeys
from bot.db.session import Database
from bot.errors import Conflict
from bot.services import Services
from bot.services.battle_state import load_battle, load_battle_by_id
from bot.services.campaigns import Place
from bot.services.order_params import OrderInput
from bot.services.write_keys import battle_at, battle_write, place_write
from tests.bot.battle_setup import deployed_battle
from tests.bot.test_db_locks import waits
from tests.conftest import ALICE, GM
from tests.databases import on_postgres

ONE, TWO = Place(10, 20), Place(10, 21)  # two channels, a campaign and battle in each


async def two_battles(services: Services) -> tuple[tuple[int, int], tuple[int, int]]:
    """Two started battles in two campaigns: each one's (battle, campaign) ids."""
    for place in (ONE, TWO):
        await deployed_battle(services, place)
        await services.play.start(place, GM)
    one, two = await battle_at(services.play.db, ONE), await battle_at(services.play.db, TWO)
    assert one is not None and two is not None and one != two
    return one, two


async def an_order(services: Services, place: Place) -> str:
    """Alice deploys her archers at ``place``; the order's unit."""
    view = await services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=26, y=6))
    return view.unit_name


async def test_a_write_locks_its_battle_and_never_loads_another(services: Services) -> None:
    (b1, c1), (b2, c2) = await two_battles(services)
    db = services.play.db
    async with place_write(db, ONE) as session:
        assert session.info[SESSION_KEYS] == WriteKeys(battle=b1, campaign=c1)
        assert (await load_battle(session, ONE)).battle.id == b1
        with pytest.raises(Conflict, match=MOVED_ON):
            await load_battle(session, TWO)
    async with battle_write(db, b2) as session:
        assert session.info[SESSION_KEYS] == WriteKeys(battle=b2, campaign=c2)
        with pytest.raises(Conflict, match=MOVED_ON):
            await load_battle_by_id(session, b1)
    async with battle_write(db, 999_999) as session:  # no such battle: locked as before
        assert session.info[SESSION_KEYS] == WriteKeys()
    async with place_write(db, Place(10, 99)) as session:  # no battle there
        assert session.info[SESSION_KEYS] == WriteKeys()


async def a_command(services: Services, place: Place, command: str) -> str:
    """A player's order (its unit) or a GM's extension of the deadline (its reason)."""
    if command == "order":
        return await an_order(services, place)
    return (await services.gm.extend(place, GM, 1, "a messenger was late")).reason


@pytest.mark.skipif(not on_postgres(), reason="PostgreSQL's advisory locks")
@pytest.mark.parametrize("same_process", [True, False])
@pytest.mark.parametrize(("command", "done"), [("order", "Red Archers"), ("gm", "a messenger")])
async def test_a_command_on_another_battle_goes_through_while_one_is_written(
    db_url: str, services: Services, same_process: bool, command: str, done: str
) -> None:
    (b1, _), _ = await two_battles(services)
    other_db = services.play.db if same_process else Database.from_url(db_url)
    other = services if same_process else Services.build(other_db, rng=random.Random(1))
    try:
        async with battle_write(services.play.db, b1):  # as a resolution of battle one would
            # A guard, not a timing: with one lock for every battle it never gets through.
            async with asyncio.timeout(30):
                assert (await a_command(other, TWO, command)).startswith(done)
    finally:
        if other_db is not services.play.db:
            await other_db.dispose()


@pytest.mark.skipif(not on_postgres(), reason="PostgreSQL's advisory locks")
async def test_an_order_on_the_battle_being_written_waits_for_it(
    db_url: str, services: Services
) -> None:
    (b1, _), _ = await two_battles(services)
    other_db = Database.from_url(db_url)
    other = Services.build(other_db, rng=random.Random(1))
    order: list[str] = []

    async def ordered() -> None:
        await an_order(other, ONE)
        order.append("order in")

    try:
        async with battle_write(services.play.db, b1):
            waiting = asyncio.create_task(ordered())
            while not await waits(services.play.db, other_db) and not order:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
            order.append("write out")
        await waiting
    finally:
        await other_db.dispose()
    assert order == ["write out", "order in"]


@pytest.mark.parametrize("command", ["extend", "end"])
async def test_a_gm_command_locks_its_own_battle(services: Services, command: str) -> None:
    (b1, c1), _ = await two_battles(services)
    seen: list[WriteKeys] = []
    db = services.gm.db
    opened = db.write

    def noting(**keys: int | None) -> object:
        seen.append(WriteKeys(battle=keys.get("battle"), campaign=keys.get("campaign")))
        return opened(**keys)

    db.write = noting  # type: ignore[assignment,method-assign]
    try:
        if command == "extend":
            await services.gm.extend(ONE, GM, 1, "a messenger was late")
        else:  # a battle's end writes its own sides' armies back: still its own lock
            await services.gm.end(ONE, GM, None, "the light failed")
    finally:
        db.write = opened  # type: ignore[method-assign]
    assert seen == [WriteKeys(battle=b1, campaign=c1)]  # not the whole database
