"""Playing a battle: start, orders by the players, confirmations, questions, resolution.

A stage resolves once: when every acting player has confirmed, at its deadline, or when a GM
forces it. Each path calls ``resolve_stage(battle, stage)`` in one write transaction that
first checks the battle is still at that stage, so the first to arrive wins and the others
find nothing to do. The engine's work for it (and for ``start`` and ``answer``) is done first
in a rehearsal outside the write (``bot.services.rehearsal``): the write gets its results back
and checks the battle's version, so a write lock is never held while the engine works.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from sqlalchemy import update

from bot.clock import Clock
from bot.db.models import (
    BattleStatus,
    Deadline,
    DeadlineKind,
    DeadlineStatus,
    Readiness,
)
from bot.db.session import Database
from bot.deadlines import DueDeadline
from bot.errors import (
    NO_QUESTION,
    Conflict,
    NotFound,
)
from bot.services import plans
from bot.services.ai_seat import STAND_IN_ANSWERS
from bot.services.answering import answerer, others_open, question_for, typed_answer
from bot.services.base import ClockedService
from bot.services.battle_state import (
    Loaded,
    awaited,
    load_battle,
    load_battle_by_id,
    ordering,
    view_of,
)
from bot.services.battles import undeployed, with_reserves
from bot.services.campaigns import Place
from bot.services.due_batch import IdleDeadlines
from bot.services.intake import (
    OrderView,
    Wanted,
    acting_sides_of,
    intake_of,
    judge_order,
    judged_view,
    keep_judged,
)
from bot.services.numbers import check_finite
from bot.services.order_params import OrderInput
from bot.services.player_writes import written
from bot.services.players_part import done_for_turn, running, withdrawn
from bot.services.records import append_entries
from bot.services.rehearsal import kept
from bot.services.resolving import defaulted, off_loop_at
from bot.services.stages import (
    Arming,
    StageReport,
    advance,
    given_orders,
    gone_by,
    policy,
    ready_sides,
    stage_orders,
    stage_title,
)
from bot.services.write_keys import battle_write
from rules_core import engine, planning
from rules_core.decisions import GM, Answer
from rules_core.engine import Resolution
from rules_core.orders import ACTOR_KINDS

AnswerIn = Callable[[int, int], Awaitable[tuple[bool, StageReport | None]]]  # the AI's (#36)


class Armer(Protocol):
    """What the services need of the scheduler: arm and disarm deadline rows."""

    def arm(self, deadline_id: int, due_at: Any) -> None:
        """Schedule a deadline row."""

    def disarm(self, deadline_id: int) -> None:
        """Forget a deadline row."""


@dataclass(frozen=True)
class Confirmed:
    """The result of ``/order done``: sides still awaited, or the stage's resolution."""

    side_names: tuple[str, ...]
    waiting_for: tuple[int, ...]
    report: StageReport | None
    turn: bool = False  # done for the rest of the game turn
    acting: bool = True  # the open step waits for the player


@dataclass(frozen=True)
class Reminder:
    """A reminder to post: who has not given orders for the step, and by when."""

    channel_id: int
    battle_name: str
    title: str
    user_ids: tuple[int, ...]
    deadline_at: Any
    late: tuple[int, ...] | None = None  # set when the deadline passed and a GM decides
    missing: tuple[tuple[int, tuple[str, ...]], ...] = ()  # per user: steps still unplanned


