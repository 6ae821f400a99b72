"""The outbox: every resolved step is posted at least once, after restarts and failures.

A stage's row is marked ``announced_at`` once the result that opened it (with its question)
has been posted. Whatever is unmarked is rebuilt from the rows and posted again, in order.
A finished battle's end post is marked the same way: ``result["unposted"]`` until it is out
(with the last step's result when play ended the battle, alone when a GM did).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import ColumnElement, select, update

from bot.clock import Clock
from bot.db.models import Battle, BattleStatus, StageLog
from bot.db.session import Database
from bot.services import plans
from bot.services.base import ClockedService
from bot.services.battle_state import load_battle_by_id, view_of
from bot.services.endings import ArmyLosses, EndReport
from bot.services.records import record_bytes
from bot.services.stages import (
    StageReport,
    battle_gone,
    decision_view,
    decision_views,
    lost_units,
)
from bot.shards import Shards, battles_on
from rules_core.events import event_from_dict
from rules_core.render import Renderer
from rules_core.state import BattleState


class OutboxService(ClockedService):
    """What is still to be posted, rebuilt from the database, and marking it posted."""

    def __init__(self, db: Database, clock: Clock) -> None:
        super().__init__(db, clock)
        # Sharded: only the battles of servers on this process's shards (bot.scheduling).
        self.shards: Shards | None = None

    def _ours(self, battle_id: Any) -> tuple[ColumnElement[bool], ...]:
        return () if self.shards is None else (battle_id.in_(battles_on(self.shards)),)

    async def pending(self) -> list[tuple[int, int]]:
        """(battle id, stage) of every result not yet posted, oldest first."""
        async with self.db.read() as session:
            rows = await session.execute(
                select(StageLog.battle_id, StageLog.number)
                .where(StageLog.announced_at.is_(None), *self._ours(StageLog.battle_id))
                .order_by(StageLog.battle_id, StageLog.number)
            )
            return [(battle_id, number) for battle_id, number in rows]

    async def mark_posted(self, battle_id: int, stage: int) -> None:
        """Record that the result opening this stage has been posted (and, for the last
        stage of a finished battle, the end it carried)."""
        async with self.db.write() as session:
            await session.execute(
                update(StageLog)
                .where(StageLog.battle_id == battle_id, StageLog.number == stage)
                .values(announced_at=self.clock.now())
            )
            battle = await session.get(Battle, battle_id)
            if battle is not None and battle.stage == stage:
                _end_posted(battle)

    async def pending_ends(self) -> list[int]:
        """Finished battles whose end is not yet posted, oldest first."""
        async with self.db.read() as session:
            rows = await session.scalars(
                select(Battle.id)
                .where(
                    Battle.status == BattleStatus.FINISHED,
                    Battle.result["unposted"].as_boolean().is_(True),
                    *self._ours(Battle.id),
                )
                .order_by(Battle.id)
            )
            return list(rows)

    async def end_report(self, battle_id: int) -> tuple[int, EndReport] | None:
        """(channel id, the end post) of a finished battle, rebuilt from its rows."""
        async with self.db.read() as session:
            loaded = await load_battle_by_id(session, battle_id)
            if loaded is None or loaded.battle.status is not BattleStatus.FINISHED:
                return None
            result = loaded.battle.result or {}
            losses = tuple(ArmyLosses(army, tuple(lost)) for army, lost in result.get("losses", []))
            record = await record_bytes(session, loaded, reveal=True)
            report = EndReport(
                loaded.battle.name, result.get("text", ""), losses, loaded.battle.seed, record
            )
            return loaded.campaign.channel_id, report

    async def mark_end_posted(self, battle_id: int) -> None:
        """Record that a finished battle's end has been posted."""
        async with self.db.write() as session:
            battle = await session.get(Battle, battle_id)
            if battle is not None:
                _end_posted(battle)

    async def rebuild(self, battle_id: int, stage: int) -> StageReport | None:
        """The report that opened a stage, as it was posted (or should have been)."""
        async with self.db.read() as session:
            loaded = await load_battle_by_id(session, battle_id)
            rows = await session.scalars(
                select(StageLog).where(
                    StageLog.battle_id == battle_id, StageLog.number.in_((stage - 1, stage))
                )
            )
            logs = {row.number: row for row in rows}
            opened, resolved = logs.get(stage), logs.get(stage - 1)
            if loaded is None or opened is None:
                return None
            latest = loaded.battle.stage == stage
            after = BattleState.from_dict(opened.start_state) if not latest else loaded.state
            before = BattleState.from_dict(resolved.start_state) if resolved else after
            events = tuple(event_from_dict(e) for e in (resolved.events or [])) if resolved else ()
            ended = None
            if latest and loaded.battle.status is BattleStatus.FINISHED:
                result = loaded.battle.result or {}
                losses = tuple(ArmyLosses(a, tuple(lost)) for a, lost in result.get("losses", []))
                record = await record_bytes(session, loaded, reveal=True)
                ended = EndReport(
                    loaded.battle.name, result.get("text", ""), losses, loaded.battle.seed, record
                )
            return StageReport(
                resolved.title if resolved else opened.title,
                (resolved.trigger if resolved else None) or "start",
                tuple(Renderer.for_state(after, before).lines(events)),
                events,
                tuple(resolved.missing or []) if resolved else (),
                replace(view_of(loaded), state=after),
                decision_view(loaded) if latest else None,
                ended,
                lost_units(before, after),
                stage,
                decision_views(loaded) if latest else (),
                await plans.calls_made(session, loaded) if latest else (),
                await battle_gone(session, battle_id, after, stage),
            )


def _end_posted(battle: Battle) -> None:
    """Clear a finished battle's end-post marker."""
    if battle.result and "unposted" in battle.result:
        battle.result = {k: v for k, v in battle.result.items() if k != "unposted"}
