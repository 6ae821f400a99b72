"""Shared fixtures: a real, migrated database per test (a SQLite file, or a PostgreSQL database
with ``TEST_POSTGRES_URL``: see tests/databases.py) and the services over it."""

from __future__ import annotations

import random
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.client import AideBot
from bot.config import Settings
from bot.db.migrate import upgrade_to_head
from bot.db.session import Database
from bot.services import Services
from bot.services.campaigns import Place
from rules_core import registry
from rules_core.plugin import Rules
from tests.databases import TestDatabases, drop_template, postgres_url

GUILD = 1000
CHANNEL = 2000
OTHER_CHANNEL = 2001
GM = 11
ALICE = 21
BOB = 22
OUTSIDER = 99


# Tests that never open a database (pure rules, our import order): on a PostgreSQL run they
# would only repeat the SQLite run, so that run leaves them out.
NO_DATABASE = ("rules_core", "test_imports_alone.py", "test_structure.py")


# What ``-m "not slow"`` leaves out of the edit-test loop (README, "Set up and test"): tests
# that start processes (bots killed and restarted, shards, engine workers, a PostgreSQL
# cluster, an interpreter per module), benchmarks and whole demos; each takes 10 s to minutes.
# Node ids from tests/ on: a file, or one test in it.
SLOW = (
    "bot/test_bench.py",
    "bot/test_bench_odds.py",
    "bot/test_demo_friends_apart.py",
    "bot/test_engine_process.py",
    "bot/test_engine_process_exit.py",
    "bot/test_shutdown_sigterm.py",
    "e2e/test_concurrent_players.py::test_fifty_players_deadline_and_force_on_one_battle",
    "e2e/test_crash_anywhere.py",
    "e2e/test_crash_rulesets.py",
    "e2e/test_engine_process.py",
    "e2e/test_hostile_commands.py",
    "e2e/test_shards.py",
    "test_ci_postgres.py",
    "test_imports_alone.py",
    "web/test_browser.py",  # starts headless Chromium
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of ``SLOW`` as ``slow``."""
    slow = tuple(f"tests/{node}" for node in SLOW)
    for item in items:
        if item.nodeid.startswith(slow):
            item.add_marker(pytest.mark.slow)


def pytest_report_header() -> str:
    """Say which database the run uses (and, on PostgreSQL, what it leaves out)."""
    server = postgres_url()
    if server is None:
        return "databases: SQLite files"
    return f"databases: PostgreSQL at {server} (leaving out tests/{{{','.join(NO_DATABASE)}}})"


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """On a PostgreSQL run, leave out the tests that never open a database."""
    here = Path(__file__).parent
    if postgres_url() is not None and collection_path.parent == here:
        return collection_path.name in NO_DATABASE or None
    return None


def pytest_sessionfinish() -> None:
    """Drop the migrated PostgreSQL template, if one was made."""
    drop_template()


@pytest.fixture
def databases(tmp_path: Path) -> Iterator[TestDatabases]:
    """The test's databases by name (SQLite files in its folder, or PostgreSQL databases
    dropped afterwards)."""
    made = TestDatabases(tmp_path)
    yield made
    made.drop()


@pytest.fixture
def db_url(request: pytest.FixtureRequest, databases: TestDatabases) -> str:
    """The URL of the test's fresh database: an empty one, or one migrated already (a copy
    of a template) when the test also uses ``db`` (which would migrate it anyway)."""
    return databases.url("test.db", migrated="db" in request.fixturenames)


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    """A database migrated to head."""
    await upgrade_to_head(db_url)
    database = Database.from_url(db_url)
    yield database
    await database.dispose()


@pytest.fixture
def services(db: Database) -> Services:
    """The services over the test database, with a seeded random generator."""
    return Services.build(db, rng=random.Random(1))


@pytest.fixture
def place() -> Place:
    """The channel of the campaign under test."""
    return Place(GUILD, CHANNEL)


@pytest.fixture
async def bot(db_url: str, db: Database) -> AsyncIterator[AideBot]:
    """An AideBot over the migrated test database (not connected to any gateway)."""
    aide = AideBot(Settings(discord_token="unused", database_url=db_url))
    yield aide
    await aide.db.dispose()


TEST_RULESETS = Path(__file__).parent / "rulesets"  # rulesets kept in the tests, like outside ones


def ruleset_from_tests(
    monkeypatch: pytest.MonkeyPatch, ruleset_id: str, *, playable: bool = True
) -> Iterator[Rules]:
    """A ruleset kept in ``tests/rulesets``, found through ``AIDE_RULESETS``; the registry and
    its modules are put back as they were afterwards (not ``playable``: it has no rules and
    the fixture yields nothing of use)."""
    import rules_core.rulesets as package

    saved_path, saved_entries = list(package.__path__), dict(registry._REGISTRY)
    saved_scan = registry._scanned
    monkeypatch.setenv(registry.EXTRA_FOLDERS, str(TEST_RULESETS))
    rules = registry.get(ruleset_id).rules
    assert (rules is not None) is playable
    yield rules  # type: ignore[misc]
    package.__path__[:] = saved_path
    registry._REGISTRY.clear()
    registry._REGISTRY.update(saved_entries)
    registry._scanned = saved_scan
    prefix = f"rules_core.rulesets.{ruleset_id}"
    for module in [m for m in sys.modules if m.startswith(prefix)]:
        del sys.modules[module]


@pytest.fixture
def muster(monkeypatch: pytest.MonkeyPatch) -> Iterator[Rules]:
    """The ``muster`` test ruleset; forgotten after the test."""
    yield from ruleset_from_tests(monkeypatch, "muster")


@pytest.fixture
def sketch(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The ``sketch`` test ruleset (a roster and no rules yet); forgotten after the test."""
    for _ in ruleset_from_tests(monkeypatch, "sketch", playable=False):
        yield None


@pytest.fixture
def terrain_roll(monkeypatch: pytest.MonkeyPatch) -> Iterator[Rules]:
    """The ``terrain_roll`` test ruleset (skirmish with a terrain table); forgotten after the
    test."""
    yield from ruleset_from_tests(monkeypatch, "terrain_roll")


@pytest.fixture
def parley(monkeypatch: pytest.MonkeyPatch) -> Iterator[Rules]:
    """The ``parley`` test ruleset (private hands, a private question); forgotten after the
    test."""
    yield from ruleset_from_tests(monkeypatch, "parley")


@pytest.fixture
def vanguard(monkeypatch: pytest.MonkeyPatch) -> Iterator[Rules]:
    """The ``vanguard`` test ruleset (set-up by orders, activations, units leaving the table);
    forgotten after the test."""
    yield from ruleset_from_tests(monkeypatch, "vanguard")