class PlayService(ClockedService):
    """The turn loop; each call is one write transaction, deadlines armed after it commits."""

    def __init__(self, db: Database, clock: Clock) -> None:
        super().__init__(db, clock)
        self.armer: Armer | None = None
        self.idle = IdleDeadlines(db)  # a batch's deadlines with nothing left to do
        # The AI stand-in's orders at a deadline under the ``ai`` policy (bot.services.general).
        self.stand_in: Callable[[int, int], Awaitable[tuple[str, ...]]] | None = None
        self.answer_in: AnswerIn | None = None  # its answers at a question's deadline, too

    def arm(self, arming: Arming) -> None:
        """Arm and disarm deadlines once the transaction that made them has committed."""
        if self.armer is None:
            return
        for deadline_id in arming.disarmed:
            self.armer.disarm(deadline_id)
        for deadline_id, due_at in arming.armed:
            self.armer.arm(deadline_id, due_at)

    async def start(self, place: Place, user_id: int) -> StageReport:
        """Begin the battle (a GM only): publish the seed's hash and play to the first input."""

        async def body(session: Any, _dry: bool) -> tuple[StageReport, Arming]:
            loaded = await load_battle(session, place, (BattleStatus.SETUP,))
            loaded.require_gm(user_id)
            if loaded.rules.setup_in_rules:  # units are placed by orders in set-up steps
                loaded.save(with_reserves(loaded))
            else:
                _check_ready_to_start(loaded)
            state = engine.begin(loaded.rules, loaded.state)
            loaded.battle.status = BattleStatus.RUNNING
            loaded.battle.initial_state = state.to_dict()
            loaded.save(state)
            first = await off_loop_at(
                loaded.battle.id,
                engine.settle,
                loaded.rules,
                loaded.seed,
                Resolution(state, (), ()),
            )
            now = self.clock.now()
            return await advance(session, loaded, first, trigger="start", now=now, gone=False)

        async with self.db.read() as session:  # which battle (refused here if none)
            battle_id = (await load_battle(session, place, (BattleStatus.SETUP,))).battle.id
        return await self._kept(battle_id, await kept(self.db, battle_id, body))

    async def submit(
        self,
        place: Place,
        user_id: int,
        kind: str,
        unit: str,
        given: OrderInput,
        step: str | None = None,
        consult: bool = False,
    ) -> OrderView:
        """Check an order at once and keep it (secretly) for the current stage, or, with a
        ``step``, for that later step of the game turn (judged now for the preview and again
        when its step comes; with ``consult`` its player is asked if it cannot be carried
        out then, else the default is used)."""
        # Decided in a read, engine and all; the write only claims the battle's version and
        # keeps the order's rows (``bot.services.player_writes``).
        wanted = Wanted(kind, unit, given)

        async def body(session: Any) -> tuple[OrderView, Loaded]:
            loaded = await running(session, place)
            intake = intake_of(loaded, user_id, step)
            now = self.clock.now()
            judged = await judge_order(session, loaded, user_id, wanted, intake)
            view = await keep_judged(session, loaded, user_id, judged, intake, now, consult)
            return view, loaded

        return await written(self.db, place, user_id, body)

    async def judge(
        self, place: Place, user_id: int, wanted: Wanted, step: str | None = None
    ) -> OrderView:
        """What ``submit`` would answer, keeping nothing (the war table judges an order while
        it is drawn): the same checks and judge, in a read transaction."""
        async with self.db.read() as session:
            loaded = await running(session, place)
            intake = intake_of(loaded, user_id, step)
            judged = await judge_order(session, loaded, user_id, wanted, intake)
            return judged_view(judged, intake)

    async def withdraw(
        self,
        place: Place,
        user_id: int,
        unit: str,
        number: int | None = None,
        step: str | None = None,
    ) -> OrderView:
        """Take back one order before its stage resolves: the ``number``-th the actor gave
        (counting from 1), or its last; with ``step``, one planned for that later step."""
        check_finite(number=number)

        async def body(session: Any) -> tuple[OrderView, Loaded]:
            loaded = await running(session, place)
            return await withdrawn(session, loaded, user_id, unit, number, step), loaded

        return await written(self.db, place, user_id, body)

    async def mine(self, place: Place, user_id: int) -> list[OrderView]:
        """The user's orders for the current stage."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
            rows = await stage_orders(session, loaded.battle.id, loaded.battle.stage)
            state = loaded.state
            names = {a.id: a.name for k in reversed(ACTOR_KINDS) for a in state.actors(k)}
            views = [
                OrderView(r.actor, names.get(r.actor, r.actor), r.kind, r.summary)
                for r in rows
                if r.user_id == user_id
            ]
            planned = await plans.user_planned(session, loaded.battle.id, user_id)
            return views + [
                OrderView(
                    r.actor,
                    names.get(r.actor, r.actor),
                    r.kind,
                    r.summary,
                    step=r.step_title,
                    consult=r.consult,
                    alternatives=tuple(a["summary"] for a in r.alternatives or ()),
                )
                for r in planned
            ]

    async def confirm(
        self, place: Place, user_id: int, turn: bool = False, next_turn: bool = False
    ) -> Confirmed:
        """Say your orders are complete; when every acting side has, the stage resolves. With
        ``turn``, also for every remaining step of the game turn: those you planned nothing
        more for resolve as soon as they come (defaults for what you did not order); with
        ``next_turn``, for the next game turn too (``plans.done_next_turn``)."""
        if turn or next_turn:
            done = done_for_turn(place, user_id, next_turn, self.clock)
            if not await written(self.db, place, user_id, done):
                return Confirmed((), (), None, turn=True, acting=False)
            confirmed = await self.confirm(place, user_id)
            return replace(confirmed, turn=True)

        # Decided in a read; the write claims the battle's version and adds the readiness rows.
        async def body(session: Any) -> tuple[tuple[Confirmed | None, int, int], Loaded]:
            loaded = await running(session, place)
            battle = loaded.battle
            sides = acting_sides_of(loaded, user_id)
            ready = await ready_sides(session, battle.id, battle.stage)
            for key in dict.fromkeys(loaded.key_of(side, user_id) for side in sides):
                if key not in ready:
                    row = Readiness(
                        battle_id=battle.id,
                        stage=battle.stage,
                        side_id=key,
                        user_id=user_id,
                        confirmed_at=self.clock.now(),
                    )
                    session.add(row)
                    ready.add(key)
            acting = engine.waiting(loaded.rules, loaded.state).sides
            view = view_of(loaded)
            left = [(s, u) for s, u in awaited(loaded, acting) if loaded.key_of(s, u) not in ready]
            waiting = None
            if left:
                names = tuple(dict.fromkeys(view.side_name(s) for s, _ in left))
                users = tuple(dict.fromkeys(u for _, u in left))
                waiting = Confirmed(names, users, None)
            return (waiting, battle.id, battle.stage), loaded

        waiting, battle_id, stage = await written(self.db, place, user_id, body)
        if waiting is not None:
            return waiting
        report = await self.resolve_stage(battle_id, stage, trigger="all orders confirmed")
        return Confirmed((), (), report)

    async def answer(
        self,
        battle_id: int,
        stage: int,
        user_id: int,
        decision_id: str | None,
        choice: str,
        reason: str = "",
        trigger: str = "",
    ) -> StageReport | None:
        """Answer a pending question (its player, or a GM with a reason kept on the record)
        and carry the battle on; None while other questions of the step are still open.

        An option may be named by its id or its label. Without a ``decision_id`` the answer
        goes to the one open question the user may answer that takes it.
        """

        async def body(session: Any, _dry: bool) -> tuple[StageReport, Arming] | None:
            loaded = await load_battle_by_id(session, battle_id)
            if loaded is None or loaded.battle.stage != stage or loaded.state.pending is None:
                raise Conflict("That question has already been answered.")
            pending = loaded.state.pending
            decision = question_for(loaded, pending, user_id, decision_id, choice)
            by = answerer(loaded, user_id, decision.who)
            typed = typed_answer(decision, choice)
            given = Answer(decision.id, typed, by, reason if by == GM else "")
            result = await off_loop_at(
                battle_id, engine.answer, loaded.rules, loaded.seed, loaded.state, given
            )
            if others_open(pending, result.state.pending):
                await append_entries(session, battle_id, result.entries)
                loaded.save(result.state)
                return None
            result = await off_loop_at(battle_id, engine.settle, loaded.rules, loaded.seed, result)
            said = trigger or ("GM ruling" if by == GM else "answered")
            now = self.clock.now()
            return await advance(session, loaded, result, trigger=said, now=now, gone=False)

        # The engine runs in a rehearsal, outside the write (bot.services.rehearsal).
        done = await kept(self.db, battle_id, body)
        return None if done is None else await self._kept(battle_id, done)

    async def answer_here(
        self, place: Place, user_id: int, text: str, reason: str = "", question: str | None = None
    ) -> StageReport | None:
        """``/answer``: answer the channel's waiting question with a typed answer."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
            if loaded.state.pending is None:
                raise NotFound(NO_QUESTION)
            battle_id, stage = loaded.battle.id, loaded.battle.stage
        return await self.answer(battle_id, stage, user_id, question, text, reason)

    async def on_deadline(self, due: DueDeadline) -> StageReport | Reminder | None:
        """What a deadline does: resolve its step, answer its question, or remind."""
        if self.idle.take(due.id):
            return None  # its battle finished or moved on: nothing to load
        if due.kind is DeadlineKind.REMINDER:
            return await self.reminder(due.battle_id, due.stage)
        missing, trigger = await self._missing(due.battle_id), "deadline"
        if due.kind is DeadlineKind.DECISION and missing == "ai" and self.answer_in is not None:
            answered, report = await self.answer_in(due.battle_id, due.stage)
            if report is not None:
                return report
            trigger = STAND_IN_ANSWERS if answered else trigger  # a GM's question: its default
        missing = missing if due.kind is DeadlineKind.STEP else ""
        if missing == "gm":
            async with battle_write(self.db, due.battle_id) as session:
                if not await _take_deadline(session, due.id):
                    return None  # another process told the GMs already
            return await self.reminder(due.battle_id, due.stage, to_gm=True)
        stand_in = self.stand_in if missing == "ai" else None  # the AI's orders, not defaults
        if stand_in is not None and await stand_in(due.battle_id, due.stage):
            trigger = "deadline: orders by the AI stand-in"  # (it fits the log's column)
        return await self.resolve_stage(
            due.battle_id, due.stage, trigger=trigger, deadline_id=due.id
        )

    async def _missing(self, battle_id: int) -> str:
        """What the campaign does with a passed deadline's missing orders (``policy``)."""
        async with self.db.read() as session:
            loaded = await load_battle_by_id(session, battle_id)
            return "" if loaded is None else policy(loaded.campaign).missing

    async def reminder(self, battle_id: int, stage: int, *, to_gm: bool = False) -> Reminder | None:
        """Those who have neither given orders nor confirmed for a stage, if it is still open;
        with ``to_gm``, the GMs, told the deadline has passed."""
        async with self.db.read() as session:
            loaded = await load_battle_by_id(session, battle_id)
            if loaded is None or loaded.battle.stage != stage:
                return None
            if loaded.battle.status is not BattleStatus.RUNNING or loaded.state.pending:
                return None
            deadline = loaded.battle.deadline_at
            if not to_gm and deadline is not None and deadline <= self.clock.now():
                return None  # overdue after downtime: the step resolves instead
            rows = await stage_orders(session, battle_id, stage)
            done = {loaded.key_of(r.side_id, r.user_id) for r in rows}
            done |= await ready_sides(session, battle_id, stage)
            acting = engine.waiting(loaded.rules, loaded.state).sides
            waiting = awaited(loaded, acting)
            users = list(dict.fromkeys(u for s, u in waiting if loaded.key_of(s, u) not in done))
            view = view_of(loaded)
            if to_gm:
                return Reminder(
                    view.channel_id,
                    view.name,
                    stage_title(loaded),
                    view.gm_ids,
                    view.deadline_at,
                    late=tuple(users),
                )
            if not users:
                return None
            title = stage_title(loaded)
            missing = await _still_missing(session, loaded, users)
            return Reminder(
                view.channel_id, view.name, title, tuple(users), view.deadline_at, missing=missing
            )

    async def resolve_stage(
        self, battle_id: int, stage: int, *, trigger: str, deadline_id: int | None = None
    ) -> StageReport | None:
        """Resolve a stage if the battle is still at it; None if someone else already did.
        For a deadline (``deadline_id``): only while its row is still pending (a deadline
        claimed in a batch and cancelled or moved since does nothing)."""

        async def body(session: Any, dry: bool) -> tuple[StageReport, Arming] | None:
            # A rehearsal takes no deadline: it writes nothing.
            taken = dry or deadline_id is None or await _take_deadline(session, deadline_id)
            if not taken:
                return None
            loaded = await load_battle_by_id(session, battle_id)
            if loaded is None or loaded.battle.stage != stage:
                return None
            if loaded.battle.status is not BattleStatus.RUNNING:
                return None
            return await self._resolve(session, loaded, trigger)

        # The engine runs in a rehearsal, outside the write (bot.services.rehearsal).
        done = await kept(self.db, battle_id, body)
        return None if done is None else await self._kept(battle_id, done)

    async def _kept(self, battle_id: int, done: tuple[StageReport, Arming]) -> StageReport:
        """A kept resolution's deadlines armed, and its report's lost units read (outside the
        write: it reads every earlier step's log)."""
        report, arming = done
        self.arm(arming)
        async with self.db.read() as session:
            return replace(report, gone=await gone_by(session, battle_id, report.stage))

    async def _resolve(
        self, session: Any, loaded: Loaded, trigger: str
    ) -> tuple[StageReport, Arming]:
        rules, seed, state, battle = loaded.rules, loaded.seed, loaded.state, loaded.battle
        now = self.clock.now()
        if state.pending is not None:
            result = await off_loop_at(battle.id, defaulted, rules, seed, state)
            return await advance(session, loaded, result, trigger=trigger, now=now, gone=False)
        rows = await given_orders(session, battle.id, battle.stage)
        orders = [order for _, order in rows]
        ready = await ready_sides(session, battle.id, battle.stage)
        # Off the loop and out of the write (the rehearsal notes it): who acts can cost the
        # rules real work (Tree of Battles' shooting plans: 0.7 s at 120 units).
        waiting = await off_loop_at(battle.id, engine.waiting, rules, state)
        engine.known_waiting(rules, state, waiting)  # the view below reads it again
        acting = waiting.sides
        given = {side for side, _ in rows} | ready
        missing = [_side_name(loaded, s) for s in ordering(loaded, acting) if s not in given]
        result = await off_loop_at(battle.id, engine.run, rules, seed, state, orders)
        return await advance(
            session,
            loaded,
            result,
            trigger=trigger,
            now=now,
            orders=orders,
            missing=missing,
            gone=False,
        )


