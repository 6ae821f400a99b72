"""Stages: each point where a battle waits for input, with its history row and deadlines.

Moving a battle on always goes through ``advance``: it stores what the engine did, appends the
record entries, keeps the new state, and opens the next stage with fresh deadlines, all in the
caller's one write transaction. Orders, confirmations and deadlines carry the stage number,
so anything that arrives for a stage already resolved finds nothing to do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import (
    BattleOrder,
    BattleStatus,
    Campaign,
    Deadline,
    DeadlineKind,
    Readiness,
    StageLog,
)
from bot.services import plans, settings
from bot.services.battle_state import (
    BattleView,
    Loaded,
    cancel_deadlines,
    subject_words,
    users_for,
    view_of,
)
from bot.services.endings import EndReport, finish
from bot.services.kept_reads import remembered
from bot.services.records import append_entries
from bot.services.settings import DeadlinePolicy
from bot.services.standing_answers import answer_standing
from bot.services.state_encoding import encoded
from rules_core import engine
from rules_core.decisions import Decision
from rules_core.engine import Resolution
from rules_core.events import Event, event_from_dict, event_to_dict
from rules_core.orders import Order
from rules_core.planning import MAX_TURN_STEPS
from rules_core.render import (
    Gone,
    Renderer,
    UnitNames,
    gone_reasons,
    gone_through,
    unit_names,
)
from rules_core.state import BattleState, Unit
from rules_core.steps import active_side


@dataclass(frozen=True)
class DecisionView:
    """A question waiting for a player or the GM, for buttons."""

    battle_id: int
    stage: int
    decision_id: str
    question: str
    options: tuple[tuple[str, str], ...]
    default: str
    side: str
    user_ids: tuple[int, ...]
    deadline_at: datetime | None
    answer: str = "option"  # what the answer is: an option, unit, leader, point, number, facing
    low: float | None = None
    high: float | None = None
    private: bool = False  # asked of ``side`` alone: its words and options are theirs


@dataclass(frozen=True)
class StageReport:
    """What resolving a stage did, and where the battle waits now."""

    title: str
    trigger: str
    lines: tuple[str, ...]
    events: tuple[Event, ...]
    missing: tuple[str, ...]
    battle: BattleView
    decision: DecisionView | None = None
    ended: EndReport | None = None
    lost: tuple[Unit, ...] = ()  # units that left the table in the step, as they last stood
    stage: int = 0  # the stage this result opened: its row carries the outbox marker
    questions: tuple[DecisionView, ...] = ()  # every open question, ``decision`` the first
    calls: tuple[plans.CallToArms, ...] = ()  # players whose part of the turn opens now
    gone: tuple[Gone, ...] = ()  # every unit the battle lost so far, with when and why


@dataclass
class Arming:
    """Deadline rows to arm and ids to disarm once the transaction has committed."""

    armed: list[tuple[int, datetime]] = field(default_factory=list)
    disarmed: list[int] = field(default_factory=list)


def policy(campaign: Campaign) -> DeadlinePolicy:
    """The campaign's deadline policy (the defaults where it sets none)."""
    return settings.load(campaign).deadlines


async def stage_orders(session: AsyncSession, battle_id: int, stage: int) -> list[BattleOrder]:
    """The orders given for one stage, in the order they were given."""
    rows = await session.scalars(
        select(BattleOrder)
        .where(BattleOrder.battle_id == battle_id, BattleOrder.stage == stage)
        .order_by(BattleOrder.submitted_at, BattleOrder.id)
    )
    return list(rows)


async def given_orders(
    session: AsyncSession, battle_id: int, stage: int
) -> list[tuple[str, Order]]:
    """(side, order) for each order given for a stage, in the order given: ``stage_orders`` as
    plain values, which a resolution's rehearsal reads for its write (``kept_reads``)."""

    async def read() -> list[tuple[str, Order]]:
        rows = await session.execute(
            select(BattleOrder.side_id, BattleOrder.actor, BattleOrder.kind, BattleOrder.params)
            .where(BattleOrder.battle_id == battle_id, BattleOrder.stage == stage)
            .order_by(BattleOrder.submitted_at, BattleOrder.id)
        )
        return [(side, Order(actor, kind, params)) for side, actor, kind, params in rows]

    return await remembered(session, battle_id, ("given_orders", stage), read)


