"""Deadlines, races and the GM's tools through the services, on a real SQLite file."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import timedelta

import pytest
from sqlalchemy import select

from bot.db.models import Deadline, DeadlineKind, DeadlineStatus, StageLog
from bot.db.session import Database
from bot.deadlines import DueDeadline
from bot.errors import Conflict, InvalidInput, PermissionDenied
from bot.scheduling import DeadlineScheduler
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.gm import Change, Placement, TimeLeft
from bot.services.play import OrderInput, Reminder
from bot.services.settings import DeadlinePolicy
from bot.services.stages import StageReport
from rules_core.verify import verify
from tests.bot.battle_setup import START, deployed_battle
from tests.conftest import ALICE, BOB, GM
from tests.e2e.fake_clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    """The services' clock."""
    return FakeClock(START)


@pytest.fixture
def services(db: Database, clock: FakeClock) -> Services:
    """Services on the fake clock."""
    return Services.build(db, rng=random.Random(1), clock=clock)


async def started(services: Services, place: Place) -> StageReport:
    """A skirmish battle waiting for deployment orders."""
    await deployed_battle(services, place)
    return await services.play.start(place, GM)


async def fire_deadlines(
    services: Services, db: Database, clock: FakeClock, then: timedelta | None = None
) -> list[object]:
    """Start a scheduler (firing what is overdue), optionally let time pass, and return what
    each deadline produced."""
    fired: list[object] = []

    async def handler(due: object) -> None:
        fired.append(await services.play.on_deadline(due))  # type: ignore[arg-type]

    scheduler = DeadlineScheduler(db, clock, handler)
    try:
        await scheduler.start()
        if then is not None:
            clock.advance(then)
            await scheduler.run_due()
    finally:
        scheduler.shutdown()
    return fired


async def deadlines(db: Database) -> list[tuple[DeadlineKind, DeadlineStatus, int]]:
    """Every deadline row: kind, status, stage."""
    async with db.read() as session:
        rows = await session.scalars(select(Deadline).order_by(Deadline.id))
        return [(d.kind, d.status, d.stage) for d in rows]


async def test_a_stage_opens_with_a_deadline_and_two_reminders(
    services: Services, place: Place, db: Database
) -> None:
    report = await started(services, place)
    assert report.battle.deadline_at == START + timedelta(hours=48)
    pending = [(k, s) for k, st, s in await deadlines(db) if st is DeadlineStatus.PENDING]
    assert sorted(pending) == sorted(
        [(DeadlineKind.STEP, 1), (DeadlineKind.REMINDER, 1), (DeadlineKind.REMINDER, 1)]
    )


async def test_reminder_pings_only_those_without_orders(
    services: Services, place: Place, db: Database, clock: FakeClock
) -> None:
    await started(services, place)
    await services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=26, y=6))
    fired = await fire_deadlines(services, db, clock, then=timedelta(hours=24))
    (reminder,) = fired
    assert isinstance(reminder, Reminder)
    assert reminder.user_ids == (BOB,)
    assert reminder.deadline_at == START + timedelta(hours=48)


async def test_deadline_resolves_with_defaults_and_names_the_missing(
    services: Services, place: Place, db: Database, clock: FakeClock
) -> None:
    first = await started(services, place)
    await services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=26, y=6))
    clock.advance(timedelta(hours=48))
    fired = await fire_deadlines(services, db, clock)
    reports = [f for f in fired if isinstance(f, StageReport)]
    assert len(reports) == 1
    assert reports[0].trigger == "deadline" and reports[0].missing == ("Blue",)
    assert reports[0].battle.stage == first.battle.stage + 1
    async with db.read() as session:
        log = await session.scalar(select(StageLog).where(StageLog.number == first.battle.stage))
    assert log is not None and log.missing == ["Blue"] and log.orders is not None
    assert [o["actor"] for o in log.orders] == ["a2"]


