"""PostgreSQL's writes of a battle's own rows on the event loop (#38; ``bot.db.on_loop``).

A player's write (the claim and its rows) and a resolution's keeping write run through
``psycopg`` used synchronously on the loop: from the first statement to ``COMMIT`` no other
task runs, so the battle's lock is held for the write's round trips alone (microseconds each
to a server on the same host, about a millisecond across a network; a player's write makes 4,
a resolution's about 15), not for every other command's turn on the loop between them. Such a
write must never wait on the server with the loop blocked:

- its advisory locks are tried (``WriteKeys.try_statement``): while another writer holds one,
  the transaction is rolled back, letting go of any it took, and the loop sleeps before the
  next try (``bot.db.session``);
- a row lock could still make it wait (another write of the same process touching the same
  row is held up by the blocked loop itself), so the transaction's ``lock_timeout`` is short
  (``LOCK_TIMEOUT_MS``): past it the write fails with ``LockNotAvailable`` and its caller keeps
  the write as it did before, through ``asyncpg`` (``lock_waited``).

Every other write (a campaign's, an army's, a GM's) keeps ``asyncpg`` and waits off the loop.
A server that stops answering would hold the loop until the network gives up: the connection's
TCP settings (``TCP``) bound that to about ten seconds, then the write fails.
"""

from __future__ import annotations

from typing import Any

import psycopg
from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg
from sqlalchemy.engine import URL

from bot.db.on_loop import OnLoop, SoftClose

# libpq's connection settings for a server gone silent: connecting waits 5 s at most, data sent
# unacknowledged for 5 s fails the connection, and an idle wait is probed after 5 s, every 2 s,
# twice. The URL's own query settings come first.
TCP = {
    "connect_timeout": 5,
    "tcp_user_timeout": 5000,
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 2,
}


class _Cursor(SoftClose, psycopg.Cursor[Any]):
    """A ``psycopg`` cursor as SQLAlchemy's asyncio results use one."""


class PGDialectOnLoop(OnLoop, PGDialect_psycopg):
    """``psycopg`` (synchronous) used from asyncio: its calls run at once on the loop's thread."""

    supports_statement_cache = True  # SQLAlchemy reads it on the dialect's own class only

    def create_connect_args(self, url: URL) -> Any:
        """``psycopg``'s arguments: its cursors made for SQLAlchemy's asyncio results, and a
        silent server given up on (``TCP``)."""
        args, kwargs = super().create_connect_args(url)  # type: ignore[no-untyped-call]
        return args, {**TCP, **kwargs, "cursor_factory": _Cursor}
