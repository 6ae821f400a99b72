"""Answering open questions by standing instructions, before a stage is stored.

``stages.advance`` calls ``answer_standing`` on every resolution it keeps, so a question an
instruction covers never waits for a player, whichever path (orders, answers, deadlines, GM
tools) stopped the battle on it.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import StandingInstruction
from bot.services.battle_state import Loaded
from bot.services.kept_reads import remembered
from bot.services.resolving import off_loop_at
from rules_core.engine import Resolution
from rules_core.standing import Standing
from rules_core.standing_play import play_standing


async def instructions_of(session: AsyncSession, battle_id: int) -> list[StandingInstruction]:
    """A battle's standing instructions, in the order set."""
    rows = await session.scalars(
        select(StandingInstruction)
        .where(StandingInstruction.battle_id == battle_id)
        .order_by(StandingInstruction.set_at, StandingInstruction.id)
    )
    return list(rows)


async def answer_standing(session: AsyncSession, loaded: Loaded, result: Resolution) -> Resolution:
    """``result`` carried on through every open question a standing instruction answers (the
    answers go through the engine and onto the record like a player's); as it was if none."""
    if result.state.pending is None or result.state.outcome is not None:
        return result
    battle_id = loaded.battle.id

    async def read() -> list[Standing]:
        return [_standing(row) for row in await instructions_of(session, battle_id)]

    given = await remembered(session, battle_id, "standing", read)  # read once (kept_reads)
    if not given:
        return result
    return await off_loop_at(
        loaded.battle.id, play_standing, loaded.rules, loaded.seed, result, given
    )


def _standing(row: StandingInstruction) -> Standing:
    return Standing(row.side_id, row.topic, row.choice, row.condition, row.unit_id)
