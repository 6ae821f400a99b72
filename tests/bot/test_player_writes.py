"""#38: a player's order, withdrawal or standing instruction is decided in a read; its write
holds the write lock for the battle's version claimed and its rows kept, nothing else (no
battle loaded, no state decoded, no engine call). What the decision read outside the battle
(the user's membership) is checked by the same claim."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from sqlalchemy import event, func, select, update

from bot.db.models import Battle, BattleOrder, Campaign, Membership, Role, StandingInstruction
from bot.db.session import Database
from bot.services import player_writes
from bot.services.battle_state import load_battle
from bot.services.campaigns import Place
from bot.services.play import OrderInput
from rules_core.state import BattleState
from tests.bot.keeping import services_on
from tests.bot.test_judged_before import started
from tests.bot.test_rehearsal import watch_engine
from tests.bot.test_tree_of_battles_battle import set_up
from tests.conftest import ALICE, BOB, OUTSIDER

STATEMENTS_AT_MOST = 3  # the claim, then a row inserted and one deleted at most


def watch_writes(monkeypatch: pytest.MonkeyPatch, db: Database) -> list[list[str]]:
    """The statements of each write transaction from now on (BEGIN left out), and a state
    decoded inside one noted as ``decoded``."""
    writes: list[list[str]] = []
    inside = [False]
    real_write = db.write

    @asynccontextmanager
    async def write(**keys: Any) -> AsyncIterator[Any]:
        writes.append([])
        try:
            async with real_write(**keys) as session:
                inside[0] = True
                yield session
        finally:  # after the commit (and the flush it makes)
            inside[0] = False

    def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if inside[0] and not statement.startswith("BEGIN"):
            writes[-1].append(statement)

    real_from_dict = BattleState.from_dict.__func__  # type: ignore[attr-defined]

    def from_dict(cls: type[BattleState], data: Any) -> BattleState:
        if inside[0]:
            writes[-1].append("decoded")
        return real_from_dict(cls, data)  # type: ignore[no-any-return]

    monkeypatch.setattr(db, "write", write)
    monkeypatch.setattr(BattleState, "from_dict", classmethod(from_dict))
    event.listen(db.writers.sync_engine, "before_cursor_execute", seen)
    return writes


def only_claim_and_rows(statements: list[str]) -> None:
    """The write claimed the version first and then only wrote rows."""
    assert 2 <= len(statements) <= STATEMENTS_AT_MOST, statements
    assert statements[0].startswith("UPDATE battle SET version"), statements
    assert not any(s.lstrip().startswith(("SELECT", "decoded")) for s in statements), statements


async def orders(db: Database) -> int:
    """How many orders are kept."""
    async with db.read() as session:
        return int(await session.scalar(select(func.count()).select_from(BattleOrder)) or 0)


async def battle_version(db: Database) -> int:
    """The (only) battle's version."""
    async with db.read() as session:
        return int(await session.scalar(select(Battle.version)) or 0)


async def test_an_order_and_its_withdrawal_write_only_the_claim_and_the_row(
    db: Database, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    services = await started(db, place)
    writes = watch_writes(monkeypatch, db)
    calls = watch_engine(monkeypatch, db)
    view = await services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=26, y=6))
    assert view.unit_name == "Red Archers" and await orders(db) == 1
    assert len(writes) == 1
    only_claim_and_rows(writes[0])
    assert any(s.startswith("INSERT INTO battle_order") for s in writes[0])
    assert calls and [name for name, held in calls if held] == [], "engine call in the write"
    gone = await services.play.withdraw(place, ALICE, "Red Archers")
    assert gone.unit_name == "Red Archers" and gone.remaining == 0 and await orders(db) == 0
    assert len(writes) == 2
    only_claim_and_rows(writes[1])
    assert any(s.startswith("DELETE FROM battle_order") for s in writes[1])


