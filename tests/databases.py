"""The tests' databases: SQLite files by default, PostgreSQL with ``TEST_POSTGRES_URL``.

``TEST_POSTGRES_URL`` (``postgresql+asyncpg://user:password@host:port/db``, as printed by
``.ci/postgres start``) names a server whose user may create databases. Each test then gets
fresh databases of its own on it, dropped afterwards; a database wanted migrated is cloned
from a template migrated once per test run (``CREATE DATABASE … TEMPLATE``), which is what
migrating an empty database gives, in a fraction of the time. Without the variable every
database is a SQLite file in the test's folder, as it always was.

``query`` reads rows from either kind synchronously (the tests compare tables before and
after a command), with ``?`` placeholders.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import re
import sqlite3
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


def postgres_url() -> str | None:
    """The server the tests use, if any."""
    return os.environ.get(ENV) or None


def on_postgres() -> bool:
    """Whether this run's databases are PostgreSQL ones."""
    return postgres_url() is not None


def _run(make: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine to completion on a loop of its own, in a thread of its own (callers
    may be inside a running loop)."""
    result: list[T] = []
    error: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(make()))  # type: ignore[arg-type]
        except BaseException as exc:
            error.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if error:
        raise error[0]
    return result[0]


def _connect_args(url: URL) -> dict[str, Any]:
    return {
        "user": url.username,
        "password": url.password,
        "host": url.host,
        "port": url.port,
        "database": url.database,
    }


async def _admin(*statements: str) -> None:
    import asyncpg

    server = postgres_url()
    assert server is not None
    connection = await asyncpg.connect(**_connect_args(make_url(server)))
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


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
            _run(lambda: _admin(f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"'))
            _run(lambda: upgrade_to_head(_database_url(name)))
            _template = name
        return _template


def drop_template() -> None:
    """Drop the migrated template (end of the run)."""
    global _template
    if _template is not None and on_postgres():
        name, _template = _template, None
        _run(lambda: _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


class TestDatabases:
    """The databases of one test, by name: the same name gives the same database."""

    __test__ = False  # not a test class, whatever pytest thinks of the name

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._urls: dict[str, str] = {}
        self._created: list[str] = []

    def url(self, name: str = "test.db", *, migrated: bool = False) -> str:
        """The URL of the test's database ``name``: a SQLite file in the test's folder, or a
        new PostgreSQL database (migrated to head already when ``migrated``; on SQLite the
        file is created by whoever migrates it)."""
        if name not in self._urls:
            self._urls[name] = self._make(name, migrated)
        return self._urls[name]

    def _make(self, name: str, migrated: bool) -> str:
        if not on_postgres():
            return f"sqlite+aiosqlite:///{self.folder / name}"
        database = f"t_{os.getpid()}_{next(_counter)}"
        clone = f' TEMPLATE "{_migrated_template()}"' if migrated else ""
        _run(lambda: _admin(f'CREATE DATABASE "{database}"{clone}'))
        self._created.append(database)
        return _database_url(database)

    def drop(self) -> None:
        """Drop every PostgreSQL database made for the test (connections left open by a
        killed bot included)."""
        created, self._created = self._created, []
        if created:
            _run(lambda: _admin(*(f'DROP DATABASE IF EXISTS "{d}" WITH (FORCE)' for d in created)))


def query(url: str, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` (``?`` placeholders) from the database at ``url``."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        with closing(sqlite3.connect(f"file:{parsed.database}?mode=ro", uri=True)) as con:
            return [tuple(r) for r in con.execute(sql, args)]
    numbered = iter(itertools.count(1))
    pg_sql = re.sub(r"\?", lambda _: f"${next(numbered)}", sql)

    async def fetch() -> list[tuple[Any, ...]]:
        import asyncpg

        connection = await asyncpg.connect(**_connect_args(parsed))
        try:
            return [tuple(r) for r in await connection.fetch(pg_sql, *args)]
        finally:
            await connection.close()

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