async def ready_sides(session: AsyncSession, battle_id: int, stage: int) -> set[str]:
    """The sides that confirmed their orders for a stage."""

    async def read() -> set[str]:
        rows = await session.scalars(
            select(Readiness.side_id).where(
                Readiness.battle_id == battle_id, Readiness.stage == stage
            )
        )
        return set(rows)

    return await remembered(session, battle_id, ("ready_sides", stage), read)


async def set_deadlines(
    session: AsyncSession, loaded: Loaded, now: datetime, hours: float, arming: Arming
) -> None:
    """The stage's deadline ``hours`` from now, with reminders before it (not for questions)."""
    battle = loaded.battle
    due = now + timedelta(hours=hours)
    battle.deadline_at = due  # before the next statement flushes the battle's row: one UPDATE
    arming.disarmed += await cancel_deadlines(session, battle.id)
    pending = loaded.state.pending is not None
    rows = [
        Deadline(
            battle_id=battle.id,
            stage=battle.stage,
            due_at=due,
            note={},
            kind=DeadlineKind.DECISION if pending else DeadlineKind.STEP,
        )
    ]
    if not pending:
        for before in policy(loaded.campaign).reminder_hours:
            when = due - timedelta(hours=float(before))
            if when > now:
                reminder = Deadline(
                    battle_id=battle.id,
                    stage=battle.stage,
                    due_at=when,
                    kind=DeadlineKind.REMINDER,
                    note={"hours": before},
                )
                rows.append(reminder)
    session.add_all(rows)
    await session.flush()
    arming.armed += [(row.id, row.due_at) for row in rows]


def fit_to_column(text: str, limit: int | None) -> str:
    """The text cut to a column's length with an ellipsis (a step's title names its subject,
    and long army names could exceed it: PostgreSQL refuses what SQLite would keep)."""
    if limit is None or len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


async def open_stage(session: AsyncSession, loaded: Loaded, now: datetime, arming: Arming) -> None:
    """Number a new stage, keep its starting state, and set its deadlines."""
    battle, state = loaded.battle, loaded.state
    battle.stage += 1
    battle.stage_started_at = now
    waiting = engine.waiting(loaded.rules, state)
    session.add(
        StageLog(
            battle_id=battle.id,
            number=battle.stage,
            turn=state.cursor.turn,
            step=state.cursor.step,
            title=fit_to_column(stage_title(loaded), StageLog.title.type.length),
            start_state=encoded(state),  # as ``save`` stored it: encoded once
            unit_names=unit_names(state),
            started_at=now,
        )
    )
    if waiting.finished or battle.status is not BattleStatus.RUNNING:
        battle.deadline_at = None  # flushed with the battle's row (as ``set_deadlines``)
        arming.disarmed += await cancel_deadlines(session, battle.id)
        return
    await set_deadlines(session, loaded, now, stage_hours(loaded), arming)


def stage_hours(loaded: Loaded) -> float:
    """How long the open stage waits: its question's or step's own length if it has one
    (scaled by the campaign's policy), else the campaign's deadline for questions or steps."""
    rules, state = policy(loaded.campaign), loaded.state
    if state.pending is not None:
        return settings.decision_deadline(rules, state.pending.decision.deadline_hours)
    step = loaded.rules.sequence.step(state.cursor.step)
    return settings.step_deadline(rules, step.deadline_hours)


def stage_title(loaded: Loaded) -> str:
    """``Turn 2 · Movement (Red)``: where the battle stands, in words."""
    state = loaded.state
    waiting = engine.waiting(loaded.rules, state)
    turn = "Set-up" if state.cursor.turn == 0 else f"Turn {state.cursor.turn}"
    # The side whose turn or activation it is, not whoever a pending question waits for.
    side = active_side(loaded.rules.sequence, state.cursor)
    names = {s.side_id: s.name for s in loaded.battle.sides}
    whose = f" ({names.get(side, side)})" if side else ""
    return f"{turn} · {waiting.title}{subject_words(state)}{whose}"


