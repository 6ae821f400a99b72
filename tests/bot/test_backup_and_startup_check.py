"""``python -m bot backup`` copies a live WAL database; start-up refuses unusable files."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from bot.db.maintenance import DatabaseRefused, check_database
from bot.db.migrate import upgrade_to_head

ROOT = Path(__file__).resolve().parents[2]


def run_main(tmp_path: Path, *arguments: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` in tmp_path with the database there."""
    base = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "DEV_GUILD_ID"}}
    base.update(PYTHONPATH=str(ROOT), DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'aide.db'}")
    return subprocess.run(
        [sys.executable, "-m", "bot", *arguments],
        cwd=tmp_path, env={**base, **env}, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip


async def test_backup_holds_commits_still_in_the_write_ahead_log(tmp_path: Path) -> None:
    """A plain copy of a WAL database misses recent commits; the backup has all ten."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'aide.db'}"
    await upgrade_to_head(url)
    with closing(sqlite3.connect(tmp_path / "aide.db")) as live:
        live.execute("PRAGMA journal_mode=WAL")
        live.execute("PRAGMA wal_autocheckpoint=0")
        live.execute("CREATE TABLE probe (n INTEGER)")
        for n in range(10):
            live.execute("INSERT INTO probe VALUES (?)", (n,))
            live.commit()
        (tmp_path / "plain.db").write_bytes((tmp_path / "aide.db").read_bytes())
        result = run_main(tmp_path, "backup", str(tmp_path / "copy.db"))
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("Backed up ")
    with closing(sqlite3.connect(tmp_path / "copy.db")) as copy:
        assert copy.execute("SELECT count(*) FROM probe").fetchone() == (10,)
    with closing(sqlite3.connect(tmp_path / "plain.db")) as plain, pytest.raises(sqlite3.Error):
        plain.execute("SELECT count(*) FROM probe")
    again = run_main(tmp_path, "backup", str(tmp_path / "copy.db"))
    assert again.returncode == 2 and "already exists" in again.stderr


def newer(path: Path) -> None:
    """A database stamped by a migration this code does not know."""
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("CREATE TABLE alembic_version (version_num VARCHAR(32))")
        connection.execute("INSERT INTO alembic_version VALUES ('ffffffffffff')")
        connection.commit()


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda p: p.write_bytes(b""), "is an empty file, not a database"),
        (lambda p: p.write_bytes(b"not a database at all " * 400), "not a readable database"),
        (newer, "was written by a newer Aide-de-Camp (migration ffffffffffff)"),
    ],
)
def test_start_up_refuses_unusable_database_with_one_line(
    tmp_path: Path, make: object, expected: str
) -> None:
    path = tmp_path / "aide.db"
    make(path)  # type: ignore[operator]
    before = path.read_bytes()
    result = run_main(tmp_path, DISCORD_TOKEN="x")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert expected in result.stderr and "Traceback" not in result.stderr
    assert path.read_bytes() == before


def test_damaged_database_refused(tmp_path: Path) -> None:
    """A file whose pages were overwritten fails SQLite's check."""
    path = tmp_path / "aide.db"
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("CREATE TABLE t (x TEXT)")
        connection.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 200)
        connection.execute("CREATE INDEX ix ON t (x)")
        connection.commit()
    data = bytearray(path.read_bytes())
    data[4096 * 3 : 4096 * 3 + 2000] = b"\xff" * 2000
    path.write_bytes(bytes(data))
    with pytest.raises(DatabaseRefused, match="restore a backup"):
        check_database(f"sqlite+aiosqlite:///{path}")


async def test_current_and_missing_databases_pass(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'aide.db'}"
    check_database(url)
    await upgrade_to_head(url)
    check_database(url)
