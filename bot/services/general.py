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
from bot.db.models import AiAnswer, BattleOrder, BattleSide, BattleStatus, Readiness, Role
from bot.db.session import Database
from bot.engine_worker import side_plan, side_reply
from bot.errors import UserError
from bot.services.ai_record import answers_between, step_start
from bot.services.ai_seat import AI_GENERAL, STAND_IN_ANSWERS
from bot.services.base import ClockedService
from bot.services.battle_state import Loaded, awaited, load_battle_by_id
from bot.services.campaigns import Place, load_open_campaign
from bot.services.intake import Intake, take_formed
from bot.services.play import PlayService
from bot.services.resolving import off_loop_at
from bot.services.stages import StageReport, ready_sides, stage_orders
from bot.services.write_keys import battle_write
from rules_core import engine
from rules_core.decisions import GM, Decision
from rules_core.orders import ACTOR_KINDS
from rules_core.state import BattleState

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Explained:
    """An AI order of a resolved step as everyone may read it: who, what, and why."""

    actor: str
    summary: str
    reason: str
    private: bool = False  # an answer to a private question: said only to have been given


class GeneralService(ClockedService):
    """The AI general's turns: for the sides it holds, and for missing players (``ai``)."""

    def __init__(self, db: Database, clock: Clock, play: PlayService) -> None:
        super().__init__(db, clock)
        self.play = play
        self.budget_s = 1.0  # AI_SECONDS_PER_TURN (bot.config), set by the client
        play.stand_in = self.stand_in
        play.answer_in = self.answer_in

    async def next_step(self, battle_id: int) -> StageReport | None:
        """What the sides the AI holds owe the open step, given: the report if the step moved
        on (then the AI may owe the next one), None when the battle waits for a player."""
        if not await self._holds_a_side(battle_id):
            return None  # most battles: a short read, not a write and a whole battle loaded
        report, acted = await self._one_step(battle_id)
        return report if acted else None

    async def _holds_a_side(self, battle_id: int) -> bool:
        """Whether the AI holds any side of the battle."""
        async with self.db.read() as session:
            found = await session.scalar(
                select(BattleSide.id)
                .where(BattleSide.battle_id == battle_id, BattleSide.owner_id == AI_GENERAL)
                .limit(1)
            )
        return found is not None

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
        """Every open question put to a side the AI holds, answered (not only the first: a
        solo player waits for none), until the battle moves on."""
        assert loaded.state.pending is not None
        asked = [d for d in loaded.state.pending.open if d.who in held]
        report = None
        for decision in asked:
            report = await self._reply(loaded, decision, AI_GENERAL, stage)
            if report is not None:
                break  # the step went on: what it asks next is the next step's to answer
        return report, bool(asked)

    async def _reply(
        self, loaded: Loaded, decision: Decision, user_id: int, stage: int, trigger: str = ""
    ) -> StageReport | None:
        """The AI's answer to one open question, given through ``PlayService`` as ``user_id``
        and kept with its reason; the report if the battle moved on (``trigger`` says why)."""
        said = await off_loop_at(
            loaded.battle.id, side_reply, loaded.rules, loaded.state, decision.who, decision
        )
        log.info("AI general answers %s in battle %s: %s", decision.id, loaded.battle.id, said)
        battle_id = loaded.battle.id
        report = await self.play.answer(
            battle_id, stage, user_id, decision.id, said.choice, trigger=trigger
        )
        labels = {o.id: o.label for o in decision.options}
        async with self.db.write() as session:
            kept = AiAnswer(
                battle_id=battle_id,
                stage=stage,
                side_id=decision.who,
                question=decision.question[:300],
                choice=labels.get(said.choice, said.choice)[:200],
                reason=said.reason[:300],
                private=decision.private,
            )
            session.add(kept)
        return report

    async def _give(self, session: Any, loaded: Loaded, side: str, user_id: int) -> int:
        """The AI's orders for one side at the open step, each through the players' intake
        (as ``user_id``); one the judge refuses is logged and its default stands. How many
        were kept."""
        seed = loaded.battle.stage * 7919 + loaded.battle.id
        turn, row = loaded.state.cursor.turn, loaded.side_row(side)
        spent = row.ai_spent if row is not None and row.ai_turn == turn else 0.0
        budget = max(0.0, self.budget_s - spent)  # what the turn's earlier steps left
        # On its battle's worker: a long think delays that battle's calls, not other battles'.
        advice, took = await off_loop_at(
            loaded.battle.id, side_plan, loaded.rules, loaded.state, side, seed, budget
        )
        if row is not None:  # remembered per battle and side: the turn's next step reads it
            row.ai_turn, row.ai_spent = turn, spent + took
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

    async def answer_in(self, battle_id: int, stage: int) -> tuple[bool, StageReport | None]:
        """At a question's passed deadline under the ``ai`` policy: the AI's answers to the
        open questions put to sides players hold, given as theirs (not the defaults); whether
        it answered any, and the report if the battle moved on."""
        async with self.db.read() as session:
            loaded = await load_battle_by_id(session, battle_id)
        if loaded is None or loaded.battle.stage != stage or loaded.state.pending is None:
            return False, None
        if loaded.battle.status is not BattleStatus.RUNNING:
            return False, None
        answered, report = False, None
        for decision in loaded.state.pending.open:
            holders = [u for s, u in awaited(loaded, [decision.who]) if s != GM]
            if not holders or AI_GENERAL in holders:
                continue  # the GM's to rule, or the AI's own (answered as it was asked)
            try:
                report = await self._reply(loaded, decision, holders[0], stage, STAND_IN_ANSWERS)
            except UserError as refused:  # answered meanwhile: the rest still get the AI's
                log.info("AI answer refused in battle %s: %s", battle_id, refused)
                continue
            answered = True
            if report is not None:
                break  # the step went on: what it asks next has its own deadline
        return answered, report

    async def explained(self, battle_id: int, stage: int) -> list[Explained]:
        """The AI's orders of the step that resolved in ``stage`` with their reasons: the
        stage's own, or, when it was a question the step stopped at, those of the stage that
        gave the orders (everyone's once the step has resolved)."""
        async with self.db.read() as session:
            first = await step_start(session, battle_id, stage)
            rows = await session.scalars(
                select(BattleOrder)
                .where(
                    BattleOrder.battle_id == battle_id,
                    BattleOrder.stage == first,
                    BattleOrder.reason.is_not(None),
                )
                .order_by(BattleOrder.id)
            )
            loaded = await load_battle_by_id(session, battle_id)
            names = {} if loaded is None else _names(loaded.state)
            given = [
                Explained(names.get(r.actor, r.actor), r.summary, r.reason or "") for r in rows
            ]
            sides = {} if loaded is None else {s.side_id: s.name for s in loaded.battle.sides}
            answered = await answers_between(session, battle_id, first, stage, sides)
            # A private question and its answer stay its side's (and the GM's /orders all).
            return given + [
                Explained(a.side_name, "", "", private=True)
                if a.private
                else Explained(a.side_name, a.said, a.reason)
                for a in answered
            ]


def _names(state: BattleState) -> dict[str, str]:
    """Every actor's name by id."""
    return {a.id: a.name for kind in reversed(ACTOR_KINDS) for a in state.actors(kind)}
