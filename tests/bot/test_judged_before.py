"""#38: an order is judged before its write (as a resolution is rehearsed): the write that
keeps it is given the verdict back and makes no engine call with the write lock held. A
refusal is given in the same words (by the read that decides it) and changes nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from bot.db.models import Battle, BattleOrder
from bot.db.session import Database
from bot.errors import RefusedOrder
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.play import OrderInput
from tests.bot.battle_setup import deployed_battle
from tests.bot.keeping import services_on
from tests.bot.test_rehearsal import watch_engine
from tests.conftest import ALICE, GM


async def started(db: Database, place: Place) -> Services:
    """The skirmish battle begun, at its deployment step."""
    services = services_on(db)
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    return services


async def test_an_order_is_judged_before_its_write(
    db: Database, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    services = await started(db, place)
    calls = watch_engine(monkeypatch, db)
    view = await services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=26, y=6))
    assert view.unit_name == "Red Archers"
    assert calls, "the order was judged"
    assert [name for name, held in calls if held] == [], "an engine call inside the write"
    async with db.read() as session:
        assert await session.scalar(select(func.count()).select_from(BattleOrder)) == 1


async def test_a_refused_order_is_refused_by_its_write_and_changes_nothing(
    db: Database, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    services = await started(db, place)
    async with db.read() as session:
        version = await session.scalar(select(Battle.version))
    calls = watch_engine(monkeypatch, db)
    with pytest.raises(RefusedOrder, match="Red Archers"):  # far out of its deployment zone
        await services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=24, y=34))
    assert [name for name, held in calls if held] == []
    async with db.read() as session:
        assert await session.scalar(select(func.count()).select_from(BattleOrder)) == 0
        assert await session.scalar(select(Battle.version)) == version
