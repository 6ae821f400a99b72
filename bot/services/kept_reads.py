"""A resolution's reads of its battle's own rows, made once (#38): before the write, not in it.

A resolution is rehearsed in a read and then kept in a write that first claims the battle's
version (``bot.services.rehearsal``). When the claim succeeds, nothing of the battle has changed
since the rehearsal read it: every ORM write to the battle or to a row of it (its orders,
confirmations, plans, record) bumps that version (``bot.db.versioning``). So a read of those
rows that the rehearsal made is given back to the keeping write instead of being made again
with the write lock held.

Only what cannot differ between the two runs of the body is given back:
- a read is noted only while the rehearsal's session holds no change of its own (a rehearsal
  never flushes, so a read after a change would miss what the write's autoflush shows it);
- a read the rehearsal made twice is never given back (which answer would be the write's?),
  and the write is given each noted read once, at its first asking;
- plain values only (the rehearsal's ORM objects end with its session), and ``keep`` may refuse
  one (a list of rows to change in the write is read again);
- reads of the battle being kept, and only in a write whose claim succeeded (the last try,
  which keeps whatever it finds, reads everything again).
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from sqlalchemy.ext.asyncio import AsyncSession

T = TypeVar("T")


@dataclass
class Reads:
    """What one rehearsal read of its battle's rows (see the module's notes)."""

    battle_id: int
    values: dict[Hashable, Any] = field(default_factory=dict)
    seen: set[Hashable] = field(default_factory=set)  # read by the rehearsal, kept or not
    replaying: bool = False
    given: set[Hashable] = field(default_factory=set)  # given back to the write already


_READS: ContextVar[Reads | None] = ContextVar("aide_kept_reads", default=None)


@contextmanager
def noting(battle_id: int) -> Iterator[Reads]:
    """Inside (a rehearsal): the battle's reads are noted in the ``Reads`` yielded."""
    reads = Reads(battle_id)
    token = _READS.set(reads)
    try:
        yield reads
    finally:
        _READS.reset(token)


@contextmanager
def giving(reads: Reads) -> Iterator[None]:
    """Inside (a keeping write whose claim succeeded): the noted reads are given back."""
    token = _READS.set(Reads(reads.battle_id, reads.values, reads.seen, replaying=True))
    try:
        yield
    finally:
        _READS.reset(token)


async def remembered(
    session: AsyncSession,
    battle_id: int,
    key: Hashable,
    read: Callable[[], Awaitable[T]],
    keep: Callable[[T], bool] | None = None,
) -> T:
    """``read()``, a read of the battle's own rows, or the rehearsal's answer to it."""
    found, given = given_back(battle_id, key)
    if found:
        return cast(T, copy.copy(given))  # the caller may change its own copy
    value = await read()

    def kept() -> Any:
        return copy.copy(value) if keep is None or keep(value) else REFUSED

    note(session, battle_id, key, kept)
    return value


REFUSED = object()  # what ``note``'s ``kept`` gives for a read not to be given back


def given_back(battle_id: int, key: Hashable) -> tuple[bool, Any]:
    """In a keeping write whose claim succeeded: (True, what its rehearsal noted under
    ``key``), once; (False, None) anywhere else."""
    reads = _READS.get()
    if reads is None or reads.battle_id != battle_id or not reads.replaying:
        return False, None
    if key in reads.values and key not in reads.given:
        reads.given.add(key)
        return True, reads.values[key]
    return False, None


def note(session: AsyncSession, battle_id: int, key: Hashable, kept: Callable[[], Any]) -> None:
    """In a rehearsal: ``kept()`` (what its keeping write is to be given for a read of the
    battle's rows just made, or ``REFUSED``) noted under ``key``, by the module's rules."""
    reads = _READS.get()
    if reads is None or reads.battle_id != battle_id or reads.replaying:
        return
    if key in reads.seen:  # read twice by the rehearsal: never given back
        reads.values.pop(key, None)
    elif _unchanged(session):
        value = kept()
        if value is not REFUSED:
            reads.values[key] = value
    reads.seen.add(key)


def _unchanged(session: AsyncSession) -> bool:
    sync = session.sync_session
    return not (sync.new or sync.deleted or sync.dirty)
