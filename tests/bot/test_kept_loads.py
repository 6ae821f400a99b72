"""#38: a resolution's keeping write is given the battle and campaign its rehearsal loaded (no
SELECT of them with the write lock held) while its claim shows that nothing of the battle or of
its campaign changed; a campaign write landing meanwhile makes the step worked out again."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event, select

from bot.db.models import Army, Battle, Campaign
from bot.db.session import _WRITER_OPTION, Database
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.play import OrderInput
from tests.bot.battle_setup import deployed_battle
from tests.bot.test_rehearsal import battle_id_of, services, version, watch_engine
from tests.conftest import ALICE, BOB, GM

__all__ = ["services"]  # the fixture, shared with test_rehearsal
LOADS = ("FROM battle ", "FROM battle_side", "FROM campaign", "FROM membership", "FROM army")


@contextmanager
def selects_in_writes(db: Database) -> Iterator[list[str]]:
    """The SELECT statements run inside write transactions meanwhile."""
    seen: list[str] = []

    def noted(conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        writing = conn.get_execution_options().get(_WRITER_OPTION, False)
        if writing and statement.lstrip().upper().startswith("SELECT"):
            seen.append(" ".join(statement.split()))

    engines = {db.engine.sync_engine, db.writers.sync_engine}
    for engine in engines:
        event.listen(engine, "before_cursor_execute", noted)
    try:
        yield seen
    finally:
        for engine in engines:
            event.remove(engine, "before_cursor_execute", noted)


def loads(statements: list[str]) -> list[str]:
    """The statements that load the battle, its sides, campaign, members or armies."""
    return [s for s in statements if any(table in s + " " for table in LOADS)]


async def campaign_version(db: Database) -> int:
    """The (only) campaign's version."""
    return await version(db, Campaign.version)


async def test_the_keeping_write_loads_no_battle_or_campaign(
    services: Services, db: Database, place: Place
) -> None:
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    battle_id, stage = await battle_id_of(db)
    await services.play.confirm(place, ALICE)
    with selects_in_writes(db) as seen:
        report = await services.play.resolve_stage(battle_id, stage, trigger="forced")
    assert report is not None and report.stage == stage + 1
    assert loads(seen) == [], loads(seen)
    async with db.read() as session:  # what the write made of the given rows was kept
        battle = await session.get(Battle, battle_id)
        assert battle is not None and battle.stage == stage + 1
    view = await services.battles.view(place)
    assert view.stage == stage + 1 and len(view.sides) == 2


async def test_a_campaign_write_while_the_step_resolves_has_it_worked_out_again(
    services: Services, db: Database, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    battle_id, stage = await battle_id_of(db)
    before = await campaign_version(db)

    selects: list[list[str]] = []

    async def member_changes(_args: Any) -> None:
        await services.campaigns.set_dm_calls(place, ALICE, True)
        selects[0].clear()  # the member's own write loads the campaign

    calls = watch_engine(monkeypatch, db, member_changes)
    with selects_in_writes(db) as seen:
        selects.append(seen)
        report = await services.play.resolve_stage(battle_id, stage, trigger="forced")
    assert report is not None
    assert await campaign_version(db) == before + 1
    assert [name for name, _ in calls].count("run") == 2  # worked out again
    assert loads(seen) == []  # and the second rehearsal's rows were given to the write


async def test_campaign_writes_bump_its_version_and_battle_writes_do_not(
    services: Services, db: Database, place: Place
) -> None:
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    seen = [await campaign_version(db)]
    await services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=26, y=6))
    seen.append(await campaign_version(db))  # an order: the battle's, not the campaign's
    await services.campaigns.set_dm_calls(place, BOB, True)  # a member
    seen.append(await campaign_version(db))
    async with db.write() as session:  # an army
        army = (await session.scalars(select(Army).limit(1))).one()
        army.roster = {**army.roster, "note": "changed"}
    seen.append(await campaign_version(db))
    async with db.write() as session:  # the campaign itself
        campaign = (await session.scalars(select(Campaign))).one()
        campaign.settings = {**campaign.settings, "note": "changed"}
    seen.append(await campaign_version(db))
    assert seen[0] == seen[1] < seen[2] < seen[3] < seen[4]
