"""Resolving a battle without engine work inside a write transaction (#38).

``kept(db, battle_id, body)`` runs ``body(session, dry)`` twice. First as a rehearsal in a
read session (``dry`` True): its reads are the resolution's inputs (state, orders, plans,
standing instructions, answers) and its engine calls run off the loop and are noted
(``bot.services.replay``); nothing it writes reaches the database (no flush, and the first
``UPDATE``/``DELETE``/``INSERT`` statement ends the rehearsal: engine work comes before them).
Then for real in a short write that first claims the battle's version read by the rehearsal:
if another write to the battle committed meanwhile (an order, a withdrawal, a plan, an answer,
a confirmation, a GM change, a hand-over: ``bot.db.versioning``), or to its campaign, a member
or an army (the claim checks the campaign's version too), the rehearsal is done again
with what is there now. The last try keeps whatever it finds, running any engine call that
differs from the rehearsal's inside its write, as every resolution did before.

Exactly-once is unchanged: the write runs the same code as before (the stage checked, then
moved on, in one transaction); a rehearsal writes nothing and posts nothing.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, TypeVar

from sqlalchemy import event, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import ORMExecuteState, Session

from bot.db.encoded import reads_kept
from bot.db.models import Battle, Campaign
from bot.db.session import Database
from bot.db.versioning import bumped, claim
from bot.services.kept_reads import Reads, giving, noting
from bot.services.replay import Script, scripted
from bot.services.resolving import EngineStopped
from bot.services.state_encoding import encode_results
from bot.services.write_keys import battle_write

T = TypeVar("T")
Body = Callable[[AsyncSession, bool], Awaitable[T]]
Versions = tuple[int, int]  # the battle's and its campaign's

TRIES = 3  # rehearsals before the last try keeps what it finds
HOLDS_KEPT = 1_000
_DRY = "aide_rehearsal"

log = logging.getLogger(__name__)
_holds: deque[float] = deque(maxlen=HOLDS_KEPT)


class _DryStop(Exception):
    """A rehearsal reached its first write statement: its engine work is done."""


class _Stale(Exception):
    """The battle changed since the rehearsal read it."""


async def kept(db: Database, battle_id: int, body: Body[T]) -> T:
    """``body`` rehearsed in a read, then run for real in a write that checks the battle's
    version is still the rehearsal's (and rehearsed again if not)."""
    with reads_kept():  # the write is given the large objects its rehearsal decoded
        return await _kept(db, battle_id, body)


async def _kept(db: Database, battle_id: int, body: Body[T]) -> T:
    on_loop = True  # the battle's own rows, on the loop on PostgreSQL (``bot.db.on_loop_pg``)
    for attempt in range(TRIES):
        version, script, reads = await _rehearse(db, battle_id, body)
        encode_results([call[3] for call in script.calls])  # before the write, not inside
        last = attempt == TRIES - 1
        try:
            claimed = None if last else version
            return await _keep(db, battle_id, body, script, claimed, reads, on_loop and not last)
        except _Stale:
            log.info("battle %s changed while it resolved: worked out again", battle_id)
        except OperationalError as error:
            if not db.lock_waited(error) or last:
                raise
            on_loop = False  # a row lock held it up: nothing was written; kept off the loop
            log.info("battle %s: its keeping write waited for a row lock", battle_id)
    raise AssertionError("unreachable: the last try keeps what it finds")


async def _rehearse(
    db: Database, battle_id: int, body: Body[Any]
) -> tuple[Versions | None, Script, Reads]:
    """The battle's version and its campaign's, then ``body`` run in a read session with its
    engine calls and its reads of the battle's rows noted."""
    script = Script()
    async with db.read() as session:
        found = await session.execute(
            select(Battle.version, Campaign.version)
            .join(Campaign, Campaign.id == Battle.campaign_id)
            .where(Battle.id == battle_id)
        )
        row = found.first()
        version = None if row is None else (row[0], row[1])
        with _dry(session), scripted(script, recording=True), noting(battle_id) as reads:
            try:
                await body(session, True)
            except EngineStopped:
                raise  # the player is told, as before; nothing was written
            except Exception:  # the write runs it again and says what is wrong
                pass
        await session.rollback()
    return version, script, reads


async def _keep(
    db: Database,
    battle_id: int,
    body: Body[T],
    script: Script,
    version: Versions | None,
    reads: Reads,
    on_loop: bool,
) -> T:
    """``body`` in a write, its engine calls given back from ``script`` (and, once its claim
    of ``version`` succeeded, its rehearsal's ``reads``); ``_Stale`` (nothing written) if
    ``version`` is set and is no longer the battle's (or its campaign's)."""
    async with battle_write(db, battle_id, on_loop=on_loop) as session:
        began = time.perf_counter()
        try:
            given: AbstractContextManager[None] = nullcontext()
            if version is not None:
                claimed: Any = await session.execute(claim(battle_id, *version))
                if not claimed.rowcount:
                    raise _Stale()
                bumped(session.sync_session, battle_id)  # the claim was this write's bump
                given = giving(reads)  # nothing of the battle changed: its reads stand
            with scripted(script, recording=False), given:
                return await body(session, False)
        finally:
            _holds.append((time.perf_counter() - began) * 1000)
            if script.ran:
                log.info("battle %s: %d engine call(s) inside the write", battle_id, script.ran)


def hold_ms() -> list[float]:
    """How long each recent resolution's write ran its body (ms), oldest first."""
    return list(_holds)


@contextmanager
def _dry(session: AsyncSession) -> Iterator[None]:
    """Nothing the session does reaches the database: no flush, and a write statement stops."""
    sync = session.sync_session
    sync.info[_DRY] = True
    sync.autoflush = False
    sync.flush = _no_flush  # type: ignore[method-assign]
    try:
        yield
    finally:
        sync.info.pop(_DRY, None)


# A player's write is decided in a read the same way (``bot.services.player_writes``).
dry = _dry
DryStop = _DryStop


def _no_flush(objects: Any = None) -> None:
    """A rehearsal keeps its changes in the session, never in the database."""


def _stop_writes(state: ORMExecuteState) -> None:
    if state.session.info.get(_DRY) and (state.is_insert or state.is_update or state.is_delete):
        raise _DryStop()


event.listen(Session, "do_orm_execute", _stop_writes)
