"""Changes to an order planned for a later step: the order its alternatives are tried in, and
whether its player is asked (``ask_me``) when none of them can be carried out.

The war table's plan panel calls these (its up/down and ask-me buttons); they find the planned
order as ``/order withdraw step:`` does and answer with the view ``/order alternative`` shows.
"""

from __future__ import annotations

from typing import Any

from bot.db.models import PlannedOrder
from bot.errors import InvalidInput
from bot.services.alternatives import _later_step, _running
from bot.services.base import ClockedService
from bot.services.battle_state import Loaded
from bot.services.campaigns import Place
from bot.services.intake import OrderView, pick_planned


class PlanEditService(ClockedService):
    """Reorders a planned order's alternatives and sets its ``ask_me``; one write a call."""

    async def move_alternative(
        self,
        place: Place,
        user_id: int,
        step: str,
        unit: str,
        alternative: int,
        up: bool,
        number: int | None = None,
    ) -> OrderView:
        """Move the ``alternative``-th (1 first) of a planned order's alternatives one place
        earlier (``up``) or later in the order they are tried."""
        async with self.db.write() as session:
            loaded = await _running(session, place)
            row, words, name = await _planned(session, loaded, user_id, step, unit, number)
            known = list(row.alternatives or ())
            if not 1 <= alternative <= len(known):
                raise InvalidInput(
                    f"**{name}**'s order in {words} has {len(known)} alternative(s); "
                    f"give 1 to {len(known)}."
                )
            there = alternative - 2 if up else alternative
            if not 0 <= there < len(known):
                end = "first" if up else "last"
                raise InvalidInput(f"That alternative is tried {end} already.")
            here = alternative - 1
            known[here], known[there] = known[there], known[here]
            row.alternatives = known
            await session.flush()
            return _view(row, name, words)

    async def ask_me(
        self,
        place: Place,
        user_id: int,
        step: str,
        unit: str,
        on: bool,
        number: int | None = None,
    ) -> OrderView:
        """Ask (``on``) or do not ask the player when the planned order and its alternatives
        cannot be carried out at its step (``ask_me`` of ``/order``)."""
        async with self.db.write() as session:
            loaded = await _running(session, place)
            row, words, name = await _planned(session, loaded, user_id, step, unit, number)
            row.consult = on
            await session.flush()
            return _view(row, name, words)


async def _planned(
    session: Any, loaded: Loaded, user_id: int, step: str, unit: str, number: int | None
) -> tuple[PlannedOrder, str, str]:
    """The user's order planned for a later step, its step's words and its actor's name."""
    turn_step = _later_step(loaded, user_id, step)
    picked = await pick_planned(session, loaded, user_id, unit, number, turn_step)
    return picked.row, picked.words, picked.name


def _view(row: PlannedOrder, name: str, words: str) -> OrderView:
    """The planned order as ``/order alternative`` shows it (each alternative as kept)."""
    kept = tuple(str(a.get("summary", "")) for a in row.alternatives or ())
    return OrderView(
        row.actor, name, row.kind, row.summary, step=words, consult=row.consult, alternatives=kept
    )
