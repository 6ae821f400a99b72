"""Playing a battle: start, orders by the players, confirmations, questions, resolution.

A stage resolves once: when every acting player has confirmed, at its deadline, or when a GM
forces it. Each path calls ``resolve_stage(battle, stage)`` in one write transaction that
first checks the battle is still at that stage, so the first to arrive wins and the others
find nothing to do.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol

from sqlalchemy import delete, select

from bot.clock import Clock
from bot.db.models import BattleOrder, BattleStatus, DeadlineKind, Readiness
from bot.db.session import Database
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from bot.scheduling import DueDeadline
from bot.services.battle_state import (
    Loaded,
    find_actor,
    find_leader,
    find_unit,
    load_battle,
    load_battle_by_id,
    users_for,
    view_of,
)
from bot.services.battles import undeployed
from bot.services.campaigns import Place
from bot.services.resolving import answered, defaulted, off_loop
from bot.services.stages import (
    Arming,
    StageReport,
    advance,
    policy,
    ready_sides,
    stage_orders,
    stage_title,
)
from rules_core import engine
from rules_core.decisions import GM, Answer
from rules_core.engine import Resolution
from rules_core.orders import Illegal, Order, OrderKind
from rules_core.state import Leader, Unit


class Armer(Protocol):
    """What the services need of the scheduler: arm and disarm deadline rows."""

    def arm(self, deadline_id: int, due_at: Any) -> None:
        """Schedule a deadline row."""

    def disarm(self, deadline_id: int) -> None:
        """Forget a deadline row."""


@dataclass(frozen=True)
class OrderView:
    """An order as its player sees it: the unit, the kind and the preview."""

    unit_id: str
    unit_name: str
    kind: str
    summary: str
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Confirmed:
    """The result of ``/order done``: sides still awaited, or the stage's resolution."""

    side_names: tuple[str, ...]
    waiting_for: tuple[int, ...]
    report: StageReport | None


@dataclass(frozen=True)
class Reminder:
    """A reminder to post: who has not given orders for the step, and by when."""

    channel_id: int
    battle_name: str
    title: str
    user_ids: tuple[int, ...]
    deadline_at: Any
    late: tuple[int, ...] | None = None  # set when the deadline passed and a GM decides


@dataclass(frozen=True)
class OrderInput:
    """The generic options of an order command, mapped onto the order kind's parameters."""

    target: str | None = None
    x: float | None = None
    y: float | None = None
    number: float | None = None
    option: str | None = None


