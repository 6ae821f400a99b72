"""The battle's losses come from what each stage's row keeps (#38): exactly what decoding
every earlier state gave, at every step, after an undo and for rows from before they were
kept, without decoding an earlier state.

Battles played through the services on a real SQLite file by the demo's scripted players.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import null, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import StageLog
from bot.db.session import Database
from bot.demo import GM, PLACE, StepClock, next_stage, play, set_up
from bot.services import Services, battles
from bot.services.stages import StageReport, battle_gone, gone_by
from rules_core import registry
from rules_core.events import event_from_dict
from rules_core.render import Gone, gone_each
from rules_core.state import BattleState
from tests.rendering.test_lost_over_battle import Reports

# Seeds whose battles lose units in several steps within four turns (of 17 and 37 steps).
PLAYED = [("skirmish", 2), ("hail_caesar", 2)]


async def decoded_gone(session: AsyncSession, battle_id: int, upto: int) -> tuple[Gone, ...]:
    """The losses as they were worked out before #38: every stage's start state decoded."""
    query = select(StageLog).where(StageLog.battle_id == battle_id).order_by(StageLog.number)
    every = list(await session.scalars(query))
    rows = [row for row in every if row.number < upto]
    current = next(row.start_state for row in every if row.number == upto)
    states = [BattleState.from_dict(row.start_state) for row in rows]
    states.append(BattleState.from_dict(current))
    steps = [
        (states[i], states[i + 1], [event_from_dict(e) for e in row.events], row.title)
        for i, row in enumerate(rows)
        if row.events is not None
    ]
    found = gone_each(steps)
    return found[-1] if found else ()


async def played(
    db: Database, monkeypatch: pytest.MonkeyPatch, ruleset: str, seed: int
) -> tuple[Services, list[StageReport]]:
    """A battle of ``ruleset`` played four turns from the seed, and every report it posted."""
    monkeypatch.setattr(battles, "new_seed", lambda: bytes(32 * [seed]))
    clock, rules = StepClock(), registry.get(ruleset).rules
    assert rules is not None
    services, log = Services.build(db, clock=clock), Reports()
    await set_up(services, ruleset, rules)
    await play(services, rules, clock, 4, log)
    return services, log.reports


async def stage_numbers(db: Database, battle_id: int) -> list[int]:
    """The numbers of the battle's stages."""
    async with db.read() as session:
        query = select(StageLog.number).where(StageLog.battle_id == battle_id)
        return sorted(await session.scalars(query))


async def same_at_every_stage(db: Database, battle_id: int) -> int:
    """Check ``gone_by`` against the decoded losses at every stage; how many differ in size."""
    sizes = set()
    for number in await stage_numbers(db, battle_id):
        async with db.read() as session:
            expected = await decoded_gone(session, battle_id, number)
            assert await gone_by(session, battle_id, number) == expected, number
        sizes.add(len(expected))
    return len(sizes)


@pytest.mark.parametrize(("ruleset", "seed"), PLAYED)
async def test_the_kept_losses_are_the_decoded_ones_at_every_step_old_rows_too(
    db: Database, monkeypatch: pytest.MonkeyPatch, ruleset: str, seed: int
) -> None:
    services, reports = await played(db, monkeypatch, ruleset, seed)
    battle_id = reports[0].battle.id
    assert await same_at_every_stage(db, battle_id) >= 3  # losses in several steps
    for report in reports:  # as posted, and as the outbox rebuilds them
        async with db.read() as session:
            assert report.gone == await decoded_gone(session, battle_id, report.stage)
        rebuilt = await services.outbox.rebuild(battle_id, report.stage)
        assert rebuilt is not None and rebuilt.gone == report.gone
    # Rows from before the losses were kept have their states and events decoded for them.
    numbers = await stage_numbers(db, battle_id)
    async with db.write() as session:  # the older half as the migration left them
        await session.execute(
            update(StageLog)
            .where(StageLog.battle_id == battle_id, StageLog.number <= numbers[-1] // 2)
            .values(unit_names=null(), gone_reasons=null())
        )
    assert await same_at_every_stage(db, battle_id) >= 3


@pytest.fixture
def decodes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts every BattleState decoded."""
    counted: list[int] = []
    decode = BattleState.from_dict

    def counting(data: Any) -> BattleState:
        counted.append(1)
        return decode(data)

    monkeypatch.setattr(BattleState, "from_dict", counting)
    yield counted


async def test_the_losses_decode_no_earlier_state(
    db: Database, monkeypatch: pytest.MonkeyPatch, decodes: list[int]
) -> None:
    _, reports = await played(db, monkeypatch, "skirmish", 2)
    last, before = reports[-1], len(decodes)
    assert before > 0  # the counter counts
    async with db.read() as session:
        assert await gone_by(session, last.battle.id, last.stage) == last.gone != ()
        assert await battle_gone(session, last.battle.id, last.battle.state) == last.gone
    assert len(decodes) == before


async def test_an_undone_step_leaves_no_losses_behind(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(battles, "new_seed", lambda: bytes(32 * [2]))
    clock, rules = StepClock(), registry.get("skirmish").rules
    assert rules is not None
    services = Services.build(db, clock=clock)
    await set_up(services, "skirmish", rules)
    report = await services.play.start(PLACE, GM)
    while not report.lost:  # play on to the first step that loses a unit
        clock.tick()
        report = await next_stage(services, rules, report.battle)
    assert report.ended is None
    lost = report.lost[0]
    assert any(gone.line.startswith(f"{lost.name}: ") for gone in report.gone)
    _, undone = await services.gm.undo(PLACE, GM, "a ruling was wrong")
    assert lost.id in {unit.id for unit in undone.battle.state.units}  # back on the table
    assert not any(gone.line.startswith(f"{lost.name}: ") for gone in undone.gone)
    clock.tick()
    await next_stage(services, rules, undone.battle)  # and the step played again
    await same_at_every_stage(db, report.battle.id)
    async with db.read() as session:
        assert undone.gone == await decoded_gone(session, report.battle.id, undone.stage)
