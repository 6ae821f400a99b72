"""Fixtures of the war table's tests: a fake clock, the services on it, a campaign and a client."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.db.session import Database
from bot.services import Services
from tests.bot.battle_setup import START
from tests.e2e.fake_clock import FakeClock
from tests.web.table import Table, campaign, client_of


@pytest.fixture
def clock() -> FakeClock:
    """Time the test moves (links expire), from the battles' usual start."""
    return FakeClock(START)


@pytest.fixture
def services(db: Database, clock: FakeClock) -> Services:
    """The services over the test database, on the test's clock."""
    return Services.build(db, rng=random.Random(1), clock=clock)


@pytest.fixture
async def table(services: Services) -> AsyncIterator[Table]:
    """The campaign and a client of its war table."""
    campaign_id = await campaign(services)
    async with client_of(services) as client:
        yield Table(services, client, campaign_id)