async def test_deadline_force_and_confirmation_race_resolve_once(
    services: Services, place: Place, db: Database
) -> None:
    report = await started(services, place)
    battle_id, stage = report.battle.id, report.battle.stage
    await services.play.confirm(place, ALICE)
    results = await asyncio.gather(
        services.play.resolve_stage(battle_id, stage, trigger="deadline"),
        services.gm.force(place, GM),
        services.play.confirm(place, BOB),
        return_exceptions=True,
    )
    resolved = [r for r in results if isinstance(r, StageReport)]
    resolved += [r.report for r in results if hasattr(r, "report") and r.report is not None]
    assert len(resolved) == 1
    async with db.read() as session:
        logs = (
            await session.scalars(select(StageLog).where(StageLog.resolved_at.is_not(None)))
        ).all()
    assert [log.number for log in logs] == [stage]


async def test_answering_a_question_and_a_stale_answer(services: Services, place: Place) -> None:
    await started(services, place)
    await services.play.confirm(place, ALICE)
    report = (await services.play.confirm(place, BOB)).report
    assert report is not None and report.decision is not None
    decision = report.decision
    winner = ALICE if decision.side == "a" else BOB
    loser = BOB if winner == ALICE else ALICE
    with pytest.raises(PermissionDenied):
        await services.play.answer(decision.battle_id, decision.stage, loser, None, "first")
    with pytest.raises(InvalidInput):
        await services.play.answer(decision.battle_id, decision.stage, winner, None, "sideways")
    after = await services.play.answer(decision.battle_id, decision.stage, winner, None, "first")
    assert after.trigger == "answered"
    assert after.battle.waiting_step == "Movement"
    with pytest.raises(Conflict, match="already been answered"):
        await services.play.answer(decision.battle_id, decision.stage, winner, None, "first")


async def test_pause_resume_and_extend(
    services: Services, place: Place, db: Database, clock: FakeClock
) -> None:
    await started(services, place)
    clock.advance(timedelta(hours=8))
    paused = await services.gm.pause(place, GM, "holiday")
    assert (paused.before, paused.after) == ("running", TimeLeft(40 * 3600))
    assert all(st is not DeadlineStatus.PENDING for _, st, _ in await deadlines(db))
    with pytest.raises(Conflict, match="paused"):
        await services.play.submit(place, ALICE, "hold", "Red Archers", OrderInput())
    clock.advance(timedelta(days=10))
    await services.gm.resume(place, GM, "back")
    view = await services.battles.view(place)
    assert view.deadline_at == clock.now() + timedelta(hours=40)
    await services.gm.extend(place, GM, 12, "slow week")
    assert (await services.battles.view(place)).deadline_at == clock.now() + timedelta(hours=52)
    with pytest.raises(PermissionDenied):
        await services.gm.extend(place, ALICE, 12, "mine")
    with pytest.raises(InvalidInput):
        await services.gm.extend(place, GM, 0, "nothing")


async def test_gm_set_and_move_are_on_record(services: Services, place: Place) -> None:
    await started(services, place)
    change = await services.gm.set_status(place, GM, "Blue Riders", "disordered", "true", "fell")
    assert (change.change, change.unit, change.field) == (Change.SET, "Blue Riders", "disordered")
    assert (change.before, change.after) == (None, True)
    moved = await services.gm.move(place, GM, "Blue Riders", "40,30", 90, "misplaced")
    assert moved.after == Placement(40, 30, 90)
    with pytest.raises(InvalidInput, match="off the table"):
        await services.gm.move(place, GM, "Blue Riders", "99,30", None, "oops")
    with pytest.raises(PermissionDenied):
        await services.gm.set_status(place, ALICE, "Blue Riders", "wounds", "2", "cheat")
    unit = next(u for u in (await services.battles.view(place)).state.units if u.id == "b3")
    assert (unit.x, unit.y, unit.facing, unit.status["disordered"]) == (40, 30, 90, True)


