"""The battle record and log: record entries appended, the record file, one turn's log."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import Battle, BattleStatus, RecordEntry, StageLog
from bot.services.base import Service
from bot.services.battle_state import Loaded, load_battle
from bot.services.campaigns import Place
from bot.services.kept_reads import remembered
from bot.services.seats import seat_of
from rules_core import engine
from rules_core.events import event_from_dict
from rules_core.render import Renderer
from rules_core.secrets import Viewer, view_record, visible_events
from rules_core.state import BattleState

_ANY = tuple(BattleStatus)


@dataclass(frozen=True)
class LoggedStep:
    """One resolved step of a turn: its title, what resolved it, who gave no orders, events."""

    title: str
    trigger: str | None  # set on every resolved step; None only on an open one
    missing: tuple[str, ...]
    lines: tuple[str, ...]


class RecordService(Service):
    """Reading the record and the log of the channel's battle, open or finished."""

    async def log(self, place: Place, turn: int) -> list[LoggedStep]:
        """The log of one turn as the one who asks may read it: private events outside their
        audience in their public form (an outsider of a closed campaign is refused)."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place, _ANY)
            finished = loaded.battle.status is BattleStatus.FINISHED
            viewer = None
            if place.user_id is not None and not finished:
                viewer = seat_of(loaded.campaign, place.user_id, loaded.battle).viewer()
            return await turn_log(session, loaded, turn, viewer)

    async def record(self, place: Place) -> bytes:
        """The battle record so far (the seed only once the battle has ended). Mid-battle a GM
        (or the bot: no user in the place) gets it whole; anyone else as their seat may see
        it: while the battle waits at a question, the other sides' orders of that open step
        are left out, and the sealed parameters of their orders (a battle plan) are concealed
        until the end."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place, _ANY)
            finished = loaded.battle.status is BattleStatus.FINISHED
            data = await record_bytes(session, loaded, reveal=finished)
            if finished or place.user_id is None:
                return data
            seat = seat_of(loaded.campaign, place.user_id, loaded.battle)
            if seat.is_gm:
                return data
            stopped = loaded.state.pending is not None  # the step stopped on a question
            sealed = loaded.rules.sealed_params()
            record = view_record(json.loads(data), seat.viewer(), open_step=stopped, sealed=sealed)
            return json.dumps(record, indent=1, sort_keys=True).encode()


async def append_entries(session: AsyncSession, battle_id: int, entries: Sequence[object]) -> None:
    """Add the engine's record entries after those already kept."""

    async def read() -> int | None:
        return await session.scalar(
            select(func.max(RecordEntry.seq)).where(RecordEntry.battle_id == battle_id)
        )

    last = await remembered(session, battle_id, "last_seq", read)
    first = 0 if last is None else last + 1
    rows = []
    for seq, entry in enumerate(entries, start=first):
        assert isinstance(entry, engine.Entry)
        rows.append(
            {
                "battle_id": battle_id,
                "seq": seq,
                "entry": entry.to_dict(),
                "turn": entry.turn,
                "step": entry.step,
                "attempt": entry.attempt,
            }
        )
    if rows:  # one statement for them all (ORM objects were one INSERT each, ids returned)
        await session.execute(insert(RecordEntry), rows)


async def record_bytes(session: AsyncSession, loaded: Loaded, *, reveal: bool) -> bytes:
    """The battle record as JSON: the first state, every engine call, the seed if revealed."""
    battle = loaded.battle
    entries = await session.scalars(
        select(RecordEntry.entry)
        .where(RecordEntry.battle_id == battle.id)
        .order_by(RecordEntry.seq)
    )
    # Read here alone: a loaded battle leaves it out (``battle_state._BATTLE_LOAD``).
    initial = await session.scalar(select(Battle.initial_state).where(Battle.id == battle.id))
    record: dict[str, Any] = {
        "battle_id": loaded.state.battle_id,
        "ruleset": battle.ruleset_id,
        "seed_sha256": battle.seed_sha256,
        "initial_state": initial,
        "entries": list(entries),
        "seed": battle.seed if reveal else None,
        "record_version": 1,
    }
    return json.dumps(record, indent=1, sort_keys=True).encode()


async def turn_log(
    session: AsyncSession, loaded: Loaded, turn: int, viewer: Viewer | None = None
) -> list[LoggedStep]:
    """Every resolved step of one turn, with the event lines players read; for a viewer, the
    private events they are not in the audience of in their public form (None: all)."""
    rows = await session.scalars(
        select(StageLog)
        .where(StageLog.battle_id == loaded.battle.id, StageLog.turn == turn)
        .order_by(StageLog.number)
    )
    steps: list[LoggedStep] = []
    for row in rows:
        if row.events is None:
            continue
        renderer = Renderer.for_state(BattleState.from_dict(row.start_state))
        events = [event_from_dict(e) for e in row.events]
        lines = renderer.lines(events if viewer is None else visible_events(events, viewer))
        steps.append(LoggedStep(row.title, row.trigger, tuple(row.missing or ()), tuple(lines)))
    return steps
