"""Order intake: one path for an order given for the step open now and for one planned for a
later step of the game turn (found, checked, joined with the actor's earlier orders, kept).

The two differ only in where they look (the battle now, or as it will stand at that step),
how they judge (``judge`` now, ``planning.preview`` ahead) and which row keeps the order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, TypeVar

from bot.db.models import BattleOrder, PlannedOrder
from bot.errors import Conflict, InvalidInput, NotFound, PermissionDenied, RefusedOrder
from bot.services import plans
from bot.services.battle_state import Loaded, check_commands, find_actor, find_giver
from bot.services.order_params import OrderInput, params_for, side_of
from bot.services.resolving import off_loop
from bot.services.stages import stage_orders
from bot.services.ways import ways_for
from rules_core import engine, planning
from rules_core.decisions import GM
from rules_core.orders import Illegal, Order, OrderKind, Preview, Verdict
from rules_core.plugin import Rules
from rules_core.state import BattleState, Group, Leader, Side, Unit

PLANNED_HINT = (
    " (An order planned ahead is checked against the battle as it will stand after your own "
    "orders planned before it, the enemy where it stands now; if it only becomes possible "
    "later still, add it as an `/order alternative` or give it when its step opens.)"
)

NOT_FOR_ORDERS = "The battle waits for an answer to a question, not for orders."
GM_WITHOUT_SIDE = (
    "You play no side in this battle, so you give no orders: a GM changes units with "
    "`/gm move` and `/gm set`, or runs an absent player's side after `/campaign remove`."
)


@dataclass(frozen=True)
class OrderView:
    """An order as its player sees it: the unit, the kind and the preview."""

    unit_id: str
    unit_name: str
    kind: str
    summary: str
    notes: tuple[str, ...] = ()
    remaining: int = 0  # the actor's orders still given, after a withdrawal
    step: str = ""  # the later step of the turn it is planned for ("" for the open step)
    consult: bool = False  # its player asked to be consulted if it cannot be carried out
    alternatives: tuple[str, ...] = ()  # what it tries in turn if not (a conditional plan)


async def actor_orders(
    session: Any, loaded: Loaded, actor_kind: str | None, actor_id: str
) -> list[BattleOrder]:
    """One actor's orders for the current stage in the order given (of one actor kind, if
    named: a group and a unit may share an id)."""
    rows = await stage_orders(session, loaded.battle.id, loaded.battle.stage)
    kinds = loaded.rules.kinds_by_id()
    mine = [
        r
        for r in rows
        if r.actor == actor_id and (actor_kind is None or _actor_kind(kinds, r.kind) == actor_kind)
    ]
    return sorted(mine, key=lambda r: r.seq)


def _actor_kind(kinds: dict[str, OrderKind], kind: str) -> str | None:
    """Who gives orders of a kind, or None for a kind the ruleset no longer has."""
    found = kinds.get(kind)
    return None if found is None else found.actor


def command_action(loaded: Loaded, kind: str, given: OrderInput) -> tuple[str, OrderInput]:
    """``/order command``: a ruleset without a ``command`` order names the action in option."""
    kinds = loaded.rules.order_kinds
    if kind != "command" or any(k.id == "command" for k in kinds):
        return kind, given
    actions = loaded.rules.command_kinds()
    if given.option not in actions:
        shown = ", ".join(actions) or "none"
        raise InvalidInput(f"Name the command action in `option`: one of {shown}.")
    return str(given.option), replace(given, option=None)


def order_kind_of(loaded: Loaded, kind: str) -> OrderKind:
    """The ruleset's order kind by id; an unknown one is refused with the kinds it has."""
    try:
        return loaded.rules.order_kind(kind)
    except KeyError:
        known = ", ".join(k.id for k in loaded.rules.order_kinds)
        raise InvalidInput(
            f"This ruleset has no `{kind}` order; its orders are: {known}."
        ) from None


def planned_step(loaded: Loaded, user_id: int, step: str) -> planning.TurnStep:
    """A step of the current game turn or the next the user's side acts in, named by its key
    or its words (as the autocomplete offers it); anything else is refused."""
    mine = set(loaded.side_of(user_id))
    if not mine:
        loaded.require_not_handed_away(user_id)
        raise PermissionDenied("You have no side in this battle.")
    steps = plans.plannable_steps(loaded, mine)
    wanted = step.strip().casefold()
    found = [
        s for s in steps if wanted in (s.key.casefold(), plans.step_words(loaded, s).casefold())
    ]
    if not found:
        shown = "; ".join(plans.step_words(loaded, s) for s in steps[:10]) or "none"
        raise InvalidInput(
            f"`{step}` is not a step of this turn or the next your side acts in; "
            f"still to come: {shown}."
        )
    return found[0]


