"""Whether a battle changed, as one small read: what the war table's hub polls so that pages
open on one process hear of a step resolved (or an order given) on another."""

from __future__ import annotations

from collections.abc import Collection, Hashable
from typing import Any

from sqlalchemy import ColumnElement, func, select

from bot.db.models import (
    Battle,
    BattleOrder,
    PlannedOrder,
    Readiness,
    RecordEntry,
    StandingInstruction,
    TurnPlan,
)
from bot.services.base import Service

# Rows a page shows that are written between steps: replacing one deletes and inserts (the
# highest id moves), withdrawing one deletes (the count moves); a step moves the stage.
_WATCHED: tuple[Any, ...] = (
    RecordEntry,
    BattleOrder,
    PlannedOrder,
    TurnPlan,
    Readiness,
    StandingInstruction,
)


def _count_and_last(model: Any) -> tuple[ColumnElement[Any], ColumnElement[Any]]:
    """How many rows of ``model`` the battle has and the highest id (each an indexed seek)."""
    mine = model.battle_id == Battle.id
    return (
        select(func.count(model.id)).where(mine).scalar_subquery(),
        select(func.max(model.id)).where(mine).scalar_subquery(),
    )


class NewsService(Service):
    """Marks that change whenever a battle's page would."""

    async def marks(self, battle_ids: Collection[int]) -> dict[int, Hashable]:
        """Each battle's mark now (a battle gone has none): one query for them all."""
        if not battle_ids:
            return {}
        columns = [c for model in _WATCHED for c in _count_and_last(model)]
        query = select(Battle.id, Battle.stage, Battle.status, Battle.deadline_at, *columns).where(
            Battle.id.in_(list(battle_ids))
        )
        async with self.db.read() as session:
            rows = (await session.execute(query)).all()
        return {row[0]: tuple(row[1:]) for row in rows}
