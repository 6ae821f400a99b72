"""#38: a resolution's keeping write is short. The state it stores was encoded before the
write began (by its rehearsal), the battle's version is bumped once per write (not once per
flush), and what is stored is the state's own encoding, read back equal."""

from __future__ import annotations

import random
from typing import Any

import pytest
from sqlalchemy import select

from bot.db import encoded
from bot.db.encoded import Encoded, Read
from bot.db.models import Battle
from bot.db.session import Database
from bot.services import Services
from bot.services.campaigns import Place
from rules_core.state import BattleState
from tests.bot.battle_setup import START, deployed_battle
from tests.bot.keeping import inside_the_write, statements_in_the_write
from tests.conftest import ALICE, BOB, GM
from tests.e2e.fake_clock import FakeClock


@pytest.fixture
def services(db: Database) -> Services:
    """Services on the fake clock."""
    return Services.build(db, rng=random.Random(1), clock=FakeClock(START))


async def test_the_keeping_write_encodes_nothing_and_bumps_the_version_once(
    services: Services, db: Database, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    statements = statements_in_the_write(monkeypatch, db)
    inside = inside_the_write(monkeypatch)  # the same write: both flags are set inside it
    encodes: list[int] = []
    real_to_dict = BattleState.to_dict

    def to_dict(state: BattleState) -> dict[str, Any]:
        if inside[0]:
            encodes.append(1)
        return real_to_dict(state)

    monkeypatch.setattr(BattleState, "to_dict", to_dict)
    await services.play.confirm(place, ALICE)
    done = await services.play.confirm(place, BOB)
    assert done.report is not None
    assert any("UPDATE battle SET state" in s for s in statements), "the step was kept"
    assert encodes == [], "a state was encoded inside the keeping write"
    bumps = [s for s in statements if s.startswith("UPDATE battle SET version")]
    assert len(bumps) == 1, bumps  # the claim of the rehearsal's version, and no other


async def test_the_stored_state_reads_back_as_encoded(
    services: Services, db: Database, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(encoded, "READ_KEPT_FROM", 0)  # a skirmish's state is small
    await deployed_battle(services, place)
    report = await services.play.start(place, GM)
    async with db.read() as session:
        battle = (await session.scalars(select(Battle))).one()
        stored = battle.state
    assert stored == report.battle.state.to_dict()
    # Read back with its text (a large state), which is the one written: the next load
    # compares it with the last decoded state without encoding it again.
    assert isinstance(stored, Read) and type(stored) is not Encoded
    assert stored.text == Encoded(report.battle.state.to_dict()).text
