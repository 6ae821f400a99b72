"""Write transactions locked for one battle (#38): the battle's id and its campaign's, read
before the transaction opens, so writes on other battles (in this process and others) do
not wait for it (``bot.db.locks`` has the lock order).

Both are read each time (one indexed read; a place's battle, the newest open battle of the
channel's campaign, changes when a battle starts): a write that then loads another battle
than the one it locked is refused (``bot.db.locks.check_locked``) rather than run unlocked.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Battle, Campaign
from bot.db.session import Database
from bot.services.battle_state import OPEN_BATTLE
from bot.services.campaigns import OPEN_STATUSES, Place


async def campaign_of(db: Database, battle_id: int) -> int | None:
    """The campaign of a battle (None: no such battle)."""
    async with db.read() as session:
        found = await session.scalar(select(Battle.campaign_id).where(Battle.id == battle_id))
    return found


async def battle_at(db: Database, place: Place) -> tuple[int, int] | None:
    """The battle a battle command at ``place`` acts on, and its campaign (None: none)."""
    async with db.read() as session:
        found = await session.execute(
            select(Battle.id, Battle.campaign_id)
            .join(Campaign, Campaign.id == Battle.campaign_id)
            .where(
                Campaign.guild_id == place.guild_id,
                Campaign.channel_id == place.channel_id,
                Campaign.status.in_(OPEN_STATUSES),
                Battle.status.in_(OPEN_BATTLE),
            )
            .order_by(Battle.id.desc())
            .limit(1)
        )
        row = found.first()
    return None if row is None else (row[0], row[1])


@asynccontextmanager
async def battle_write(
    db: Database, battle_id: int, *, on_loop: bool = False
) -> AsyncIterator[AsyncSession]:
    """``db.write`` locked for the battle ``battle_id`` (and its campaign, shared); ``on_loop``:
    a write of the battle's own rows (``Database.write``)."""
    campaign = await campaign_of(db, battle_id)
    battle = None if campaign is None else battle_id  # no such battle: lock as before
    async with db.write(battle=battle, campaign=campaign, on_loop=on_loop) as session:
        yield session


@asynccontextmanager
async def place_write(db: Database, place: Place) -> AsyncIterator[AsyncSession]:
    """``db.write`` locked for the open battle at ``place`` (for commands that load it with
    ``load_battle(session, place)``, open battles only); none there: the whole database."""
    found = await battle_at(db, place)
    battle, campaign = (None, None) if found is None else found
    async with db.write(battle=battle, campaign=campaign) as session:
        yield session