async def _keep_log(
    session: AsyncSession,
    loaded: Loaded,
    orders: Sequence[Order],
    result: Resolution,
    now: datetime,
    trigger: str,
    missing: Sequence[str],
) -> None:
    """Write the resolved stage's log (its orders and events) and the record's new entries."""
    battle = loaded.battle
    # The record first: its last number is read before the session changes anything, so a
    # rehearsal's answer stands for the keeping write (``kept_reads``).
    await append_entries(session, battle.id, result.entries)
    # One UPDATE, no SELECT of the log first: one statement fewer with the write lock held.
    await session.execute(
        update(StageLog)
        .where(StageLog.battle_id == battle.id, StageLog.number == battle.stage)
        .values(
            orders=[o.to_dict() for o in orders],
            events=[event_to_dict(e) for e in result.events],
            resolved_at=now,
            trigger=trigger,
            missing=list(missing),
            gone_reasons={u: list(said) for u, said in gone_reasons(result.events).items()},
        )
        .execution_options(synchronize_session=False)
    )


async def advance(
    session: AsyncSession,
    loaded: Loaded,
    result: Resolution,
    *,
    trigger: str,
    now: datetime,
    orders: Sequence[Order] = (),
    missing: Sequence[str] = (),
    gone: bool = True,
) -> tuple[StageReport, Arming]:
    """Keep what the engine did to the current stage (first answering every open question a
    standing instruction covers, then carried on through every later step its players planned
    or are done for) and open the next one. Without ``gone`` the report's lost units are left
    for ``gone_by`` to read after the write."""
    battle = loaded.battle
    title = stage_title(loaded)
    orders, consult = list(orders), set[str]()
    # Read before anything changes, so a rehearsal's answer stands for the keeping write.
    oldest = await plans.oldest_planned(session, battle.id)
    for _ in range(MAX_TURN_STEPS):
        result = await answer_standing(session, loaded, result)
        carried = await plans.through_planned(session, loaded, result, consult)
        orders += carried.orders
        moved = carried.result.state is not result.state
        result = carried.result
        if not moved:
            break
    await _keep_log(session, loaded, orders, result, now, trigger, missing)
    before = loaded.state
    loaded.save(result.state)
    arming = Arming()
    await open_stage(session, loaded, now, arming)
    turn = await plans.turn_rows(session, loaded, oldest)  # read once for the three below
    await plans.adopt(session, loaded, now, consult, turn)
    due = plans.plan_deadline(loaded, now, consult, turn)
    if due is not None and due != battle.deadline_at:
        hours = (due - now).total_seconds() / 3600
        await set_deadlines(session, loaded, now, hours, arming)
    calls = await plans.calls_to_arms(session, loaded, now, turn)
    ended = None
    if loaded.state.outcome is not None:
        ended, disarmed = await finish(session, loaded, loaded.state.outcome, now)
        arming.disarmed += disarmed
    renderer = Renderer.for_state(loaded.state, before)  # names of units lost in the step
    report = StageReport(
        title,
        trigger,
        tuple(renderer.lines(result.events)),
        result.events,
        tuple(missing),
        view_of(loaded),
        decision_view(loaded),
        ended,
        lost_units(before, loaded.state),
        loaded.battle.stage,
        decision_views(loaded),
        calls,
        await battle_gone(session, battle.id, loaded.state) if gone else (),
    )
    return report, arming


async def gone_by(session: AsyncSession, battle_id: int, stage: int) -> tuple[Gone, ...]:
    """``battle_gone`` for the step a report opened, from the steps' logs (as the outbox does)."""
    found = await session.execute(
        select(StageLog.unit_names).where(StageLog.battle_id == battle_id, StageLog.number == stage)
    )
    opened = found.first()
    if opened is None:
        return ()
    names = opened.unit_names
    if names is None:  # a row from before the names were kept
        names = (await _decoded_names(session, battle_id, [stage]))[stage]
    return await _gone(session, battle_id, names, stage)