async def test_a_gm_change_without_its_reason_is_refused_by_the_service_and_changes_nothing(
    services: Services, place: Place
) -> None:
    # /gm makes the reason a required option; the war table and any other door reach the
    # service without Discord's check, so the service refuses a blank or overlong one itself.
    await started(services, place)
    before = await services.battles.view(place)
    with pytest.raises(InvalidInput, match="needs its `reason`"):
        await services.gm.move(place, GM, "Blue Riders", "40,30", 90, "   ")
    with pytest.raises(InvalidInput, match="at most 200 characters"):
        await services.gm.pause(place, GM, "x" * 201)
    with pytest.raises(InvalidInput, match="needs its `reason`"):
        await services.gm.end(place, GM, None, "")
    after = await services.battles.view(place)
    assert (after.status, after.state.units) == (before.status, before.state.units)
    change = await services.gm.pause(place, GM, "  holiday  ")
    assert change.reason == "holiday"  # kept as posted, without the padding


async def test_gm_set_refuses_a_status_the_ruleset_does_not_declare(
    services: Services, place: Place
) -> None:
    await started(services, place)
    before = (await services.battles.view(place)).state
    with pytest.raises(InvalidInput, match="no status `disorderd`.*disordered"):
        await services.gm.set_status(place, GM, "Blue Riders", "disorderd", "true", "typo")
    with pytest.raises(InvalidInput, match="disordered is a flag"):
        await services.gm.set_status(place, GM, "Blue Riders", "disordered", "3", "not a flag")
    assert (await services.battles.view(place)).state == before
    assert "disordered" in await services.lookups.status_fields(place)


async def test_undo_replays_the_previous_step_with_fresh_dice(
    services: Services, place: Place
) -> None:
    await started(services, place)
    await services.play.confirm(place, ALICE)
    report = (await services.play.confirm(place, BOB)).report
    assert report is not None and report.decision is not None
    change, undone = await services.gm.undo(place, GM, "wrong deployment")
    assert change.after.startswith("Set-up · Deployment")
    assert undone.battle.waiting_step == "Deployment"
    assert undone.battle.state.cursor.attempt == 1
    with pytest.raises(PermissionDenied):
        await services.gm.undo(place, ALICE, "me too")


async def test_a_second_undo_of_the_same_step_takes_the_next_fresh_attempt(
    services: Services, place: Place
) -> None:
    await started(services, place)
    for expected in (1, 2):
        await services.play.confirm(place, ALICE)
        await services.play.confirm(place, BOB)
        _, undone = await services.gm.undo(place, GM, "again")
        assert undone.battle.state.cursor.attempt == expected


async def test_end_writes_losses_back_reveals_the_seed_and_verifies(
    services: Services, place: Place
) -> None:
    await started(services, place)
    await services.gm.set_status(place, GM, "Blue Riders", "disordered", "yes", "test")
    await services.play.confirm(place, ALICE)
    await services.play.confirm(place, BOB)
    ended = await services.gm.end(place, GM, "Red", "Blue conceded")
    assert ended.result == "Red wins: Blue conceded"
    record = json.loads(ended.record)
    assert record["seed"] == ended.seed
    report = verify(record)
    assert report.ok, report.text()
    assert report.entries >= 3
    tampered = json.loads(ended.record)
    for entry in tampered["entries"]:
        if entry["rolls"]:
            entry["rolls"][0]["dice"][0]["face"] = entry["rolls"][0]["dice"][0]["face"] % 6 + 1
            break
    assert not verify(tampered).ok
    with pytest.raises(Exception, match="no battle in play"):
        await services.battles.view(place)


