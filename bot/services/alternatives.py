"""Conditional plans: alternatives to an order planned for a later step of the game turn.

``/order alternative`` adds an order to try if the planned one cannot be carried out when its
step comes ("charge; if not possible, advance; if not possible, hold"); they are tried in the
order given, before the ruleset's default (``planning.carry_out``). An alternative not legal
as the battle stands now is kept all the same, with its verdict now, because it may become so
(a charge that comes into reach after the unit's own planned move): it is judged for real at
its step. The alternatives live on the planned order's row, sealed like it, and go with it
when it is withdrawn or used.
"""

from __future__ import annotations

from typing import Any

from bot.db.models import BattleStatus, PlannedOrder
from bot.errors import Conflict, InvalidInput, NotFound
from bot.services import plans
from bot.services.base import ClockedService
from bot.services.battle_state import Loaded, check_commands, find_giver, load_battle
from bot.services.campaigns import Place
from bot.services.intake import (
    Intake,
    OrderView,
    Wanted,
    command_action,
    foreseen,
    judged_ahead,
    numbered,
    order_kind_of,
    planned_step,
    take_order,
)
from bot.services.order_params import OrderInput, params_for, side_of
from rules_core import planning
from rules_core.orders import Illegal, Order, Verdict

MAX_ALTERNATIVES = 5  # enough for "charge, else advance, else shoot, else hold"
ELSE_NEEDS_STEP = (
    "`else` is for an order planned for a later step: give it with `step` (this turn's or "
    "the next's). The open step's orders are judged now, so give the one that works."
)
OPEN_STEP = (
    "Alternatives are for an order planned for a later step of the turn: the open step's "
    "orders are judged now, so give the one that works (`/orders mine` shows yours)."
)


def alternatives_of(row: PlannedOrder) -> tuple[Order, ...]:
    """A planned order's alternatives, in the order they are tried."""
    return plans.planned_of(row).alternatives


def verdict_words(verdict: Verdict) -> str:
    """An alternative's verdict now, as its player reads it."""
    if isinstance(verdict, Illegal):
        return f"not possible now ({verdict.reason}); judged again when its step comes"
    return "; ".join((verdict.summary, *verdict.notes))


class AlternativeService(ClockedService):
    """Adds alternatives to planned orders; one write session per call."""

    async def add(
        self, place: Place, user_id: int, step: str, wanted: Wanted, number: int | None = None
    ) -> OrderView:
        """Add an alternative to the unit's ``number``-th order planned for ``step`` (its last
        if none is named); the view lists every alternative with its verdict now."""
        async with self.db.write() as session:
            loaded = await _running(session, place)
            return await _add(session, loaded, user_id, step, wanted, number)

    async def give_else(
        self,
        place: Place,
        user_id: int,
        order: Wanted,
        step: str | None,
        consult: bool,
        otherwise: str,
    ) -> OrderView:
        """``/order give … else:`` — plan an order for a later ``step`` with a plain order
        (``otherwise``: hold, rally…, no options) to try if it cannot be carried out then; in
        one write, so a refusal of either keeps neither."""
        if step is None:
            raise InvalidInput(ELSE_NEEDS_STEP)
        async with self.db.write() as session:
            loaded = await _running(session, place)
            intake = Intake.planned(loaded, user_id, _later_step(loaded, user_id, step))
            now = self.clock.now()
            await take_order(
                session, loaded, user_id, order.kind, order.unit, order.given, intake, now, consult
            )
            await session.flush()
            plain = Wanted(otherwise, order.unit, OrderInput())
            return await _add(session, loaded, user_id, step, plain, None)


def _later_step(loaded: Loaded, user_id: int, step: str) -> planning.TurnStep:
    """The later step an alternative is planned for; the open one is refused."""
    turn_step = planned_step(loaded, user_id, step)
    if turn_step.key == planning.current_key(loaded.rules, loaded.state):
        raise Conflict(OPEN_STEP)
    return turn_step


async def _add(
    session: Any, loaded: Loaded, user_id: int, step: str, wanted: Wanted, number: int | None
) -> OrderView:
    """``AlternativeService.add`` within a write session already open."""
    turn_step = _later_step(loaded, user_id, step)
    intake = Intake.planned(loaded, user_id, turn_step)
    unit = wanted.unit
    kind, given = command_action(loaded, wanted.kind, wanted.given)
    order_kind = order_kind_of(loaded, kind)
    actor = find_giver(intake.state, order_kind.actor, unit, intake.sides)
    check_commands(loaded, user_id, actor, False)
    row = await _planned_row(session, loaded, actor.id, actor.name, intake, number)
    order = Order(actor.id, kind, params_for(order_kind, given, intake.state))
    known = alternatives_of(row)
    if len(known) >= MAX_ALTERNATIVES:
        raise InvalidInput(
            f"**{actor.name}**'s order in {intake.words} has {len(known)} alternatives "
            f"already, the most it may have; withdraw it and plan it again to change them."
        )
    if order in (Order(row.actor, row.kind, row.params), *known):
        raise InvalidInput(
            f"**{actor.name}** already has that order planned in {intake.words}; "
            f"an alternative is a different order to try if it cannot be carried out."
        )
    mine = (user_id, side_of(actor))
    verdicts = await _verdicts(session, loaded, mine, turn_step, (*known, order))
    kept = {"kind": kind, "params": dict(order.params), "summary": ""}
    kept["summary"] = verdict_words(verdicts[-1])[:400]
    row.alternatives = [*(row.alternatives or ()), kept]
    await session.flush()
    return OrderView(
        actor.id,
        actor.name,
        row.kind,
        row.summary,
        step=intake.words,
        consult=row.consult,
        alternatives=tuple(verdict_words(v) for v in verdicts),
    )


async def _verdicts(
    session: Any,
    loaded: Loaded,
    mine: tuple[int, str],
    turn_step: planning.TurnStep,
    orders: tuple[Order, ...],
) -> tuple[Verdict, ...]:
    """Each alternative's verdict now; one not possible now is judged again against the battle
    as it will stand after the player's own orders planned before the step."""
    verdicts = planning.preview_alternatives(loaded.rules, loaded.state, turn_step, orders)
    if not any(isinstance(v, Illegal) for v in verdicts):
        return verdicts
    there = await foreseen(session, loaded, *mine, turn_step)
    return tuple(
        judged_ahead(loaded.rules, there, v) if isinstance(v, Illegal) else v for v in verdicts
    )


async def _running(session: Any, place: Place) -> Loaded:
    """The battle, refused unless it is being played."""
    loaded = await load_battle(session, place)
    if loaded.battle.status is not BattleStatus.RUNNING or loaded.state.outcome is not None:
        raise Conflict("The battle is not being played now, so no orders are planned.")
    return loaded


async def _planned_row(
    session: Any, loaded: Loaded, actor_id: str, name: str, intake: Intake, number: int | None
) -> PlannedOrder:
    """The actor's planned order an alternative is added to."""
    assert intake.turn_step is not None
    rows = sorted(
        (
            r
            for r in await plans.planned_rows(session, loaded.battle.id, intake.turn_step.key)
            if r.actor == actor_id
        ),
        key=lambda r: r.seq,
    )
    if not rows:
        raise NotFound(
            f"**{name}** has no order planned for {intake.words}: plan its first choice "
            f"there with `step:`, then add what to try if it cannot be carried out."
        )
    return numbered(rows, number, f"**{name}** has {len(rows)} order(s) planned there")