async def test_a_confirmation_writes_only_the_claim_and_its_readiness(
    db: Database, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    services = await started(db, place)
    writes = watch_writes(monkeypatch, db)
    done = await services.play.confirm(place, ALICE)
    assert done.report is None and done.waiting_for == (BOB,)
    assert len(writes) == 1
    only_claim_and_rows(writes[0])
    assert any(s.startswith("INSERT INTO readiness") for s in writes[0])
    assert (await services.play.confirm(place, BOB)).report is not None, "the step resolved"


async def test_a_standing_instruction_replaced_writes_only_the_claim_and_the_rows(
    db: Database, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    services = services_on(db)
    await set_up(services, place)
    await services.standing.set(place, ALICE, "charge_response", "evade")
    writes = watch_writes(monkeypatch, db)
    shown = await services.standing.set(place, ALICE, "charge_response", "counter_charge")
    assert shown.choice == "counter-charge"
    assert len(writes) == 1
    only_claim_and_rows(writes[0])
    assert [s.split()[0] for s in writes[0]] == ["UPDATE", "DELETE", "INSERT"]
    async with db.read() as session:
        rows = (await session.scalars(select(StandingInstruction))).all()
    assert [(r.topic, r.choice) for r in rows] == [("charge_response", "counter_charge")]


async def test_a_write_decided_before_the_battle_changed_is_decided_again(
    db: Database, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    services = await started(db, place)
    await services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=26, y=6))

    async def withdrawn() -> None:  # the order the new one was to replace goes meanwhile
        await services.play.withdraw(place, ALICE, "Red Archers")

    tries = await _between(monkeypatch, withdrawn)
    view = await services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=27, y=6))
    assert tries == [False, True]
    assert not any("replaces" in note for note in view.notes), "decided on the old orders"
    async with db.read() as session:
        kept = (await session.scalars(select(BattleOrder))).all()
    assert len(kept) == 1 and "27" in json.dumps(kept[0].params), "the new order alone"


async def test_a_membership_changed_after_the_decision_fails_its_claim(
    db: Database, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    services = await started(db, place)
    version = await battle_version(db)

    async def demoted() -> None:  # a campaign-wide change: the battle's version stays
        async with db.write() as session:
            await session.execute(
                update(Membership).where(Membership.user_id == ALICE).values(role=Role.OBSERVER)
            )

    tries = await _between(monkeypatch, demoted)
    await services.play.submit(place, ALICE, "place", "Red Archers", OrderInput(x=26, y=6))
    assert tries == [False, True], "the claim saw the membership the decision read"
    assert await battle_version(db) == version + 1  # the one claim kept


async def _between(monkeypatch: pytest.MonkeyPatch, change: Any) -> list[bool]:
    """``change`` made once, between the first decision and its write; each write's claim
    noted (True: kept), not those of the change's own writes."""
    real_keep, tries, depth = player_writes.keep, [], [0]

    async def keep(db: Database, decided: Any) -> bool:
        if depth[0] == 0 and not tries:
            depth[0] += 1
            try:
                await change()
            finally:
                depth[0] -= 1
        kept = await real_keep(db, decided)
        if depth[0] == 0:
            tries.append(kept)
        return kept

    monkeypatch.setattr(player_writes, "keep", keep)
    return tries


async def test_the_claim_of_someone_outside_the_campaign_checks_it_is_still_open(
    db: Database, place: Place
) -> None:
    await started(db, place)
    async with db.read() as session:
        loaded = await load_battle(session, place)
        claim = player_writes.seat_claim(loaded, OUTSIDER)
    async with db.write() as session:  # (open, and no member: the claim holds)
        assert (await session.execute(claim)).rowcount == 1
    async with db.read() as session:
        loaded = await load_battle(session, place)
        claim = player_writes.seat_claim(loaded, OUTSIDER)
    async with db.write() as session:  # closed since: it does not
        campaign = (await session.scalars(select(Campaign))).one()
        campaign.settings = {**(campaign.settings or {}), "visibility": "closed"}
    async with db.write() as session:
        assert (await session.execute(claim)).rowcount == 0
