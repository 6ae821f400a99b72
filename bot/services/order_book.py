"""Every side's orders at once (``/orders all``), as far as the one who asks may see them.

Orders are sealed until their step resolves: a GM sees the open step's orders (while play
waits for an answer, those of the step that waits) and every planned one, with who gave
them; everyone else sees the orders of the last step that resolved (by then they are public:
the record and the log show what they did). While that step waits for an answer to a
question it is not over, so only the reader's own side's orders show.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy import select

from bot.db.models import BattleOrder, BattleStatus, PlannedOrder, StageLog
from bot.errors import Conflict
from bot.services import plans
from bot.services.ai_record import AnsweredByAi, answers_between, step_start
from bot.services.base import Service
from bot.services.battle_state import load_battle
from bot.services.campaigns import Place
from bot.services.stages import stage_orders, stage_title
from rules_core.orders import ACTOR_KINDS


@dataclass(frozen=True)
class BookedOrder:
    """One order as the order book lists it: whose, for which actor, and what it does."""

    side_name: str
    user_id: int
    actor_name: str
    kind: str
    summary: str
    step: str = ""  # the later step of the turn a planned order is for ("" for the shown step)
    reason: str = ""  # why the AI general gave it (#36), "" for a player's order


@dataclass(frozen=True)
class OrderBook:
    """The orders of one step (the open one for a GM, the last resolved one for others) and,
    for a GM, every order planned for later steps of the turn."""

    step: str  # the step's title, "" when no step has resolved yet
    sealed: bool  # True: the open step's orders, still secret (a GM's view)
    orders: tuple[BookedOrder, ...]
    planned: tuple[BookedOrder, ...] = ()
    stopped: bool = False  # the step waits for an answer: only the reader's side's orders shown
    ai_answers: tuple[AnsweredByAi, ...] = ()  # a GM's: the AI's answers in the open step (#36)


class OrderBookService(Service):
    """Reads the battle's orders for ``/orders all``; one read session per call."""

    async def book(self, place: Place, user_id: int) -> OrderBook:
        """The orders the user may see: a GM the open step's and the planned ones, anyone
        else the last resolved step's (set-up has none)."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
            if loaded.battle.status is BattleStatus.SETUP:
                raise Conflict(
                    "The battle has not started, so no orders are given yet; a GM starts it "
                    "with `/battle start`."
                )
            state, battle = loaded.state, loaded.battle
            names = {a.id: a.name for k in reversed(ACTOR_KINDS) for a in state.actors(k)}
            sides = {s.side_id: s.name for s in battle.sides} | {"gm": "GM"}

            def booked(row: BattleOrder | PlannedOrder, step: str = "") -> BookedOrder:
                return BookedOrder(
                    sides.get(row.side_id, row.side_id),
                    row.user_id,
                    names.get(row.actor, row.actor),
                    row.kind,
                    row.summary,
                    step,
                    getattr(row, "reason", None) or "",  # planned orders are players' alone
                )

            last = await session.scalar(
                select(StageLog)
                .join(
                    BattleOrder,
                    (BattleOrder.battle_id == StageLog.battle_id)
                    & (BattleOrder.stage == StageLog.number),
                )
                .where(StageLog.battle_id == battle.id, StageLog.resolved_at.is_not(None))
                .order_by(StageLog.number.desc())
                .limit(1)
            )
            if loaded.seat(user_id).is_gm:
                title = stage_title(loaded)
                rows = await stage_orders(session, battle.id, battle.stage)
                if not rows and state.pending is not None and last is not None:
                    # Stopped at a question: the orders of the step that waits for it.
                    title = last.title
                    rows = await stage_orders(session, battle.id, last.number)
                planned = await plans.planned_rows(session, battle.id)
                first = await step_start(session, battle.id, battle.stage)
                said = await answers_between(session, battle.id, first, battle.stage, sides)
                return OrderBook(
                    title,
                    sealed=True,
                    orders=tuple(booked(r) for r in rows),
                    planned=tuple(_with_alternatives(booked(r, r.step_title), r) for r in planned),
                    ai_answers=tuple(said),
                )
            if last is None:
                return OrderBook("", sealed=False, orders=())
            rows = await stage_orders(session, battle.id, last.number)
            if state.pending is None:
                return OrderBook(last.title, sealed=False, orders=tuple(booked(r) for r in rows))
            # The step stopped at a question is not over: only the reader's own side's orders.
            own = set(loaded.seat(user_id).sides)
            kept = tuple(booked(r) for r in rows if r.side_id in own)
            return OrderBook(last.title, sealed=False, orders=kept, stopped=True)


def _with_alternatives(order: BookedOrder, row: PlannedOrder) -> BookedOrder:
    """A planned order as a GM reads it, with the kinds of its alternatives in turn."""
    if not row.alternatives:
        return order
    tried = ", then ".join(a["kind"] for a in row.alternatives)
    return replace(order, summary=f"{order.summary} (if not: {tried})")
