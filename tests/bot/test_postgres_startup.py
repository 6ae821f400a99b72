"""The start-up check on PostgreSQL: a database written by a newer version, or one that cannot
be reached, is refused with one line; an empty or current one passes."""

from __future__ import annotations

import pytest

from bot.db.maintenance import DatabaseRefused, check_database
from tests.databases import TestDatabases, on_postgres, query

needs_server = pytest.mark.skipif(not on_postgres(), reason="needs TEST_POSTGRES_URL")


@needs_server
def test_current_and_empty_databases_pass(databases: TestDatabases) -> None:
    check_database(databases.url("empty"))
    check_database(databases.url("current", migrated=True))


@needs_server
def test_a_newer_database_is_refused(databases: TestDatabases) -> None:
    url = databases.url("newer", migrated=True)
    query(url, "UPDATE alembic_version SET version_num = 'ffffffffffff'")
    with pytest.raises(DatabaseRefused, match=r"newer Aide-de-Camp \(migration ffffffffffff\)"):
        check_database(url)


def test_an_unreachable_server_is_refused_without_its_password() -> None:
    pytest.importorskip("asyncpg")
    with pytest.raises(DatabaseRefused, match="Cannot use DATABASE_URL") as refused:
        check_database("postgresql+asyncpg://aide:secret@127.0.0.1:1/aide")
    assert "secret" not in str(refused.value)
    assert len(str(refused.value).splitlines()) == 1
