"""Deadlines due together, sifted by one query before their handlers start.

A thousand deadlines due in the same moment each loaded their whole battle (campaign,
members, armies, state) only to find most had nothing left to do: their battle had finished
or moved past their step. One query over the batch's battles finds those, and their handlers
return at once; only the rest load their battle.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select

from bot.db.models import Battle, BattleStatus
from bot.db.session import Database
from bot.deadlines import DueDeadline


class IdleDeadlines:
    """The deadlines of recent batches found to have nothing left to do."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._idle: set[int] = set()

    async def sift(self, batch: Sequence[DueDeadline]) -> None:
        """Note, by one query for the whole batch, the deadlines whose battle is gone,
        finished, or past their step (a battle's step number only grows: an undo is a new
        step), so their handlers need not load the battle."""
        battles = {d.battle_id for d in batch}
        async with self.db.read() as session:
            rows = (
                await session.execute(
                    select(Battle.id, Battle.stage, Battle.status).where(Battle.id.in_(battles))
                )
            ).all()
        now = {battle_id: (stage, status) for battle_id, stage, status in rows}
        for due in batch:
            stage, status = now.get(due.battle_id, (None, None))
            if stage is None or status is BattleStatus.FINISHED or stage > due.stage:
                self._idle.add(due.id)

    def take(self, deadline_id: int) -> bool:
        """Whether this deadline was found to have nothing left to do (forgotten once asked)."""
        if deadline_id in self._idle:
            self._idle.discard(deadline_id)
            return True
        return False
