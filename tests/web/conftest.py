"""The war table's tests: services on a fake clock over the test's SQLite file."""

from __future__ import annotations

import random

import pytest

from bot.db.session import Database
from bot.services import Services
from tests.bot.battle_setup import START
from tests.e2e.fake_clock import FakeClock


@pytest.fixture
def services(db: Database) -> Services:
    """Services on a fake clock."""
    return Services.build(db, rng=random.Random(1), clock=FakeClock(START))