async def battle_gone(
    session: AsyncSession, battle_id: int, current: BattleState, upto: int | None = None
) -> tuple[Gone, ...]:
    """Every unit the battle has lost, with when and why, by the stages before ``upto`` (all
    if None), ``current`` the state they left."""
    return await _gone(session, battle_id, unit_names(current), upto)


async def _gone(
    session: AsyncSession, battle_id: int, current: UnitNames, upto: int | None
) -> tuple[Gone, ...]:
    """``battle_gone`` from each stage's kept units and reasons: no earlier state decoded,
    but for rows written before they were kept."""
    query = (
        select(StageLog.number, StageLog.title, StageLog.unit_names, StageLog.gone_reasons)
        .where(StageLog.battle_id == battle_id)
        .order_by(StageLog.number)
    )
    if upto is not None:
        query = query.where(StageLog.number < upto)
    rows = (await session.execute(query)).all()
    unknown = [row.number for row in rows if row.unit_names is None]
    decoded = await _decoded_names(session, battle_id, unknown) if unknown else {}
    names = [decoded.get(row.number, row.unit_names) for row in rows] + [current]
    unsaid = [row.number for row in rows if row.gone_reasons is None]
    said = await _decoded_reasons(session, battle_id, unsaid) if unsaid else {}
    reasons = [said.get(row.number, row.gone_reasons) for row in rows]
    steps = [
        (names[i], names[i + 1], reasons[i], row.title)
        for i, row in enumerate(rows)
        if reasons[i] is not None  # not resolved yet
    ]
    found = gone_through(steps)
    return found[-1] if found else ()


async def _decoded_names(
    session: AsyncSession, battle_id: int, numbers: Sequence[int]
) -> dict[int, UnitNames]:
    """The units of stages whose row does not keep them, from their decoded start states."""
    rows = await session.execute(
        select(StageLog.number, StageLog.start_state).where(
            StageLog.battle_id == battle_id, StageLog.number.in_(numbers)
        )
    )
    return {n: unit_names(BattleState.from_dict(state)) for n, state in rows}


async def _decoded_reasons(
    session: AsyncSession, battle_id: int, numbers: Sequence[int]
) -> dict[int, Mapping[str, Sequence[str]] | None]:
    """The reasons of stages whose row does not keep them, from their decoded events (None
    for a stage not resolved yet)."""
    rows = await session.execute(
        select(StageLog.number, StageLog.events).where(
            StageLog.battle_id == battle_id, StageLog.number.in_(numbers)
        )
    )
    return {
        n: None if events is None else gone_reasons(event_from_dict(e) for e in events)
        for n, events in rows
    }


def lost_units(before: BattleState, after: BattleState) -> tuple[Unit, ...]:
    """Units on the table before a step and not after it."""
    kept = {unit.id for unit in after.units}
    return tuple(unit for unit in before.units if unit.id not in kept)


def decision_view(loaded: Loaded) -> DecisionView | None:
    """The (first) pending question, if the battle waits for one."""
    views = decision_views(loaded)
    return views[0] if views else None


def decision_views(loaded: Loaded) -> tuple[DecisionView, ...]:
    """Every question the battle waits for, in the order asked."""
    pending = loaded.state.pending
    if pending is None:
        return ()
    return tuple(_decision_view(loaded, d) for d in pending.open)


def _decision_view(loaded: Loaded, d: Decision) -> DecisionView:
    """One open question, for buttons, menus or ``/answer``."""
    return DecisionView(
        loaded.battle.id,
        loaded.battle.stage,
        d.id,
        d.question,
        tuple((o.id, o.label) for o in d.options),
        d.default,
        d.who,
        tuple(users_for(loaded, [d.who])),
        loaded.battle.deadline_at,
        d.answer,
        d.low,
        d.high,
        d.private,
    )
