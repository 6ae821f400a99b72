"""The tests' databases: SQLite files by default, PostgreSQL with ``TEST_POSTGRES_URL``.

``TEST_POSTGRES_URL`` (``postgresql+asyncpg://user:password@host:port/db``, as printed by
``.ci/postgres start``) names a server whose user may create databases. Each test then gets
databases of its own on it. An empty one is created for the test and dropped afterwards. One
wanted migrated is cloned from a template migrated once per test run (``CREATE DATABASE …
TEMPLATE``: what migrating an empty database gives, in a fraction of the time); after the
test its rows are deleted and its ids restarted, and the next test wanting a migrated
database gets it (emptying takes a tenth of the time of cloning). Without the variable every
database is a SQLite file in the test's folder; one wanted migrated is a copy of a file migrated
once per test process (copying takes a millisecond, Alembic a few tenths of a second).

``query`` reads rows from either kind synchronously (the tests compare tables before and
after a command), with ``?`` placeholders.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import os
import re
import shutil
import sqlite3
import tempfile
import threading
from collections.abc import Awaitable, Callable
from contextlib import closing
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy.engine import URL, make_url

ENV = "TEST_POSTGRES_URL"
T = TypeVar("T")
_counter = itertools.count()
_template_lock = threading.Lock()
_template: str | None = None
_sqlite_template: Path | None = None


def postgres_url() -> str | None:
    """The server the tests use, if any."""
    return os.environ.get(ENV) or None


def on_postgres() -> bool:
    """Whether this run's databases are PostgreSQL ones."""
    return postgres_url() is not None


class _Worker:
    """A thread with an event loop of its own for the tests' PostgreSQL calls (callers may be
    inside a running loop, or not), keeping one connection per database open."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.connections: dict[str, Any] = {}
        threading.Thread(target=self.loop.run_forever, name="test-databases", daemon=True).start()

    async def connection(self, url: str) -> Any:
        import asyncpg

        found = self.connections.get(url)
        if found is None or found.is_closed():
            found = await asyncpg.connect(**_connect_args(make_url(url)))
            self.connections[url] = found
        return found

    async def forget(self, url: str) -> None:
        found = self.connections.pop(url, None)
        if found is not None and not found.is_closed():
            await found.close()


_worker_lock = threading.Lock()
_worker: _Worker | None = None


def _run(make: Callable[[_Worker], Awaitable[T]]) -> T:
    """Run a coroutine to completion on the worker's loop and give back its result."""
    global _worker
    with _worker_lock:
        if _worker is None:
            _worker = _Worker()
    worker = _worker
    return asyncio.run_coroutine_threadsafe(make(worker), worker.loop).result()  # type: ignore[arg-type]


def _connect_args(url: URL) -> dict[str, Any]:
    return {
        "user": url.username,
        "password": url.password,
        "host": url.host,
        "port": url.port,
        "database": url.database,
    }


async def _admin(worker: _Worker, *statements: str) -> None:
    server = postgres_url()
    assert server is not None
    connection = await worker.connection(server)
    for statement in statements:
        await connection.execute(statement)


def _database_url(name: str) -> str:
    server = postgres_url()
    assert server is not None
    return make_url(server).set(database=name).render_as_string(hide_password=False)


def _migrated_template() -> str:
    """The name of this run's database migrated to head (made on first use)."""
    global _template
    with _template_lock:
        if _template is None:
            from bot.db.migrate import upgrade_to_head

            name = f"aide_template_{os.getpid()}"
            create = f'CREATE DATABASE "{name}"'
            _run(lambda w: _admin(w, f'DROP DATABASE IF EXISTS "{name}"', create))
            _run(lambda _: upgrade_to_head(_database_url(name)))
            _template = name
        return _template


def _copy_migrated_sqlite(path: Path) -> None:
    """Make ``path`` a SQLite file at head: a copy of this process's migrated file (made on
    first use; each pytest-xdist worker is a process of its own)."""
    global _sqlite_template
    with _template_lock:
        if _sqlite_template is None:
            from bot.db.migrate import upgrade_to_head

            made = Path(tempfile.mkdtemp(prefix="aide-template-")) / "template.db"
            _run(lambda _: upgrade_to_head(f"sqlite+aiosqlite:///{made}"))
            with closing(sqlite3.connect(made)) as con:  # everything in the file, no WAL
                con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            _sqlite_template = made
    shutil.copyfile(_sqlite_template, path)


