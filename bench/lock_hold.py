"""How long each write transaction holds the database's write lock, seen from the bench.

``bot.db.session`` takes the lock in its own ``begin`` listener (``BEGIN IMMEDIATE`` on
SQLite, ``pg_advisory_xact_lock`` on PostgreSQL); a listener added after it fires once the
lock is held. The lock is let go at commit or rollback, just before the connection goes
back to the pool, so the pool's ``checkin`` ends the hold (the commit's own flush included).
Nothing in ``bot/`` is changed: the listeners are added to the bench's own engine.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection

from bot.db.session import _WRITER_OPTION, Database

_TAKEN = "aide_bench_lock_taken"  # where a writer connection keeps when it got the lock


class LockHold:
    """Every write transaction's lock hold time (ms) on one ``Database``, from now on."""

    def __init__(self, db: Database) -> None:
        self.holds: list[float] = []
        # Writes run on the writers' engine (PostgreSQL's, but a battle's own rows, on the main).
        for engine in {db.engine, db.writers}:
            event.listen(engine.sync_engine, "begin", self._taken)
            event.listen(engine.sync_engine.pool, "checkin", self._given_back)

    def _taken(self, conn: Connection) -> None:
        if conn.get_execution_options().get(_WRITER_OPTION, False):
            conn.info[_TAKEN] = time.perf_counter()

    def _given_back(self, _dbapi_connection: Any, record: Any) -> None:
        taken = None if record is None else record.info.pop(_TAKEN, None)
        if taken is not None:
            self.holds.append((time.perf_counter() - taken) * 1000)

    def since(self, count: int) -> list[float]:
        """The holds recorded after the first ``count``."""
        return self.holds[count:]
