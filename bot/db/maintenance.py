"""Backing up the SQLite database and checking the database at start-up, before anything writes
to it (a SQLite file's integrity, and on both kinds a migration revision we know)."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

from sqlalchemy import inspect
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from bot.db.revisions import heads, revision_graph
from bot.db.session import create_engine

SQLITE_PREFIX = "sqlite+aiosqlite:///"


class DatabaseRefused(Exception):
    """The database file cannot be used as it is; the message says why and what to do."""


def sqlite_path(database_url: str) -> Path | None:
    """The file of a file-based SQLite URL; None for other databases and in-memory ones."""
    if not database_url.startswith(SQLITE_PREFIX):
        return None
    path = database_url.removeprefix(SQLITE_PREFIX).split("?", 1)[0]
    return None if not path or path == ":memory:" else Path(path).expanduser()


def backup(database_url: str, target: Path) -> int:
    """Copy the live database to ``target`` with SQLite's online backup API; the page count.

    Unlike a file copy this includes what is still in the write-ahead log, and it is safe
    while the bot runs.
    """
    source = sqlite_path(database_url)
    if source is None or not source.is_file():
        raise DatabaseRefused(f"No SQLite database file at {database_url}.")
    if target.exists():
        raise DatabaseRefused(f"{target} already exists; choose a new file for the backup.")
    with closing(sqlite3.connect(source)) as live, closing(sqlite3.connect(target)) as copy:
        live.backup(copy)
        return int(copy.execute("PRAGMA page_count").fetchone()[0])


def check_database(database_url: str) -> str | None:
    """Refuse, with one clear line, a database file that is empty, corrupt or newer than us, or
    a PostgreSQL database that cannot be reached or is newer than us. Called before the bot's
    event loop starts. The database's migration revision; None for a new database."""
    if make_url(database_url).get_backend_name() == "postgresql":
        where = make_url(database_url).render_as_string(hide_password=True)
        revision = asyncio.run(_server_revision(database_url, where))
        _refuse_newer(where, revision)
        return revision
    path = sqlite_path(database_url)
    if path is None or not path.exists():
        return None  # a missing file is a new database, created by the first migration
    if path.stat().st_size == 0:
        raise DatabaseRefused(
            f"{path} is an empty file, not a database: delete it to start a new database, "
            "or restore a backup over it."
        )
    revision = _checked_revision(path)
    _refuse_newer(str(path), revision)
    return revision


def head_revision() -> str | None:
    """The newest migration this version of the bot knows: a database it has migrated is at it."""
    found = heads()
    return next(iter(found)) if len(found) == 1 else None


def _refuse_newer(where: str, revision: str | None) -> None:
    if revision is not None and revision not in revision_graph():
        raise DatabaseRefused(
            f"{where} was written by a newer Aide-de-Camp (migration {revision}); "
            "run that version or restore a backup made with this one."
        )


async def _server_revision(database_url: str, where: str) -> str | None:
    """The migration revision of a PostgreSQL database; None for an empty one."""
    engine = create_engine(database_url)
    try:
        async with engine.connect() as connection:
            if not await connection.run_sync(
                lambda sync: inspect(sync).has_table("alembic_version")
            ):
                return None
            found = await connection.exec_driver_sql("SELECT version_num FROM alembic_version")
            revision = found.scalar()
    except (OSError, DBAPIError) as error:
        reason = str(getattr(error, "orig", None) or error).splitlines()[0]
        raise DatabaseRefused(f"Cannot use DATABASE_URL {where}: {reason}") from None
    finally:
        await engine.dispose()
    return None if revision is None else str(revision)


def _checked_revision(path: Path) -> str | None:
    """The file's migration revision after SQLite's own consistency check."""
    try:
        with closing(sqlite3.connect(path)) as connection:
            verdict = connection.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                raise DatabaseRefused(f"{path} is damaged ({verdict}); restore a backup.")
            tables = {r[0] for r in connection.execute("SELECT name FROM sqlite_master")}
            if "alembic_version" not in tables:
                return None
            row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError as error:
        raise DatabaseRefused(
            f"{path} is not a readable database ({error}); restore a backup."
        ) from None
    return None if row is None else str(row[0])