def drop_template() -> None:
    """Drop the migrated templates and the emptied databases (end of the run)."""
    global _template, _sqlite_template
    if _sqlite_template is not None:
        shutil.rmtree(_sqlite_template.parent, ignore_errors=True)
        _sqlite_template = None
    drop_emptied()
    if _template is not None and on_postgres():
        name, _template = _template, None
        _run(lambda w: _admin(w, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


# Migrated databases a finished test left, emptied, for the next test that wants one: making a
# database takes a second on a busy machine, emptying one a fraction of it.
_emptied: list[str] = []


class TestDatabases:
    """The databases of one test, by name: the same name gives the same database."""

    __test__ = False  # not a test class, whatever pytest thinks of the name

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._urls: dict[str, str] = {}
        self._made: list[tuple[str, bool]] = []  # (database, migrated)

    def url(self, name: str = "test.db", *, migrated: bool = False) -> str:
        """The URL of the test's database ``name``: a SQLite file in the test's folder, or a
        PostgreSQL database of its own: empty, or when ``migrated`` at head with no rows
        (an empty SQLite file is created by whoever first opens it)."""
        if name not in self._urls:
            self._urls[name] = self._make(name, migrated)
        return self._urls[name]

    def _make(self, name: str, migrated: bool) -> str:
        if not on_postgres():
            path = self.folder / name
            if migrated and not path.exists():
                _copy_migrated_sqlite(path)
            return f"sqlite+aiosqlite:///{path}"
        if migrated and _emptied:
            database = _emptied.pop()
        else:
            database = f"t_{os.getpid()}_{next(_counter)}"
            clone = f' TEMPLATE "{_migrated_template()}"' if migrated else ""
            _run(lambda w: _admin(w, f'CREATE DATABASE "{database}"{clone}'))
        self._made.append((database, migrated))
        return _database_url(database)

    def drop(self) -> None:
        """Done with the test's PostgreSQL databases: a migrated one is emptied (every row
        gone, ids from 1 again) for the next test, others are dropped. Connections left open
        (by a killed bot, say) are closed first."""
        made, self._made = self._made, []
        self._urls.clear()
        if made:
            _run(lambda worker: _release(worker, made))


async def _release(worker: _Worker, made: list[tuple[str, bool]]) -> None:
    for database, migrated in made:
        url = _database_url(database)
        connection = await worker.connection(url) if migrated else None
        if connection is not None and await _at_template_revision(connection):
            await connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            await connection.execute(await _emptying(connection))
            _emptied.append(database)
        else:  # empty from the start, or migrated elsewhere by the test: not reused
            await worker.forget(url)
            await _admin(worker, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


async def _at_template_revision(connection: Any) -> bool:
    """Whether the database is still at the revision the template was migrated to."""
    found = await connection.fetch(
        "SELECT version_num FROM alembic_version WHERE to_regclass('alembic_version') IS NOT NULL"
    )
    revisions = [r[0] for r in found]
    template = await connection.fetch(
        "SELECT 1 FROM pg_database WHERE datname = $1", _template or ""
    )
    return bool(template) and revisions == [_head()]


@functools.cache
def _head() -> str:
    from alembic.script import ScriptDirectory

    from bot.db.migrate import alembic_config

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


async def _emptying(connection: Any) -> str:
    """SQL deleting every row but the migration's and restarting every id sequence (faster
    than TRUNCATE for a few rows)."""
    tables = await connection.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        " AND tablename <> 'alembic_version'"
    )
    sequences = await connection.fetch(
        "SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema()"
    )
    return "; ".join(
        [
            "SET session_replication_role = replica",  # no foreign key checks meanwhile
            *(f'DELETE FROM "{r[0]}"' for r in tables),
            *(f'ALTER SEQUENCE "{r[0]}" RESTART' for r in sequences),
            "SET session_replication_role = DEFAULT",
        ]
    )


def drop_emptied() -> None:
    """Drop the emptied databases kept for reuse (end of the run)."""
    if not _emptied or not on_postgres():
        return
    names = list(_emptied)
    _emptied.clear()

    async def drop(worker: _Worker) -> None:
        for database in names:
            await worker.forget(_database_url(database))
        await _admin(worker, *(f'DROP DATABASE IF EXISTS "{d}" WITH (FORCE)' for d in names))

    _run(drop)


def query(url: str, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` (``?`` placeholders) from the database at ``url``."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        with closing(sqlite3.connect(f"file:{parsed.database}?mode=ro", uri=True)) as con:
            return [tuple(r) for r in con.execute(sql, args)]
    numbered = iter(itertools.count(1))
    pg_sql = re.sub(r"\?", lambda _: f"${next(numbered)}", sql)

    async def fetch(worker: _Worker) -> list[tuple[Any, ...]]:
        connection = await worker.connection(url)
        return [tuple(r) for r in await connection.fetch(pg_sql, *args)]

    return _run(fetch)


def snapshot(url: str) -> dict[str, list[str]]:
    """Every row of every table (each row's repr, sorted), to compare before and after."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        with closing(sqlite3.connect(f"file:{parsed.database}?mode=ro", uri=True)) as con:
            names = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
            return {t: sorted(map(repr, con.execute(f"SELECT * FROM {t}"))) for t in names}

    async def fetch(worker: _Worker) -> dict[str, list[str]]:
        connection = await worker.connection(url)
        names = [
            r[0]
            for r in await connection.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            )
        ]
        return {
            t: sorted(repr(tuple(r)) for r in await connection.fetch(f"SELECT * FROM {t}"))
            for t in names
        }

    return _run(fetch)


def table_names(url: str) -> list[str]:
    """The tables of the database at ``url``, sorted."""
    if make_url(url).get_backend_name() == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type='table'"
    else:
        sql = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
    return sorted(name for (name,) in query(url, sql))


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL; None for PostgreSQL."""
    parsed = make_url(url)
    return Path(parsed.database or "") if parsed.get_backend_name() == "sqlite" else None
