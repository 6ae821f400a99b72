"""The migrations' revisions read without Alembic, and a bot at head that never imports it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from alembic.script import ScriptDirectory

from bot.db.migrate import alembic_config
from bot.db.revisions import heads, revision_graph

ROOT = Path(__file__).resolve().parents[2]


def test_the_files_read_as_alembic_reads_them() -> None:
    script = ScriptDirectory.from_config(alembic_config())
    assert heads() == frozenset(script.get_heads())
    graph = revision_graph()
    assert set(graph) == {s.revision for s in script.walk_revisions()}
    for step in script.walk_revisions():
        assert graph[step.revision] == step._normalized_down_revisions


_START = textwrap.dedent(
    """
    import asyncio, importlib, sys
    from bot.client import cog_modules, migrate_alone
    from bot.db.maintenance import check_database
    from bot.db.session import Database

    url = sys.argv[1]
    for module in cog_modules():
        importlib.import_module(module)
    check_database(url)
    db = Database.from_url(url)
    asyncio.run(migrate_alone(db, url))
    print(sorted(m for m in ("alembic", "mako", "pygments") if m in sys.modules))
    """
)


def _start(url: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _START, url], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout.strip().splitlines()[-1]


def test_a_bot_at_head_starts_without_alembic(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/bot.db"
    assert _start(url) == "['alembic', 'mako', 'pygments']"  # a new database: migrated
    assert _start(url) == "[]"  # at head: Alembic not even imported
