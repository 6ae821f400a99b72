"""A player's part of the turn loop worked out in a session, to be decided in a read and kept by
``bot.services.player_writes`` (#38): the running battle loaded, an order taken back, a player
done for the rest of the turn."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.clock import Clock
from bot.db.models import BattleStatus
from bot.errors import Conflict, NotFound, PermissionDenied
from bot.services import plans
from bot.services.battle_state import Loaded, check_commands, find_actor, load_battle
from bot.services.campaigns import Place
from bot.services.intake import (
    OrderView,
    acting_sides_of,
    actor_orders,
    numbered,
    pick_planned,
    planned_step,
)
from rules_core import engine, planning
from rules_core.decisions import GM


async def running(session: Any, place: Place) -> Loaded:
    """The channel's battle, refused unless it is under way."""
    loaded = await load_battle(session, place)
    status = loaded.battle.status
    if status is BattleStatus.SETUP:
        raise Conflict("The battle has not started yet; a GM starts it with `/battle start`.")
    if status is BattleStatus.PAUSED:
        raise Conflict("The battle is paused by a GM; orders resume with it.")
    if loaded.state.outcome is not None:
        raise Conflict("The battle is over.")
    return loaded


async def withdrawn(
    session: Any, loaded: Loaded, user_id: int, unit: str, number: int | None, step: str | None
) -> OrderView:
    """One order of the user's deleted from the session (see ``PlayService.withdraw``)."""
    if step is not None:
        turn_step = planned_step(loaded, user_id, step)
        now_open = planning.current_key(loaded.rules, loaded.state)
        if turn_step.key != now_open or loaded.state.pending is not None:
            picked = await pick_planned(session, loaded, user_id, unit, number, turn_step)
            await session.delete(picked.row)
            return picked.withdrawn()
    sides = acting_sides_of(loaded, user_id)
    actor = find_actor(loaded.state, unit, None if GM in sides else sides)
    check_commands(loaded, user_id, actor, GM in sides)
    rows = await actor_orders(session, loaded, None, actor.id)
    if not rows:
        raise NotFound(f"**{actor.name}** has no order to withdraw.")
    row = numbered(rows, number, f"**{actor.name}** has {len(rows)} order(s) this step")
    await session.delete(row)
    return OrderView(actor.id, actor.name, row.kind, row.summary, remaining=len(rows) - 1)


def done_for_turn(
    place: Place, user_id: int, next_turn: bool, clock: Clock
) -> Callable[[Any], Awaitable[tuple[bool, Loaded]]]:
    """``/order done turn`` (or ``next_turn``) as a body: the user's turn rows marked done;
    whether the open step waits for them (their confirmation follows)."""

    async def body(session: Any) -> tuple[bool, Loaded]:
        loaded = await running(session, place)
        sides = loaded.side_of(user_id)
        if not sides:
            loaded.require_not_handed_away(user_id)
            raise PermissionDenied("You have no side in this battle.")
        if next_turn:
            await plans.done_next_turn(session, loaded, user_id, clock.now())
        turn_number = loaded.state.cursor.turn
        for side in sides:
            key = loaded.key_of(side, user_id)
            plan = await plans.turn_plan(session, loaded.battle.id, turn_number, key, user_id)
            plan.done_at = clock.now()
        now_waiting = engine.waiting(loaded.rules, loaded.state)
        here = now_waiting.pending is None and any(s in now_waiting.sides for s in sides)
        return here, loaded

    return body
