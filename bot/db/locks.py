"""The write locks, as narrow as the data a write changes (#38).

A write names what it changes: a battle, a campaign, both, or nothing (anything: the whole
database). On PostgreSQL it takes transaction-level advisory locks, always in ONE order so
two writers can never wait for each other in a circle:

1. the database key ``WRITE_LOCK_KEY``: exclusive for a write that names nothing, shared
   for one that names a battle or a campaign (so a database-wide write still excludes
   every other, and keyed writes exclude nothing but their own kind);
2. the campaign's key: exclusive for a campaign-wide write (no battle named), shared for a
   battle's write that also names its campaign;
3. the battle's key: exclusive.

So writes on different battles hold their locks at once; two on the same battle, or a
campaign-wide write and a write on one of that campaign's battles that names the campaign,
take turns. A write that changes a battle without knowing its campaign names only the
battle: campaign-wide writes that change existing battles must name nothing (or the battle).

SQLite has one write lock for the whole file (``BEGIN IMMEDIATE``), so there the bot's
writers keep one queue per process whatever they name: queued per key, they would all poll
SQLite's one lock and some would wait past the busy timeout.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from bot.errors import Conflict

# The PostgreSQL advisory lock every write transaction holds until it ends (exclusive for a
# database-wide write, shared for a keyed one). ("ADC" + 1.)
WRITE_LOCK_KEY = 0x41444301
# The first of the two 32-bit keys of a campaign's and a battle's advisory lock ("ADC" + 2,
# + 3): the two-key form is a key space apart from the database key's one 64-bit key.
CAMPAIGN_SPACE = 0x41444302
BATTLE_SPACE = 0x41444303
_INT4 = 2**31
# How long a write on the loop may wait for a row lock (``bot.db.on_loop_pg``): the loop is
# blocked meanwhile; past it the write is kept off the loop instead.
LOCK_TIMEOUT_MS = 100
SESSION_KEYS = "aide_write_keys"  # where a write session keeps its WriteKeys (session.info)
MOVED_ON = (
    "The battle here changed while your command was on its way, so nothing was changed. "
    "Send the command again."
)


@dataclass(frozen=True)
class WriteKeys:
    """What one write transaction changes: a battle, a campaign, both, or (neither) anything."""

    battle: int | None = None
    campaign: int | None = None

    @property
    def whole(self) -> bool:
        """Whether the write may change anything (it named nothing)."""
        return self.battle is None and self.campaign is None

    def turn_key(self) -> tuple[str, int] | None:
        """The in-process queue this write joins (None: the database-wide one)."""
        if self.battle is not None:
            return ("battle", self.battle)
        if self.campaign is not None:
            return ("campaign", self.campaign)
        return None

    def statement(self) -> str:
        """The PostgreSQL lock statement: one round trip, its locks taken left to right in the
        one lock order (database, campaign, battle)."""
        return "SELECT " + ", ".join(self._calls("pg_advisory_xact_lock"))

    def try_statement(self) -> str:
        """The same locks tried without waiting, and the transaction's row-lock wait made
        short (``LOCK_TIMEOUT_MS``), in one round trip: true if every lock was taken (false:
        roll back, which lets go of any that were, and try again later)."""
        limit = f"set_config('lock_timeout', '{LOCK_TIMEOUT_MS}ms', true) IS NOT NULL"
        return "SELECT " + " AND ".join([limit, *self._calls("pg_try_advisory_xact_lock")])

    def _calls(self, function: str) -> list[str]:
        if self.whole:
            return [f"{function}({WRITE_LOCK_KEY})"]
        calls = [f"{function}_shared({WRITE_LOCK_KEY})"]
        if self.campaign is not None:
            kind = "_shared" if self.battle is not None else ""
            calls.append(f"{function}{kind}({_pair(CAMPAIGN_SPACE, self.campaign)})")
        if self.battle is not None:
            calls.append(f"{function}({_pair(BATTLE_SPACE, self.battle)})")
        return calls


def check_locked(info: dict[str, Any], battle_id: int, campaign_id: int) -> None:
    """Refuse (``Conflict``) to load a battle into a write session locked for another battle
    or campaign: the keys were read before the transaction opened, and a place's battle can
    change in between (a new battle started); writing it unlocked would race its own writers."""
    keys = info.get(SESSION_KEYS)
    if not isinstance(keys, WriteKeys) or keys.whole:
        return
    if keys.battle not in (None, battle_id) or keys.campaign not in (None, campaign_id):
        raise Conflict(MOVED_ON)


def _pair(space: int, key: int) -> str:
    """The two int4 keys of an advisory lock: ids beyond 32 bits fold (sharing a lock with
    another id only makes the two take turns)."""
    folded = int(key) % (2 * _INT4) - _INT4
    return f"{space}, {folded}"


class Turns:
    """The in-process queues writers wait in before asking the database for their locks (one
    per key; one per event loop, since tests run several loops)."""

    def __init__(self, *, per_key: bool) -> None:
        self.per_key = per_key
        self._loop: asyncio.AbstractEventLoop | None = None
        self._locks: dict[tuple[str, int] | None, asyncio.Lock] = {}
        self._users: dict[tuple[str, int] | None, int] = {}

    def busy(self) -> bool:
        """Whether some writer of this process holds its turn now."""
        return any(lock.locked() for lock in self._locks.values())

    @asynccontextmanager
    async def turn(self, keys: WriteKeys) -> AsyncIterator[None]:
        """Wait for this write's turn in its queue, first come, first served."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._loop, self._locks, self._users = loop, {}, {}
        key = keys.turn_key() if self.per_key else None
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        try:
            async with lock:
                yield
        finally:
            # A battle's queue is dropped when nobody waits in it: battles come and go.
            self._users[key] -= 1
            if not self._users[key]:
                del self._users[key], self._locks[key]