async def test_deadline_policy_is_the_campaigns(
    services: Services, place: Place, db: Database, clock: FakeClock
) -> None:
    await deployed_battle(services, place)
    with pytest.raises(PermissionDenied):
        await services.campaigns.set_deadlines(place, ALICE, 12, None, None, None)
    with pytest.raises(InvalidInput, match="Malformed reminders"):
        await services.campaigns.set_deadlines(place, GM, None, "soon", None, None)
    with pytest.raises(InvalidInput, match="`default`, `gm` or `ai`"):
        await services.campaigns.set_deadlines(place, GM, None, None, None, "skip")
    policy = await services.campaigns.set_deadlines(place, GM, 12, "6, 2", None, "gm")
    assert policy == DeadlinePolicy(step_hours=12, reminder_hours=(6, 2), missing="gm")
    assert policy.decision_hours == 24.0  # the default, kept
    report = await services.play.start(place, GM)
    assert report.battle.deadline_at == START + timedelta(hours=12)
    reminders = [
        s
        for k, st, s in await deadlines(db)
        if k is DeadlineKind.REMINDER and st is DeadlineStatus.PENDING
    ]
    assert len(reminders) == 2
    clock.advance(timedelta(hours=12))
    fired = await fire_deadlines(services, db, clock)
    notices = [f for f in fired if isinstance(f, Reminder) and f.late is not None]
    assert len(notices) == 1 and notices[0].user_ids == (GM,)
    assert set(notices[0].late or ()) == {ALICE, BOB}
    assert (await services.battles.view(place)).stage == report.battle.stage  # not resolved


class RecordingArmer:
    """Keeps what the services ask the scheduler to arm and disarm."""

    def __init__(self) -> None:
        self.armed: list[int] = []
        self.disarmed: list[int] = []

    def arm(self, deadline_id: int, due_at: object) -> None:
        """Note an armed deadline."""
        self.armed.append(deadline_id)

    def disarm(self, deadline_id: int) -> None:
        """Note a disarmed deadline."""
        self.disarmed.append(deadline_id)


async def test_gm_changes_arm_deadlines_through_the_play_services_armer(
    services: Services, place: Place, db: Database
) -> None:
    armer = RecordingArmer()
    services.play.armer = armer  # the bot sets only this one; the GM's tools share it
    await started(services, place)
    armed_at_start = list(armer.armed)
    await services.gm.pause(place, GM, "holiday")
    assert set(armer.disarmed) == set(armed_at_start)
    await services.gm.resume(place, GM, "back")
    async with db.read() as session:
        pending = set(
            await session.scalars(
                select(Deadline.id).where(Deadline.status == DeadlineStatus.PENDING)
            )
        )
    assert pending and pending <= set(armer.armed) - set(armed_at_start)


async def test_a_claimed_step_deadline_cancelled_before_its_handler_does_nothing(
    services: Services, place: Place, db: Database, clock: FakeClock
) -> None:
    """Deadlines due together are claimed as a batch and handled a few at a time: one
    cancelled (a GM moved it) after the claim but before its handler ran resolves nothing."""
    report = await started(services, place)
    battle_id, stage = report.battle.id, report.battle.stage
    async with db.read() as session:
        step = await session.scalar(
            select(Deadline).where(Deadline.kind == DeadlineKind.STEP, Deadline.stage == stage)
        )
    assert step is not None
    async with db.write() as session:
        row = await session.get(Deadline, step.id)
        assert row is not None
        row.status = DeadlineStatus.CANCELLED
    due = DueDeadline(step.id, battle_id, stage, DeadlineKind.STEP, step.due_at, {})
    assert await services.play.on_deadline(due) is None
    async with db.read() as session:
        logs = (
            await session.scalars(select(StageLog).where(StageLog.resolved_at.is_not(None)))
        ).all()
    assert logs == []
    # Still pending, the same deadline resolves the step.
    async with db.write() as session:
        row = await session.get(Deadline, step.id)
        assert row is not None
        row.status = DeadlineStatus.PENDING
    resolved = await services.play.on_deadline(due)
    assert isinstance(resolved, StageReport) and resolved.battle.stage == stage + 1
