"""The AI general playing through the front door (#36): a side the AI holds gives its orders
and answers as a player of it would, and a missing player's orders at a deadline (the `ai`
policy) are the AI stand-in's.

It reads only the side's view (``secrets.view`` with the side's Viewer, what its player gets);
the search (``rules_core.general``) runs in the engine's worker, bounded per turn by
``AI_SECONDS_PER_TURN``; its orders go through the players' intake (the same command check,
judge and join: one refused is refused as a player's would be, and the default stands) and
its confirmations and answers through ``PlayService``. Each order keeps its one-line reason.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from bot.clock import Clock
from bot.db.models import BattleOrder, BattleStatus, Readiness, Role, StageLog
from bot.db.session import Database
from bot.engine_worker import side_plan, side_reply
from bot.errors import UserError
from bot.services.ai_seat import AI_GENERAL
from bot.services.base import ClockedService
from bot.services.battle_state import Loaded, awaited, load_battle_by_id
from bot.services.campaigns import Place, load_open_campaign
from bot.services.intake import Intake, take_formed
from bot.services.play import PlayService
from bot.services.resolving import off_loop_at
from bot.services.stages import StageReport, ready_sides, stage_orders
from bot.services.write_keys import battle_write
from rules_core import engine
from rules_core.orders import ACTOR_KINDS
from rules_core.state import BattleState

log = logging.getLogger(__name__)
MOST_QUESTIONS = 20  # questions one step stops at, at most, looking back for its orders


@dataclass(frozen=True)
class Explained:
    """An AI order of a resolved step as everyone may read it: who, what, and why."""

    actor: str
    summary: str
    reason: str


class GeneralService(ClockedService):
    """The AI general's turns: for the sides it holds, and for missing players (``ai``)."""

    def __init__(self, db: Database, clock: Clock, play: PlayService) -> None:
        super().__init__(db, clock)
        self.play = play
        self.budget_s = 1.0  # AI_SECONDS_PER_TURN (bot.config), set by the client
        play.stand_in = self.stand_in

    async def next_step(self, battle_id: int) -> StageReport | None:
        """What the sides the AI holds owe the open step, given: the report if the step moved
        on (then the AI may owe the next one), None when the battle waits for a player."""
        report, acted = await self._one_step(battle_id)
        return report if acted else None

    async def _one_step(self, battle_id: int) -> tuple[StageReport | None, bool]:
        """Orders (then done) or answers for the AI's sides at the open step; whether it
        acted, and the report if the step moved on."""
        async with battle_write(self.db, battle_id) as session:
            loaded = await load_battle_by_id(session, battle_id)
            if loaded is None or loaded.battle.status is not BattleStatus.RUNNING:
                return None, False
            held = {r.side_id for r in loaded.battle.sides if r.owner_id == AI_GENERAL}
            if not held or loaded.state.outcome is not None:
                return None, False
            stage = loaded.battle.stage
            place = Place(loaded.campaign.guild_id, loaded.campaign.channel_id)
            acting: list[str] = []
            if loaded.state.pending is None:
                acting = await self._owed(session, loaded, held)
                for side in acting:
                    await self._give(session, loaded, side, AI_GENERAL)
        if loaded.state.pending is not None:
            return await self._answer(loaded, held, stage)
        if not acting:
            return None, False
        confirmed = await self.play.confirm(place, AI_GENERAL)
        return confirmed.report, True

    async def _owed(self, session: Any, loaded: Loaded, held: set[str]) -> list[str]:
        """The sides the AI holds that the open step awaits and that have not confirmed."""
        battle = loaded.battle
        ready = await ready_sides(session, battle.id, battle.stage)
        waiting = engine.waiting(loaded.rules, loaded.state).sides
        return [s for s in waiting if s in held and loaded.key_of(s, AI_GENERAL) not in ready]

    async def _answer(
        self, loaded: Loaded, held: set[str], stage: int
    ) -> tuple[StageReport | None, bool]:
        """The first open question put to a side the AI holds, answered."""
        assert loaded.state.pending is not None
        asked = [d for d in loaded.state.pending.open if d.who in held]
        if not asked:
            return None, False
        decision = asked[0]
        said = await off_loop_at(
            loaded.battle.id, side_reply, loaded.rules, loaded.state, decision.who, decision
        )
        log.info("AI general answers %s in battle %s: %s", decision.id, loaded.battle.id, said)
        report = await self.play.answer(
            loaded.battle.id, stage, AI_GENERAL, decision.id, said.choice
        )
        return report, True

    async def _give(self, session: Any, loaded: Loaded, side: str, user_id: int) -> int:
        """The AI's orders for one side at the open step, each through the players' intake
        (as ``user_id``); one the judge refuses is logged and its default stands. How many
        were kept."""
        seed = loaded.battle.stage * 7919 + loaded.battle.id
        # On its battle's worker: a long think delays that battle's calls, not other battles'.
        advice = await off_loop_at(
            loaded.battle.id, side_plan, loaded.rules, loaded.state, side, seed, self.budget_s
        )
        now, kept = self.clock.now(), 0
        for given in advice:
            intake = Intake(loaded.state, [side])
            try:
                await take_formed(session, loaded, user_id, given.order, intake, now, given.reason)
            except UserError as refused:  # refused as a player's would be: the default stands
                log.info("AI order refused in battle %s: %s", loaded.battle.id, refused)
                continue
            kept += 1
        return kept

    async def holders(self, place: Place) -> list[int]:
        """The campaign's GMs and players here: who a side may be handed to beside the AI."""
        async with self.db.read() as session:
            campaign = await load_open_campaign(session, place)
            return [m.user_id for m in campaign.members if m.role is not Role.OBSERVER]

    async def stand_in(self, battle_id: int, stage: int) -> tuple[str, ...]:
        """At a passed deadline under the ``ai`` policy: the AI's orders for every awaited
        player who gave none and did not confirm, kept as theirs; the sides' names."""
        async with battle_write(self.db, battle_id) as session:
            loaded = await load_battle_by_id(session, battle_id)
            if loaded is None or loaded.battle.stage != stage or loaded.state.pending:
                return ()
            if loaded.battle.status is not BattleStatus.RUNNING:
                return ()
            rows = await stage_orders(session, battle_id, stage)
            done = {loaded.key_of(r.side_id, r.user_id) for r in rows}
            done |= await ready_sides(session, battle_id, stage)
            acting = engine.waiting(loaded.rules, loaded.state).sides
            names = []
            for side, user_id in awaited(loaded, acting):
                if loaded.key_of(side, user_id) in done or user_id == AI_GENERAL:
                    continue
                await self._give(session, loaded, side, user_id)
                key = loaded.key_of(side, user_id)  # it stood in: the step is not theirs to miss
                ready = Readiness(
                    battle_id=battle_id,
                    stage=stage,
                    side_id=key,
                    user_id=user_id,
                    confirmed_at=self.clock.now(),
                )
                session.add(ready)
                done.add(key)
                row = loaded.side_row(side)
                names.append(side if row is None else row.name)
            return tuple(dict.fromkeys(names))

    async def explained(self, battle_id: int, stage: int) -> list[Explained]:
        """The AI's orders of the step that resolved in ``stage`` with their reasons: the
        stage's own, or, when it was a question the step stopped at, those of the stage that
        gave the orders (everyone's once the step has resolved)."""
        async with self.db.read() as session:
            for _ in range(MOST_QUESTIONS):
                started = await session.scalar(
                    select(StageLog.start_state).where(
                        StageLog.battle_id == battle_id, StageLog.number == stage
                    )
                )
                if not started or not started.get("pending"):
                    break
                stage -= 1  # a question of the step: its orders came before it
            rows = await session.scalars(
                select(BattleOrder)
                .where(
                    BattleOrder.battle_id == battle_id,
                    BattleOrder.stage == stage,
                    BattleOrder.reason.is_not(None),
                )
                .order_by(BattleOrder.id)
            )
            loaded = await load_battle_by_id(session, battle_id)
            names = {} if loaded is None else _names(loaded.state)
            return [Explained(names.get(r.actor, r.actor), r.summary, r.reason or "") for r in rows]


def _names(state: BattleState) -> dict[str, str]:
    """Every actor's name by id."""
    return {a.id: a.name for kind in reversed(ACTOR_KINDS) for a in state.actors(kind)}
