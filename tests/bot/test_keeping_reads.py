"""#38: a resolution's keeping write holds the write lock for as few statements and as little
Python as it can. What its rehearsal read of the battle's own rows is given back to it (the
claimed version shows none of them changed), the stored state is not decoded again, and what
it keeps is exactly what the write kept when it read everything itself."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

import pytest
from sqlalchemy import text

from bot.db import encoded
from bot.db.session import Database
from bot.services import Services, battles, rehearsal
from bot.services.campaigns import Place
from bot.services.play import OrderInput
from rules_core.state import BattleState
from tests.bot.battle_setup import deployed_battle
from tests.bot.keeping import inside_the_write, services_on, statements_in_the_write
from tests.conftest import ALICE, BOB, GM
from tests.databases import TestDatabases, on_postgres

# The keeping write of this step: the claim, the battle, its campaign and armies, then only
# writes (and the turn's plan rows when no question is open; the base had 20 here).
STATEMENTS_AT_MOST = 10
# What the rehearsal read and the write must not read again.
READ_BY_THE_REHEARSAL = (
    "FROM battle_order",
    "FROM readiness",
    "FROM stage_log",
    "record_entry.seq",
    "FROM standing_instruction",
)


async def one_to_confirm(services: Services, place: Place) -> None:
    """Started, an order given and confirmed: Bob's confirmation resolves the step."""
    await deployed_battle(services, place)
    await services.play.start(place, GM)
    await services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=26, y=6))
    await services.play.confirm(place, ALICE)


async def play_a_step(services: Services, place: Place) -> None:
    """The step resolved (see ``one_to_confirm``)."""
    await one_to_confirm(services, place)
    done = await services.play.confirm(place, BOB)
    assert done.report is not None


async def test_the_keeping_write_decodes_no_state_and_reads_nothing_again(
    db: Database, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(encoded, "READ_KEPT_FROM", 0)  # a skirmish's state is small
    services = services_on(db)
    await one_to_confirm(services, place)
    decodes: list[str] = []
    statements = statements_in_the_write(monkeypatch, db)
    real_from_dict, real_read = BattleState.from_dict.__func__, encoded._read  # type: ignore[attr-defined]
    inside = inside_the_write(monkeypatch)

    def from_dict(cls: type[BattleState], data: Any) -> BattleState:
        if inside[0]:
            decodes.append("state")
        return real_from_dict(cls, data)  # type: ignore[no-any-return]

    def read(stored: str) -> Any:
        if inside[0] and '"units"' in stored:
            decodes.append("json")
        return real_read(stored)

    monkeypatch.setattr(BattleState, "from_dict", classmethod(from_dict))
    monkeypatch.setattr(encoded, "_read", read)
    done = await services.play.confirm(place, BOB)
    assert done.report is not None
    assert any("UPDATE battle SET state" in s for s in statements), "the step was kept"
    # On PostgreSQL asyncpg decodes JSON in its protocol's callback, outside the task's
    # context, so the rehearsal's reads are not given back there (the state object is).
    assert decodes == [] or (on_postgres() and "state" not in decodes), (
        "the keeping write decoded a stored state again"
    )
    again = [s for s in statements if any(r in s for r in READ_BY_THE_REHEARSAL)]
    assert again == [], again
    claim = next(i for i, s in enumerate(statements) if s.startswith("UPDATE battle SET version"))
    work = statements[claim:]  # the write's, from its claim (not its lock keys' read)
    assert len(work) <= STATEMENTS_AT_MOST, "\n".join(work)


async def kept_rows(db: Database) -> dict[str, list[Any]]:
    """Everything a resolution keeps, table by table, as the database holds it."""
    queries = {
        "battle": "SELECT state, waiting, stage, stage_started_at, deadline_at, version "
        "FROM battle",
        "stage_log": "SELECT number, turn, step, title, start_state, orders, events, "
        'resolved_at, "trigger", missing FROM stage_log ORDER BY number',
        "record_entry": "SELECT seq, entry, turn, step, attempt FROM record_entry ORDER BY seq",
        "deadline": "SELECT stage, kind, due_at, status, note FROM deadline ORDER BY id",
        "battle_order": "SELECT stage, side_id, actor, kind, params FROM battle_order ORDER BY id",
        "readiness": "SELECT stage, side_id FROM readiness ORDER BY id",
    }
    async with db.read() as session:
        return {
            name: [tuple(row) for row in await session.execute(text(query))]
            for name, query in queries.items()
        }


async def test_what_is_kept_equals_what_a_write_reading_everything_kept(
    db: Database, databases: TestDatabases, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(battles, "new_seed", lambda: bytes(range(32)))  # the same dice twice
    await play_a_step(services_on(db), place)
    given_back = await kept_rows(db)
    # The same battle on a second database, its keeping write given nothing back.
    monkeypatch.setattr(rehearsal, "giving", lambda _reads: nullcontext())
    other = Database.from_url(databases.url("other.db", migrated=True))
    try:
        await play_a_step(services_on(other), place)
        read_again = await kept_rows(other)
    finally:
        await other.dispose()
    assert given_back["stage_log"][0][5], "the step's log kept its orders"
    assert given_back == read_again