class PlayService:
    """The turn loop; each call is one write transaction, deadlines armed after it commits."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self.armer: Armer | None = None

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
        async with self.db.write() as session:
            loaded = await load_battle(session, place, (BattleStatus.SETUP,))
            loaded.require_gm(user_id)
            _check_ready_to_start(loaded)
            state = engine.begin(loaded.rules, loaded.state)
            loaded.battle.status = BattleStatus.RUNNING
            loaded.battle.initial_state = state.to_dict()
            loaded.save(state)
            first = await off_loop(
                engine.settle, loaded.rules, loaded.seed, Resolution(state, (), ())
            )
            now = self.clock.now()
            report, arming = await advance(session, loaded, first, trigger="start", now=now)
        self.arm(arming)
        return report

    async def submit(
        self, place: Place, user_id: int, kind: str, unit: str, given: OrderInput
    ) -> OrderView:
        """Check an order at once and keep it (secretly) for the current stage."""
        async with self.db.write() as session:
            loaded = await _running(session, place)
            sides = _acting_sides_of(loaded, user_id)
            kind, given = _command_action(loaded, kind, given)
            order_kind = _order_kind(loaded, kind)
            mine = None if GM in sides else sides
            actor: Unit | Leader = (
                find_leader(loaded.state, unit, mine)
                if order_kind.actor == "leader"
                else find_unit(loaded.state, unit, mine)
            )
            order = Order(actor.id, kind, _params(order_kind, given, loaded))
            verdict = loaded.rules.judge(loaded.state, order)
            if isinstance(verdict, Illegal):
                raise InvalidInput(f"**{actor.name}** cannot {kind}: {verdict.reason}.")
            await session.execute(
                delete(BattleOrder).where(
                    BattleOrder.battle_id == loaded.battle.id,
                    BattleOrder.stage == loaded.battle.stage,
                    BattleOrder.actor == actor.id,
                )
            )
            session.add(
                BattleOrder(battle_id=loaded.battle.id, stage=loaded.battle.stage,
                            side_id=actor.side, user_id=user_id, actor=actor.id, kind=kind,
                            params=dict(order.params), summary=verdict.summary[:400],
                            submitted_at=self.clock.now())
            )  # fmt: skip
            return OrderView(actor.id, actor.name, kind, verdict.summary, tuple(verdict.notes))

    async def withdraw(self, place: Place, user_id: int, unit: str) -> OrderView:
        """Take back an order before its stage resolves."""
        async with self.db.write() as session:
            loaded = await _running(session, place)
            sides = _acting_sides_of(loaded, user_id)
            actor = find_actor(loaded.state, unit, None if GM in sides else sides)
            row = await session.scalar(
                select(BattleOrder).where(
                    BattleOrder.battle_id == loaded.battle.id,
                    BattleOrder.stage == loaded.battle.stage,
                    BattleOrder.actor == actor.id,
                )
            )
            if row is None:
                raise NotFound(f"**{actor.name}** has no order to withdraw.")
            await session.delete(row)
            return OrderView(actor.id, actor.name, row.kind, row.summary)

    async def mine(self, place: Place, user_id: int) -> list[OrderView]:
        """The user's orders for the current stage."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
            rows = await stage_orders(session, loaded.battle.id, loaded.battle.stage)
            names = {a.id: a.name for a in (*loaded.state.units, *loaded.state.leaders)}
            return [
                OrderView(r.actor, names.get(r.actor, r.actor), r.kind, r.summary)
                for r in rows
                if r.user_id == user_id
            ]

    async def confirm(self, place: Place, user_id: int) -> Confirmed:
        """Say your orders are complete; when every acting side has, the stage resolves."""
        async with self.db.write() as session:
            loaded = await _running(session, place)
            battle = loaded.battle
            sides = _acting_sides_of(loaded, user_id)
            ready = await ready_sides(session, battle.id, battle.stage)
            for side in sides:
                if side not in ready:
                    row = Readiness(battle_id=battle.id, stage=battle.stage, side_id=side,
                                    user_id=user_id, confirmed_at=self.clock.now())  # fmt: skip
                    session.add(row)
            ready |= set(sides)
            acting = engine.waiting(loaded.rules, loaded.state).sides
            stage = battle.stage
            view = view_of(loaded)
            if not set(acting) <= ready:
                names = tuple(view.side_name(s) for s in acting if s not in ready)
                awaited = tuple(users_for(loaded, [s for s in acting if s not in ready]))
                return Confirmed(names, awaited, None)
        report = await self.resolve_stage(battle.id, stage, trigger="all orders confirmed")
        return Confirmed((), (), report)

    async def answer(
        self, battle_id: int, stage: int, user_id: int, decision_id: str | None, choice: str
    ) -> StageReport:
        """Answer the pending question (its player, or a GM) and carry the battle on."""
        async with self.db.write() as session:
            loaded = await load_battle_by_id(session, battle_id)
            if loaded is None or loaded.battle.stage != stage or loaded.state.pending is None:
                raise Conflict("That question has already been answered.")
            pending = loaded.state.pending
            if decision_id is not None and pending.decision.id != decision_id:
                raise Conflict("That question has already been answered.")
            decision_id = pending.decision.id
            who = pending.decision.who
            if loaded.is_gm(user_id):
                by = GM if who not in loaded.side_of(user_id) else who
            elif who in loaded.side_of(user_id):
                by = who
            else:
                raise PermissionDenied("This question is not yours to answer.")
            if choice not in pending.decision.option_ids:
                raise InvalidInput(f"`{choice}` is not one of the answers.")
            given = Answer(decision_id, choice, by)
            result = await off_loop(answered, loaded.rules, loaded.seed, loaded.state, given)
            trigger = "GM ruling" if by == GM else "answered"
            report, arming = await advance(
                session, loaded, result, trigger=trigger, now=self.clock.now()
            )
        self.arm(arming)
        return report

    async def on_deadline(self, due: DueDeadline) -> StageReport | Reminder | None:
        """What a deadline does: resolve its step, answer its question, or remind."""
        if due.kind is DeadlineKind.REMINDER:
            return await self.reminder(due.battle_id, due.stage)
        if due.kind is DeadlineKind.STEP and await self._gm_decides(due.battle_id):
            return await self.reminder(due.battle_id, due.stage, to_gm=True)
        return await self.resolve_stage(due.battle_id, due.stage, trigger="deadline")

    async def _gm_decides(self, battle_id: int) -> bool:
        """Whether the campaign leaves a passed deadline to its GM rather than to defaults."""
        async with self.db.read() as session:
            loaded = await load_battle_by_id(session, battle_id)
            return loaded is not None and policy(loaded.campaign).missing == "gm"

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
            done = {r.side_id for r in rows} | await ready_sides(session, battle_id, stage)
            acting = engine.waiting(loaded.rules, loaded.state).sides
            users = users_for(loaded, [s for s in acting if s not in done])
            view = view_of(loaded)
            if to_gm:
                return Reminder(view.channel_id, view.name, stage_title(loaded), view.gm_ids,
                                view.deadline_at, late=tuple(users))  # fmt: skip
            if not users:
                return None
            title = stage_title(loaded)
            return Reminder(view.channel_id, view.name, title, tuple(users), view.deadline_at)

    async def resolve_stage(
        self, battle_id: int, stage: int, *, trigger: str
    ) -> StageReport | None:
        """Resolve a stage if the battle is still at it; None if someone else already did."""
        async with self.db.write() as session:
            loaded = await load_battle_by_id(session, battle_id)
            if loaded is None or loaded.battle.stage != stage:
                return None
            if loaded.battle.status is not BattleStatus.RUNNING:
                return None
            report, arming = await self._resolve(session, loaded, trigger)
        self.arm(arming)
        return report

    async def _resolve(
        self, session: Any, loaded: Loaded, trigger: str
    ) -> tuple[StageReport, Arming]:
        rules, seed, state, battle = loaded.rules, loaded.seed, loaded.state, loaded.battle
        now = self.clock.now()
        if state.pending is not None:
            result = await off_loop(defaulted, rules, seed, state)
            return await advance(session, loaded, result, trigger=trigger, now=now)
        rows = await stage_orders(session, battle.id, battle.stage)
        orders = [Order(r.actor, r.kind, r.params) for r in rows]
        ready = await ready_sides(session, battle.id, battle.stage)
        acting = engine.waiting(rules, state).sides
        given = {r.side_id for r in rows} | ready
        view = view_of(loaded)
        missing = [view.side_name(s) for s in acting if s not in given]
        result = await off_loop(engine.run, rules, seed, state, orders)
        return await advance(
            session, loaded, result, trigger=trigger, now=now, orders=orders, missing=missing
        )