@dataclass(frozen=True)
class PlannedPick:
    """One of an actor's orders planned for a later step: the row, the actor's id and name, the
    step's words and how many the actor has planned there."""

    row: PlannedOrder
    actor_id: str
    name: str
    words: str
    count: int

    def withdrawn(self) -> OrderView:
        """The order as its withdrawal answers it."""
        row, left = self.row, self.count - 1
        return OrderView(
            self.actor_id, self.name, row.kind, row.summary, remaining=left, step=self.words
        )


async def pick_planned(
    session: Any,
    loaded: Loaded,
    user_id: int,
    unit: str,
    number: int | None,
    turn_step: planning.TurnStep,
) -> PlannedPick:
    """The user's ``number``-th order (its last if none) planned for a later step for ``unit``."""
    sides = [s for s in turn_step.sides if s in loaded.side_of(user_id)]
    there = planning.at_step(loaded.state, turn_step)
    actor = find_actor(there, unit, sides)
    check_commands(loaded, user_id, actor, False)
    words = plans.step_words(loaded, turn_step)
    rows = sorted(
        (
            r
            for r in await plans.planned_rows(session, loaded.battle.id, turn_step.key)
            if r.actor == actor.id
        ),
        key=lambda r: r.seq,
    )
    if not rows:
        raise NotFound(f"**{actor.name}** has no order planned for {words}.")
    count = f"**{actor.name}** has {len(rows)} order(s) planned for {words}"
    return PlannedPick(numbered(rows, number, count), actor.id, actor.name, words, len(rows))


async def foreseen(
    session: Any, loaded: Loaded, user_id: int, side: str, turn_step: planning.TurnStep
) -> BattleState:
    """The battle at a later step as it will stand after the user's own orders planned
    before it (``planning.foreseen``)."""
    rows = await plans.planned_rows(session, loaded.battle.id)
    mine = [plans.planned_of(r) for r in rows if r.user_id == user_id]
    return await off_loop(planning.foreseen, loaded.rules, loaded.state, turn_step, mine, side)


def judged_ahead(rules: Rules, there: BattleState, now: Illegal) -> Verdict:
    """An order not possible as the battle stands now judged again at ``there`` (after the
    player's own earlier planned orders): its preview, saying so, if it is possible then."""
    later = rules.judge(there, now.order)
    if isinstance(later, Illegal):
        return now
    note = (
        f"not possible as the battle stands now ({now.reason}), but after your own orders "
        f"planned before it; judged for real when its step comes"
    )
    return replace(later, notes=(*later.notes, note))


Row = TypeVar("Row")


def numbered(rows: Sequence[Row], number: int | None, count: str) -> Row:
    """The ``number``-th of an actor's orders (1 first), the last when none is given; a number
    out of range is refused with ``count`` ("X has 2 order(s) this step") and the range."""
    if number is not None and not 1 <= number <= len(rows):
        raise InvalidInput(f"{count}; give 1 to {len(rows)}.")
    return rows[-1 if number is None else number - 1]


def _replaced(rules: Rules, earlier: Sequence[Order], joined: Sequence[Order]) -> tuple[str, ...]:
    """A note for each earlier order of the actor that a new one replaces (a kind that does
    not combine), so that none is dropped unseen."""
    gone = [before for before in earlier if before not in joined[:-1]]
    return tuple(f"replaces its earlier {rules.order_kind(o.kind).title} order" for o in gone)


@dataclass(frozen=True)
class Intake:
    """Where an order is taken: the step open now (no ``turn_step``) or a later step of the
    turn; the battle its actor is found in, the sides the user gives orders for (None: any,
    as a GM) and whether they give them as a GM."""

    state: BattleState
    sides: list[str] | None
    as_gm: bool = False
    turn_step: planning.TurnStep | None = None
    words: str = ""  # the planned step in words

    @classmethod
    def planned(cls, loaded: Loaded, user_id: int, turn_step: planning.TurnStep) -> Intake:
        """A later step of the turn, its actors found as they will stand then."""
        sides = [s for s in turn_step.sides if s in loaded.side_of(user_id)]
        there = planning.at_step(loaded.state, turn_step)
        return cls(there, sides, False, turn_step, plans.step_words(loaded, turn_step))

    @property
    def where(self) -> str:
        """`` in <step>`` for a planned order, else nothing."""
        return f" in {self.words}" if self.turn_step is not None else ""