def _side_name(loaded: Loaded, side_id: str) -> str:
    """A side's name as ``BattleView.side_name`` gives it, without building the whole view
    (inside a resolution's keeping write)."""
    row = loaded.side_row(side_id)
    return (row.name if row is not None else "") or ("GM" if side_id == "gm" else side_id)


def _check_ready_to_start(loaded: Loaded) -> None:
    missing = undeployed(loaded)
    if missing:
        shown = ", ".join(f"**{name}**" for name in missing[:10])
        more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
        raise Conflict(f"Deploy every unit before the battle starts; still: {shown}{more}.")


async def _still_missing(
    session: Any, loaded: Loaded, users: list[int]
) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """For each user, the steps of their part of this turn they have neither planned nor
    said they are done for (the open step first)."""
    turn = loaded.state.cursor.turn
    done = await plans.done_keys(session, loaded.battle.id, turn)
    planned = await plans.planned_rows(session, loaded.battle.id)
    found = []
    for user in users:
        sides = [s for s in loaded.side_of(user) if loaded.key_of(s, user) not in done]
        keys = {r.step_key for r in planned if r.user_id == user}
        steps = tuple(
            plans.step_words(loaded, step)
            for step in planning.turn_steps(loaded.rules, loaded.state)
            if set(step.sides) & set(sides) and step.key not in keys
        )
        if steps:
            found.append((user, steps))
    return tuple(found)


async def _take_deadline(session: Any, deadline_id: int) -> bool:
    """Mark a pending deadline fired inside the caller's transaction; False if it was no
    longer pending. The conditional update is what lets exactly one of two processes racing
    for a deadline act on it: on PostgreSQL the second waits for the first's row lock and
    then finds the row fired; on SQLite writes are serialized. Rolled back with the caller's
    transaction (a crash before the commit), the deadline stays pending and fires again."""
    taken = await session.execute(
        update(Deadline)
        .where(Deadline.id == deadline_id, Deadline.status == DeadlineStatus.PENDING)
        .values(status=DeadlineStatus.FIRED)
    )
    return bool(taken.rowcount)