async def _running(session: Any, place: Place) -> Loaded:
    loaded = await load_battle(session, place)
    status = loaded.battle.status
    if status is BattleStatus.SETUP:
        raise Conflict("The battle has not started yet; a GM starts it with `/battle start`.")
    if status is BattleStatus.PAUSED:
        raise Conflict("The battle is paused by a GM; orders resume with it.")
    if loaded.state.outcome is not None:
        raise Conflict("The battle is over.")
    return loaded


def _acting_sides_of(loaded: Loaded, user_id: int) -> list[str]:
    """The sides the user acts for in this stage; refuses those who have nothing to do now."""
    waiting = engine.waiting(loaded.rules, loaded.state)
    if waiting.pending is not None:
        raise Conflict("The battle waits for an answer to a question, not for orders.")
    mine = [s for s in waiting.sides if s in loaded.side_of(user_id)]
    if GM in waiting.sides and loaded.is_gm(user_id):
        mine.append(GM)
    if mine:
        return mine
    if not loaded.side_of(user_id) and not loaded.is_gm(user_id):
        raise PermissionDenied("You have no side in this battle.")
    raise Conflict(
        f"It is not your turn to give orders: the {waiting.title} step waits for others."
    )


def _command_action(loaded: Loaded, kind: str, given: OrderInput) -> tuple[str, OrderInput]:
    """``/order command``: a ruleset without a ``command`` order names the action in option."""
    kinds = loaded.rules.order_kinds
    if kind != "command" or any(k.id == "command" for k in kinds):
        return kind, given
    actions = loaded.rules.command_kinds()
    if given.option not in actions:
        shown = ", ".join(actions) or "none"
        raise InvalidInput(f"Name the command action in `option`: one of {shown}.")
    return str(given.option), replace(given, option=None)


def _order_kind(loaded: Loaded, kind: str) -> OrderKind:
    try:
        return loaded.rules.order_kind(kind)
    except KeyError:
        known = ", ".join(k.id for k in loaded.rules.order_kinds)
        raise InvalidInput(
            f"This ruleset has no `{kind}` order; its orders are: {known}."
        ) from None


def _params(kind: OrderKind, given: OrderInput, loaded: Loaded) -> dict[str, Any]:
    """The generic command options placed into the order kind's named parameters."""
    params: dict[str, Any] = {}
    for param in kind.params:
        value = _value_for(param.kind, param.name, given, loaded)
        if value is not None:
            params[param.name] = value
        elif param.required:
            raise InvalidInput(
                f"A {kind.title.lower()} order needs {_asking(param.kind, param.name)}."
            )
    return params


def _value_for(param_kind: str, name: str, given: OrderInput, loaded: Loaded) -> Any:
    if param_kind == "point":
        if given.x is None or given.y is None:
            return None
        return [given.x, given.y]
    if param_kind == "unit":
        return None if given.target is None else find_unit(loaded.state, given.target).id
    if param_kind == "leader":
        return given.target
    if param_kind == "number":
        return given.number
    return given.option


def _asking(param_kind: str, name: str) -> str:
    return {
        "point": "a destination: give `x` and `y`",
        "unit": "a `target` unit",
        "leader": "a `target` leader",
        "number": f"a number for {name}",
    }.get(param_kind, f"an `option` for {name}")


def _check_ready_to_start(loaded: Loaded) -> None:
    missing = undeployed(loaded)
    if missing:
        shown = ", ".join(f"**{name}**" for name in missing[:10])
        more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
        raise Conflict(f"Deploy every unit before the battle starts; still: {shown}{more}.")
