"""#38 item 1: a resolution's engine work runs outside any write transaction; a write to the
battle landing meanwhile makes it work the step out again, with that write included."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select

from bot.db.models import Battle, StageLog
from bot.db.session import Database
from bot.services import Services, rehearsal, resolving
from bot.services.campaigns import Place
from bot.services.play import OrderInput
from rules_core import engine
from tests.bot.battle_setup import START, deployed_battle
from tests.conftest import ALICE, BOB, GM
from tests.e2e.fake_clock import FakeClock

ENOUGH_S = 10  # a bound for the old code's deadlock, not a timing assertion


@pytest.fixture
def services(db: Database) -> Services:
    """Services on the fake clock."""
    return Services.build(db, rng=random.Random(1), clock=FakeClock(START))


def watch_engine(
    monkeypatch: pytest.MonkeyPatch, db: Database, during: Callable[[Any], Any] | None = None
) -> list[tuple[str, bool]]:
    """Every engine call, with whether the bot's write turn was held when it ran; ``during``
    is awaited inside the first ``engine.run`` call."""
    calls: list[tuple[str, bool]] = []
    real = resolving._run

    async def watched(worker: Any, work: Any, args: Any, kwargs: Any) -> Any:
        calls.append((getattr(work, "__name__", "?"), db._turns.busy()))
        first_run = [name for name, _ in calls].count("run") == 1
        if during is not None and work is engine.run and first_run:
            await during(args)
        return await real(worker, work, args, kwargs)

    monkeypatch.setattr(resolving, "_run", watched)
    return calls


async def battle_id_of(db: Database) -> tuple[int, int]:
    """The (only) battle's id and stage."""
    async with db.read() as session:
        battle = (await session.scalars(select(Battle))).one()
        return battle.id, battle.stage


async def test_no_engine_call_inside_a_write(
    services: Services, db: Database, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    calls = watch_engine(monkeypatch, db)
    await services.play.confirm(place, ALICE)
    done = await services.play.confirm(place, BOB)
    assert done.report is not None and done.report.decision is not None
    assert calls and not [name for name, held in calls if held]


async def test_an_order_landing_while_the_step_resolves_is_included(
    services: Services, db: Database, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    battle_id, stage = await battle_id_of(db)  # deployment: Alice re-places a unit meanwhile

    async def late_order(_args: Any) -> None:
        given = services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=26, y=6))
        await asyncio.wait([asyncio.ensure_future(given)], timeout=ENOUGH_S)

    calls = watch_engine(monkeypatch, db, late_order)
    report = await services.play.resolve_stage(battle_id, stage, trigger="forced")
    assert report is not None
    async with db.read() as session:
        log = await session.scalar(
            select(StageLog).where(StageLog.battle_id == battle_id, StageLog.number == stage)
        )
    assert log is not None and log.orders is not None
    assert [o["kind"] for o in log.orders] == ["place"], log.orders
    assert [name for name, _ in calls].count("run") == 2  # worked out again with the order
    # The order's own check is made before its write too (test_judged_before.py).
    assert [name for name, held in calls if held] == []


async def test_two_resolutions_of_one_battle_resolve_it_once(
    services: Services, db: Database, place: Place
) -> None:
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    battle_id, stage = await battle_id_of(db)
    both = await asyncio.gather(
        services.play.resolve_stage(battle_id, stage, trigger="forced"),
        services.play.resolve_stage(battle_id, stage, trigger="forced"),
    )
    assert sorted(r is None for r in both) == [False, True]
    assert (await battle_id_of(db))[1] == stage + 1


async def test_two_battles_resolving_at_once_both_resolve(
    services: Services, db: Database, place: Place
) -> None:
    other = Place(place.guild_id, place.channel_id + 1)
    await deployed_battle(services, place)
    await deployed_battle(services, other)
    firsts = [await services.play.start(p, GM) for p in (place, other)]
    both = await asyncio.gather(
        *(services.play.resolve_stage(r.battle.id, r.stage, trigger="forced") for r in firsts)
    )
    assert all(r is not None for r in both)
    assert [r.stage for r in both if r is not None] == [r.stage + 1 for r in firsts]
    assert rehearsal.hold_ms()


async def test_an_answer_and_a_start_run_the_engine_outside_the_write(
    services: Services, db: Database, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    await deployed_battle(services, place)
    calls = watch_engine(monkeypatch, db)
    await services.play.start(place, GM)
    await services.play.confirm(place, ALICE)
    done = await services.play.confirm(place, BOB)
    assert done.report is not None and done.report.decision is not None
    question = done.report.decision
    chooser = question.user_ids[0]
    answered = await services.play.answer(
        question.battle_id, question.stage, chooser, question.decision_id, question.options[0][0]
    )
    assert answered is not None and answered.stage == question.stage + 1
    names = [name for name, _ in calls]
    assert "answer" in names and "settle" in names
    assert not [name for name, held in calls if held]


async def test_two_processes_resolving_one_battle_and_two_battles(
    db_url: str, db: Database, place: Place
) -> None:
    """Two bots on one database file (each its own engine, connections and write queue, as
    two processes have): the same step tried by both resolves once; two battles both do."""
    other = Place(place.guild_id, place.channel_id + 1)
    first = Services.build(db, rng=random.Random(1), clock=FakeClock(START))
    second_db = Database.from_url(db_url)
    try:
        second = Services.build(second_db, rng=random.Random(2), clock=FakeClock(START))
        for where in (place, other):
            await deployed_battle(first, where)
        started = [await first.play.start(where, GM) for where in (place, other)]
        same = started[0]
        both = await asyncio.gather(
            first.play.resolve_stage(same.battle.id, same.stage, trigger="forced"),
            second.play.resolve_stage(same.battle.id, same.stage, trigger="forced"),
        )
        assert sorted(r is None for r in both) == [False, True]
        async with db.read() as session:
            logs = await session.scalars(
                select(StageLog.number)
                .where(StageLog.battle_id == same.battle.id)
                .order_by(StageLog.number)
            )
            assert list(logs) == [same.stage, same.stage + 1]  # resolved once, not twice
        now_at = next(r for r in both if r is not None)  # where the first battle waits now
        apart = started[1]
        moved = await asyncio.gather(
            first.play.resolve_stage(apart.battle.id, apart.stage, trigger="forced"),
            second.play.resolve_stage(now_at.battle.id, now_at.stage, trigger="forced"),
        )
        assert [r.stage if r else None for r in moved] == [apart.stage + 1, now_at.stage + 1]
    finally:
        await second_db.dispose()


async def version(db: Database, column: Any = Battle.version) -> int:
    """The (only) battle's version (or the only row's ``column``)."""
    async with db.read() as session:
        found: int = (await session.scalars(select(column))).one()
        return found


async def test_every_write_to_the_battle_bumps_its_version(
    services: Services, db: Database, place: Place
) -> None:
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    seen = [await version(db)]
    await services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=26, y=6))
    seen.append(await version(db))
    await services.play.withdraw(place, ALICE, "Red Archers")
    seen.append(await version(db))
    await services.play.mine(place, ALICE)  # a read changes nothing
    seen.append(await version(db))
    await services.play.confirm(place, ALICE)
    seen.append(await version(db))
    assert seen[0] < seen[1] < seen[2] == seen[3] < seen[4]