@dataclass(frozen=True)
class Wanted:
    """An order as its player gives it: the kind of order, who gives it, its options."""

    kind: str
    unit: str
    given: OrderInput


@dataclass(frozen=True)
class Judged:
    """An order found, checked and judged legal, not yet kept: who gives it, its kind, the
    order and the rules' preview."""

    actor: Unit | Leader | Group | Side
    order_kind: OrderKind
    order: Order
    verdict: Preview


def found_order(
    loaded: Loaded, user_id: int, wanted: Wanted, intake: Intake
) -> tuple[Unit | Leader | Group | Side, OrderKind, Order]:
    """The order ``wanted`` as the rules read it, its actor found where ``intake`` says and
    checked to be the user's to command; not judged."""
    kind, given = command_action(loaded, wanted.kind, wanted.given)
    order_kind = order_kind_of(loaded, kind)
    actor = find_giver(intake.state, order_kind.actor, wanted.unit, intake.sides)
    check_commands(loaded, user_id, actor, intake.as_gm)
    return actor, order_kind, Order(actor.id, kind, params_for(order_kind, given, intake.state))


async def judge_order(
    session: Any, loaded: Loaded, user_id: int, wanted: Wanted, intake: Intake
) -> Judged:
    """Find, check and judge an order where ``intake`` says, keeping nothing: the rules' own
    judge, in the engine's worker (a judgement of a large battle would hold the loop);
    RefusedOrder with its ways forward if the rules refuse it."""
    actor, order_kind, order = found_order(loaded, user_id, wanted, intake)
    kind = order.kind
    verdict: Verdict
    if intake.turn_step is None:
        verdict = await off_loop(loaded.rules.judge, loaded.state, order)
    else:
        verdict = await off_loop(
            planning.preview, loaded.rules, loaded.state, intake.turn_step, order
        )
        if isinstance(verdict, Illegal):
            there = await foreseen(session, loaded, user_id, side_of(actor), intake.turn_step)
            verdict = await off_loop(judged_ahead, loaded.rules, there, verdict)
    if isinstance(verdict, Illegal):
        hint = PLANNED_HINT if intake.turn_step is not None else ""
        judged = loaded.state if intake.turn_step is None else intake.state
        ways = ways_for(loaded, judged, verdict, intake.sides or [side_of(actor)])
        why = f"**{actor.name}** cannot {kind}{intake.where}: {verdict.reason}."
        raise RefusedOrder(f"{why}{hint}", ways)
    return Judged(actor, order_kind, order, verdict)


def judged_view(judged: Judged, intake: Intake, consult: bool = False) -> OrderView:
    """A judged order as its player reads it (as ``take_order`` answers, before it is kept)."""
    actor, verdict = judged.actor, judged.verdict
    if intake.turn_step is None:
        return OrderView(actor.id, actor.name, judged.order.kind, verdict.summary, verdict.notes)
    return OrderView(
        actor.id,
        actor.name,
        judged.order.kind,
        verdict.summary,
        verdict.notes,
        step=intake.words,
        consult=consult,
    )


async def take_order(
    session: Any,
    loaded: Loaded,
    user_id: int,
    kind: str,
    unit: str,
    given: OrderInput,
    intake: Intake,
    now: datetime,
    consult: bool = False,
) -> OrderView:
    """Judge an order (``judge_order``) and keep it (secretly) where ``intake`` says,
    replacing the actor's earlier orders it does not combine with; its preview as its player
    sees it."""
    judged = await judge_order(session, loaded, user_id, Wanted(kind, unit, given), intake)
    return await keep_judged(session, loaded, user_id, judged, intake, now, consult)


async def take_formed(
    session: Any,
    loaded: Loaded,
    user_id: int,
    order: Order,
    intake: Intake,
    now: datetime,
    reason: str,
) -> OrderView:
    """An order already formed (the AI general's, ``bot.services.general``) taken for the
    open step as a player's is: its giver found among ``intake.sides``, the same command
    check, the same judge and join; refused (RefusedOrder, InvalidInput) as a player's is."""
    order_kind = order_kind_of(loaded, order.kind)
    actor = find_giver(intake.state, order_kind.actor, order.actor, intake.sides)
    check_commands(loaded, user_id, actor, intake.as_gm)
    verdict = await off_loop(loaded.rules.judge, loaded.state, order)
    if isinstance(verdict, Illegal):
        raise RefusedOrder(f"**{actor.name}** cannot {order.kind}: {verdict.reason}.", ())
    judged = Judged(actor, order_kind, order, verdict)
    return await keep_judged(session, loaded, user_id, judged, intake, now, reason=reason)


