"""Sharding: which servers a process serves (``SHARD_COUNT``, ``SHARD_IDS``).

Discord puts a server on shard ``(guild_id >> 22) % shard_count``; a sharded process gets the
gateway events of its shards' servers only, and keeps to the same servers for the work it
starts on its own: deadlines (``bot.scheduling``) and results left unposted (the outbox).
"""

from __future__ import annotations

from sqlalchemy import Select, literal_column, select

from bot.db.models import Battle, Campaign

Shards = tuple[int, tuple[int, ...]]  # (shard count, the shards of this process)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord gives a server: ``(guild_id >> 22) % shard_count``."""
    return (guild_id >> 22) % shard_count


def battles_on(shards: Shards) -> Select[int]:
    """The ids of the battles whose server is on these shards (integer shift and
    remainder: the same on SQLite and PostgreSQL)."""
    count, ids = shards
    # 22 written into the SQL: PostgreSQL has bigint >> integer, not bigint >> bigint.
    guild_shard = Campaign.guild_id.op(">>")(literal_column("22")) % count
    return (
        select(Battle.id)
        .join(Campaign, Campaign.id == Battle.campaign_id)
        .where(guild_shard.in_(ids))
    )
