"""A player's write decided in a read (#38): the write itself claims and keeps rows, nothing else.

An order, a withdrawal or a standing instruction is worked out in a read session: the campaign
and battle loaded, the user checked, the order judged, the rows to keep or drop found, by the
same code that ran inside the write before (``body``). Nothing reaches the database there (no
flush; a direct write statement means the body cannot be decided ahead, and it then runs in a
write as before). The rows the session would have flushed become plain statements, and the
write is only:

1. one ``UPDATE`` that claims the battle's version read with the battle (``versioning.claim``)
   and, in the same statement, checks what the decision took from outside the battle: the
   campaign still open and the user's membership (role, joined side) as read. Everything else
   it read (the battle, its sides and hand-overs, the orders, plans, standing instructions) is
   the battle's own and bumps that version when it changes;
2. the rows' ``DELETE``/``UPDATE``/``INSERT`` statements, built before the write began.

No row claimed (another write came first): the decision is made again on what is there now; after
``TRIES`` the body runs inside the write as it always did. A refusal is the read's, in the same
words, and writes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import delete, exists, insert, inspect, or_, select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from bot.db.models import Campaign, Membership
from bot.db.session import Database
from bot.db.versioning import bumped, claim
from bot.services.battle_state import Loaded
from bot.services.campaigns import Place, find_member, is_closed
from bot.services.rehearsal import DryStop, dry
from bot.services.replay import Script, scripted
from bot.services.write_keys import place_write

T = TypeVar("T")
Body = Callable[[AsyncSession], Awaitable[tuple[T, Loaded]]]

TRIES = 3  # decisions made again before the last try decides inside its write

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Decided(Generic[T]):
    """A write worked out in a read: its answer, its battle and campaign, its claim and rows."""

    result: T
    battle_id: int
    campaign_id: int
    claim: Any
    rows: tuple[Any, ...]


async def written(db: Database, place: Place, user_id: int, body: Body[T]) -> T:
    """``body`` decided in a read and kept by a write of one claim and its rows (see above)."""
    script = Script()
    for _ in range(TRIES):
        script = Script()  # the last decision's engine calls are given to the write below
        decided = await decide(db, user_id, body, script)
        if decided is None:
            break
        if not decided.rows or await keep(db, decided):
            return decided.result
        log.info("battle %s changed while a player's write was decided", decided.battle_id)
    async with place_write(db, place) as session:  # decided inside, as before (#38)
        with scripted(script, recording=False):
            return (await body(session))[0]


async def decide(db: Database, user_id: int, body: Body[T], script: Script) -> Decided[T] | None:
    """``body`` run in a read, its engine calls noted in ``script``; None if it wrote directly."""
    async with db.read() as session:
        try:
            with dry(session), scripted(script, recording=True):
                result, loaded = await body(session)
                rows = statements(session.sync_session)
            battle = loaded.battle  # read before the rollback expires it
            claimed = seat_claim(loaded, user_id)
            return Decided(result, battle.id, battle.campaign_id, claimed, rows)
        except DryStop:
            return None
        finally:
            await session.rollback()


async def keep(db: Database, decided: Decided[Any]) -> bool:
    """The claim then the rows, in one write; False (nothing written) if the claim failed.
    The rows are the battle's own: on PostgreSQL the write runs on the loop, and if a row lock
    held it up (``Database.lock_waited``), nothing was written and it is kept off the loop."""
    try:
        return await _kept(db, decided, on_loop=True)
    except OperationalError as error:
        if not db.lock_waited(error):
            raise
        log.info("battle %s: a player's write waited for a row lock", decided.battle_id)
        return await _kept(db, decided, on_loop=False)


async def _kept(db: Database, decided: Decided[Any], *, on_loop: bool) -> bool:
    keys = {"battle": decided.battle_id, "campaign": decided.campaign_id}
    async with db.write(**keys, on_loop=on_loop) as session:
        claimed: Any = await session.execute(decided.claim)
        if not claimed.rowcount:
            return False
        for row in decided.rows:
            await session.execute(row)
        bumped(session.sync_session, decided.battle_id)  # the claim was this write's bump
    return True


def seat_claim(loaded: Loaded, user_id: int) -> Any:
    """The battle's version claimed if still the one loaded, and the campaign and the user's
    membership still as the decision read them (the seat, GM rights, a joined side)."""
    campaign, battle = loaded.campaign, loaded.battle
    member = find_member(campaign, user_id)
    mine = select(Membership.id).where(
        Membership.campaign_id == campaign.id, Membership.user_id == user_id
    )
    open_still = select(Campaign.id).where(
        Campaign.id == campaign.id, Campaign.status == campaign.status
    )
    if member is None:  # an outsider reads only an open campaign (``require_reader``)
        visibility = Campaign.settings["visibility"].as_string()
        shown = (
            visibility == "closed"
            if is_closed(campaign)
            else or_(visibility.is_(None), visibility != "closed")
        )
        return claim(battle.id, battle.version).where(
            exists(open_still.where(shown)), ~exists(mine)
        )
    side = Membership.side.is_(None) if member.side is None else Membership.side == member.side
    return claim(battle.id, battle.version).where(
        exists(open_still), exists(mine.where(Membership.role == member.role, side))
    )


def statements(session: Session) -> tuple[Any, ...]:
    """What a flush of the session would write, as statements: deletes, updates, inserts."""
    found: list[Any] = []
    for row in session.deleted:
        found.append(delete(_table(row)).where(*_key(row)))
    for row in session.dirty:
        changed = _changed(row)
        if changed:
            found.append(update(_table(row)).where(*_key(row)).values(changed))
    for row in session.new:
        found.append(insert(_table(row)).values(_set(row)))
    return tuple(found)


def _table(row: Any) -> Any:
    return inspect(row).mapper.local_table


def _key(row: Any) -> list[Any]:
    state = inspect(row)
    key = zip(state.mapper.primary_key, state.identity or (), strict=True)
    return [col == value for col, value in key]


def _changed(row: Any) -> dict[Any, Any]:
    state = inspect(row)
    found = {}
    for prop in state.mapper.column_attrs:
        if state.attrs[prop.key].history.has_changes():
            found[prop.columns[0]] = state.dict.get(prop.key)
    _no_relations(state)
    return found


def _set(row: Any) -> dict[Any, Any]:
    """A new row's columns given a value (the others take their columns' defaults)."""
    state = inspect(row)
    _no_relations(state)
    return {
        prop.columns[0]: state.dict[prop.key]
        for prop in state.mapper.column_attrs
        if prop.key in state.dict
    }


def _no_relations(state: Any) -> None:
    """A row linked to another through a relationship is left to a real flush."""
    if any(state.dict.get(rel.key) for rel in state.mapper.relationships):
        raise DryStop()
