"""Changes to an order planned for a later step: the order its alternatives are tried in, and
whether its player is asked (``ask_me``) when none of them can be carried out.

The war table's plan panel calls these (its up/down and ask-me buttons); they find the planned
order as ``/order withdraw step:`` does and answer with the view ``/order alternative`` shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.db.models import PlannedOrder
from bot.errors import InvalidInput
from bot.services.alternatives import _later_step, _running
from bot.services.base import ClockedService
from bot.services.battle_state import Loaded
from bot.services.campaigns import Place
from bot.services.intake import OrderView, pick_planned
from bot.services.write_keys import place_write

NOTHING_TO_CHANGE = (
    "Say what to change: `ask` (be asked, or not, if it cannot be carried out), `earlier` or "
    "`later` (an alternative, 1 = tried first, one place earlier or later)."
)
ONE_AT_A_TIME = (
    "Move one alternative at a time: give `earlier` or `later`, not both (e.g. `earlier:2` "
    "tries the second alternative first)."
)


@dataclass(frozen=True)
class PlanEdit:
    """What to change in a planned order: ``ask`` its player (True), or not (False), when it
    cannot be carried out; try alternative ``earlier`` (1 first) one place earlier, or
    alternative ``later`` one place later. ``number``: which of the actor's planned orders
    there (its last if None)."""

    ask: bool | None = None
    earlier: int | None = None
    later: int | None = None
    number: int | None = None


class PlanEditService(ClockedService):
    """Reorders a planned order's alternatives and sets its ``ask_me``; one write a call."""

    async def change(
        self, place: Place, user_id: int, step: str, unit: str, edit: PlanEdit
    ) -> OrderView:
        """Change the user's order planned for a later ``step``; all of the edit or nothing."""
        if edit.ask is None and edit.earlier is None and edit.later is None:
            raise InvalidInput(NOTHING_TO_CHANGE)
        if edit.earlier is not None and edit.later is not None:
            raise InvalidInput(ONE_AT_A_TIME)
        async with place_write(self.db, place) as session:
            loaded = await _running(session, place)
            row, words, name = await _planned(session, loaded, user_id, step, unit, edit.number)
            if edit.ask is not None:
                row.consult = edit.ask
            if edit.earlier is not None or edit.later is not None:
                row.alternatives = _moved(row, name, words, edit)
            # Kept as a new row (its highest id moves): pages open elsewhere hear of the change
            # (``NewsService`` watches ids and counts, not updates).
            kept = {c.key: getattr(row, c.key) for c in PlannedOrder.__table__.columns}
            del kept["id"]
            session.add(PlannedOrder(**kept))
            await session.delete(row)
            await session.flush()
            return _view(row, name, words)


def _moved(row: PlannedOrder, name: str, words: str, edit: PlanEdit) -> list[Any]:
    """The planned order's alternatives with one moved a place earlier or later."""
    known = list(row.alternatives or ())
    alternative = edit.earlier if edit.earlier is not None else edit.later
    assert alternative is not None
    if not 1 <= alternative <= len(known):
        raise InvalidInput(
            f"**{name}**'s order in {words} has {len(known)} alternative(s); "
            f"give 1 to {len(known)}."
        )
    up = edit.earlier is not None
    there = alternative - 2 if up else alternative
    if not 0 <= there < len(known):
        raise InvalidInput(f"That alternative is tried {'first' if up else 'last'} already.")
    here = alternative - 1
    known[here], known[there] = known[there], known[here]
    return known


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
