"""Watching a resolution's keeping write (``bot.services.rehearsal._keep``) in tests."""

from __future__ import annotations

import random
from typing import Any

import pytest
from sqlalchemy import event

from bot.db.session import Database
from bot.services import Services, rehearsal
from tests.bot.battle_setup import START
from tests.e2e.fake_clock import FakeClock


def services_on(db: Database) -> Services:
    """Services on the fake clock, seeded alike."""
    return Services.build(db, rng=random.Random(1), clock=FakeClock(START))


def inside_the_write(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """A flag, set while a resolution's keeping write runs (for the rest of the test)."""
    inside = [False]
    real_keep = rehearsal._keep

    async def keep(*args: Any, **kwargs: Any) -> Any:
        inside[0] = True
        try:
            return await real_keep(*args, **kwargs)
        finally:
            inside[0] = False

    monkeypatch.setattr(rehearsal, "_keep", keep)
    return inside


def statements_in_the_write(monkeypatch: pytest.MonkeyPatch, db: Database) -> list[str]:
    """The SQL statements run inside resolutions' keeping writes (for the rest of the test;
    the listener goes with the test's database)."""
    inside, statements = inside_the_write(monkeypatch), []

    def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if inside[0]:
            statements.append(statement)

    event.listen(db.writers.sync_engine, "before_cursor_execute", seen)
    return statements