async def keep_judged(
    session: Any,
    loaded: Loaded,
    user_id: int,
    judged: Judged,
    intake: Intake,
    now: datetime,
    consult: bool = False,
    reason: str | None = None,
) -> OrderView:
    """Keep an order judged legal where ``intake`` says, joined with the actor's earlier ones
    (with the AI general's ``reason`` for it, if it gave it)."""
    actor, order, verdict = judged.actor, judged.order, judged.verdict
    rows, replacing = await _join(
        session, loaded, intake, judged.order_kind.actor, actor.name, order
    )
    view = judged_view(judged, intake, consult)
    kept = dict(
        battle_id=loaded.battle.id,
        side_id=side_of(actor),
        user_id=user_id,
        actor=actor.id,
        seq=max((r.seq for r in rows), default=-1) + 1,
        kind=order.kind,
        params=dict(order.params),
        summary=verdict.summary[:400],
        submitted_at=now,
    )
    if intake.turn_step is None:
        session.add(BattleOrder(stage=loaded.battle.stage, reason=reason, **kept))
        return replace(view, notes=(*verdict.notes, *replacing))
    step = intake.turn_step
    session.add(
        PlannedOrder(
            turn=step.turn,
            step_key=step.key,
            step_title=intake.words[:200],
            consult=consult,
            **kept,
        )
    )
    for side in intake.sides or ():
        key = loaded.key_of(side, user_id)
        plan = await plans.turn_plan(session, loaded.battle.id, step.turn, key, user_id)
        plan.planned = True
    return replace(view, notes=(*verdict.notes, *replacing))


async def _join(
    session: Any, loaded: Loaded, intake: Intake, actor_kind: str, actor_name: str, order: Order
) -> tuple[Sequence[BattleOrder | PlannedOrder], tuple[str, ...]]:
    """Join a new order with the actor's earlier ones, deleting those it replaces: the rows
    kept before it, and a note for each replaced."""
    rows = await _earlier(session, loaded, intake, actor_kind, order.actor)
    earlier = [Order(r.actor, r.kind, r.params) for r in rows]
    joined, problem = loaded.rules.join_orders(intake.state, earlier, order)
    if problem:
        raise InvalidInput(f"**{actor_name}** cannot {order.kind}{intake.where}: {problem}.")
    for row, before in zip(rows, earlier, strict=True):
        if before not in joined[:-1]:
            await session.delete(row)
    await session.flush()
    return rows, _replaced(loaded.rules, earlier, joined)


async def _earlier(
    session: Any, loaded: Loaded, intake: Intake, actor_kind: str, actor_id: str
) -> Sequence[BattleOrder | PlannedOrder]:
    """The actor's orders already kept where the new one goes, in the order given."""
    if intake.turn_step is None:
        return await actor_orders(session, loaded, actor_kind, actor_id)
    kinds = loaded.rules.kinds_by_id()
    return [
        r
        for r in await plans.planned_rows(session, loaded.battle.id, intake.turn_step.key)
        if r.actor == actor_id and _actor_kind(kinds, r.kind) == actor_kind
    ]


def intake_of(loaded: Loaded, user_id: int, step: str | None) -> Intake:
    """Where an order is taken: the open step, or the later step of the turn it names."""
    if step is not None:
        turn_step = planned_step(loaded, user_id, step)
        now_open = planning.current_key(loaded.rules, loaded.state)
        if turn_step.key != now_open or loaded.state.pending is not None:
            if turn_step.key == now_open:  # open, but a question comes first
                raise Conflict(NOT_FOR_ORDERS)
            return Intake.planned(loaded, user_id, turn_step)
    sides = acting_sides_of(loaded, user_id)
    return Intake(loaded.state, None if GM in sides else sides, GM in sides)


def acting_sides_of(loaded: Loaded, user_id: int) -> list[str]:
    """The sides the user acts for in this stage; refuses those who have nothing to do now."""
    waiting = engine.waiting(loaded.rules, loaded.state)
    if waiting.pending is not None:
        raise Conflict(NOT_FOR_ORDERS)
    mine = [s for s in waiting.sides if s in loaded.side_of(user_id)]
    if GM in waiting.sides and loaded.is_gm(user_id):
        mine.append(GM)
    if mine:
        return mine
    loaded.require_not_handed_away(user_id)
    if not loaded.side_of(user_id) and not loaded.is_gm(user_id):
        raise PermissionDenied("You have no side in this battle.")
    if not loaded.side_of(user_id):
        raise Conflict(GM_WITHOUT_SIDE)
    raise Conflict(
        f"It is not your turn to give orders: the {waiting.title} step waits for others."
    )
