"""GM tools: pause, resume, extend, force, set, move, rule, undo, end. Each is on record."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import timedelta
from enum import Enum
from typing import Any

from sqlalchemy import Select, delete, func, select

from bot.clock import Clock
from bot.db.models import BattleOrder, BattleStatus, Readiness, RecordEntry, StageLog
from bot.db.session import Database
from bot.errors import NO_QUESTION, Conflict, InvalidInput, NotFound
from bot.services import holders, plans
from bot.services.base import ClockedService
from bot.services.battle_state import Loaded, cancel_deadlines, find_actor, find_unit, load_battle
from bot.services.campaigns import Place, clean_text
from bot.services.endings import EndReport, finish
from bot.services.names import name_key
from bot.services.numbers import check_finite
from bot.services.play import PlayService
from bot.services.records import append_entries
from bot.services.shapes import TypedTerrain, laid_feature, parse_point
from bot.services.stages import Arming, StageReport, advance, set_deadlines
from bot.services.write_keys import place_write
from rules_core import engine
from rules_core.state import RESERVE, BattleState, Outcome, Unit

MAX_EXTENSION_HOURS = 24 * 30
UNDONE = "undone by a GM"  # the trigger of the stage an undo resolves (the step before is void)


class Change(Enum):
    """What a GM changed."""

    PAUSE = "pause"
    RESUME = "resume"
    EXTEND = "extend"
    SET = "set"
    MOVE = "move"
    UNDO = "undo"
    TERRAIN = "terrain"
    OFF_TABLE = "off_table"
    ON_TABLE = "on_table"


@dataclass(frozen=True)
class TimeLeft:
    """Time left on the battle's clock; None when it had no deadline."""

    seconds: float | None


@dataclass(frozen=True)
class Placement:
    """Where a unit stands and which way it faces."""

    x: float
    y: float
    facing: float


@dataclass(frozen=True)
class GmChange:
    """A GM's change, posted publicly: what, why, and the state before and after.

    ``before`` and ``after`` are typed by the change: a status word and a ``TimeLeft`` for a
    pause or resume, deadlines (datetime) for an extension, status values for a set,
    ``Placement`` for a move, step titles for an undo.
    """

    change: Change
    reason: str
    before: Any
    after: Any
    gm_id: int
    unit: str = ""  # the unit set or moved
    field: str = ""  # the status field set


# A GM's change is posted with its reason for everyone to read: /gm asks for one as a required
# option, and the service refuses one without it whichever door it came through.
REASON_NEEDED = (
    "A GM's change needs its `reason`: why, posted with the change for everyone to read."
)
MAX_REASON = 200  # as /gm's ``reason`` (app_commands.Range[str, 1, 200])


def given_reason(reason: str) -> str:
    """The GM's reason, stripped; refused when empty or longer than ``MAX_REASON``."""
    cleaned = reason.strip()
    if not cleaned:
        raise InvalidInput(REASON_NEEDED)
    if len(cleaned) > MAX_REASON:
        raise InvalidInput(
            f"A GM's `reason` is at most {MAX_REASON} characters ({len(cleaned)} given)."
        )
    return cleaned


class GmService(ClockedService):
    """The GM's commands; every one checks the caller is a GM of the campaign.

    It holds the play service for what a GM shares with players (resolving a step, answering
    a question) and for arming deadlines after each commit.
    """

    def __init__(self, db: Database, clock: Clock, play: PlayService) -> None:
        super().__init__(db, clock)
        self.play = play

    async def check(self, place: Place, user_id: int) -> None:
        """Refuse anyone but a GM of the place's campaign, in the GM commands' words (the war
        table asks before it shows or takes anything of the GM's)."""
        async with self.db.read() as session:
            (await load_battle(session, place)).require_gm(user_id)

    async def pause(self, place: Place, user_id: int, reason: str) -> GmChange:
        """Stop the clock: deadlines are cancelled and the time left is kept."""
        reason = given_reason(reason)
        async with place_write(self.db, place) as session:
            loaded = await _gm_battle(session, place, user_id, BattleStatus.RUNNING)
            battle, now = loaded.battle, self.clock.now()
            left = (battle.deadline_at - now).total_seconds() if battle.deadline_at else None
            battle.paused_left_s = max(left, 60.0) if left is not None else None
            arming = Arming(disarmed=await cancel_deadlines(session, battle.id))
            battle.status, battle.deadline_at = BattleStatus.PAUSED, None
            change = GmChange(Change.PAUSE, reason, "running", TimeLeft(left), user_id)
        self.play.arm(arming)
        return change

    async def resume(self, place: Place, user_id: int, reason: str) -> GmChange:
        """Start the clock again with the time that was left."""
        reason = given_reason(reason)
        async with place_write(self.db, place) as session:
            loaded = await _gm_battle(session, place, user_id, BattleStatus.PAUSED)
            battle, arming = loaded.battle, Arming()
            battle.status = BattleStatus.RUNNING
            hours = (battle.paused_left_s or 3600.0) / 3600
            if loaded.state.outcome is None:
                await set_deadlines(session, loaded, self.clock.now(), hours, arming)
            change = GmChange(Change.RESUME, reason, "paused", TimeLeft(hours * 3600), user_id)
        self.play.arm(arming)
        return change

    async def extend(self, place: Place, user_id: int, hours: float, reason: str) -> GmChange:
        """Push the current deadline (and its reminders) back."""
        reason = given_reason(reason)
        check_finite(hours=hours)
        if not 0 < hours <= MAX_EXTENSION_HOURS:
            raise InvalidInput(f"Extend by more than 0 and at most {MAX_EXTENSION_HOURS} hours.")
        async with place_write(self.db, place) as session:
            loaded = await _gm_battle(session, place, user_id, BattleStatus.RUNNING)
            battle, now, arming = loaded.battle, self.clock.now(), Arming()
            old = battle.deadline_at or now
            new = old + timedelta(hours=hours)
            await set_deadlines(session, loaded, now, (new - now).total_seconds() / 3600, arming)
            change = GmChange(Change.EXTEND, reason, old, new, user_id)
        self.play.arm(arming)
        return change

    async def force(self, place: Place, user_id: int, stage: int | None = None) -> StageReport:
        """Resolve the current step now, with defaults for missing orders; with ``stage`` (the
        step open when the GM asked), only that step: if a deadline or the last confirmation
        resolved it meanwhile, the next one is not forced in its place."""
        async with self.db.read() as session:
            loaded = await _gm_battle(session, place, user_id, BattleStatus.RUNNING)
            battle_id, now_open = loaded.battle.id, loaded.battle.stage
        stage = now_open if stage is None else stage
        report = await self.play.resolve_stage(battle_id, stage, trigger="forced by a GM")
        if report is None:
            raise Conflict("That step has just been resolved.")
        return report

    async def set_status(
        self, place: Place, user_id: int, unit: str, field: str, value: str, reason: str
    ) -> GmChange:
        """Set a status field of a unit, leader, group or side, or a leader's points or wounds
        (``unit`` names any of them, a unit first)."""
        reason = given_reason(reason)
        field = clean_text(field, "field", 40)
        async with place_write(self.db, place) as session:
            loaded = await _gm_battle(session, place, user_id, BattleStatus.RUNNING)
            target = _holder(loaded, unit, field)
            before = holders.value_of(target, field)
            parsed = holders.check(loaded.rules, loaded.state, target, field, parse_value(value))
            after = holders.with_value(loaded.state, target, field, parsed)
            await self._edit(session, loaded, after, f"{field} of {target.name}: {reason}")
            return GmChange(Change.SET, reason, before, parsed, user_id, target.name, field)

    async def lay_terrain(
        self, place: Place, user_id: int, piece: TypedTerrain, reason: str
    ) -> GmChange:
        """Lay a piece of terrain mid-battle, on the record with the reason."""
        reason = given_reason(reason)
        points = piece.outline()
        async with place_write(self.db, place) as session:
            loaded = await _gm_battle(session, place, user_id, BattleStatus.RUNNING)
            state = loaded.state
            feature = laid_feature(state, piece.kind, points, None)
            after = replace(state, terrain=(*state.terrain, feature))
            await self._edit(session, loaded, after, f"laid {feature.name}: {reason}")
            return GmChange(Change.TERRAIN, reason, None, feature.name, user_id, feature.id)

    async def lift_terrain(
        self, place: Place, user_id: int, terrain_id: str, reason: str
    ) -> GmChange:
        """Take a piece of terrain off the table mid-battle, on the record with the reason."""
        reason = given_reason(reason)
        async with place_write(self.db, place) as session:
            loaded = await _gm_battle(session, place, user_id, BattleStatus.RUNNING)
            state = loaded.state
            feature = next((f for f in state.terrain if terrain_id in (f.id, f.name)), None)
            if feature is None:
                raise NotFound(f"There is no terrain `{terrain_id}`; see `/battle terrain list`.")
            after = replace(state, terrain=tuple(f for f in state.terrain if f.id != feature.id))
            await self._edit(session, loaded, after, f"lifted {feature.name}: {reason}")
            return GmChange(Change.TERRAIN, reason, feature.name, None, user_id, feature.id)

    async def move(
        self, place: Place, user_id: int, unit: str, at: str, facing: float | None, reason: str
    ) -> GmChange:
        """Put a unit somewhere else (and turn it)."""
        return await self._put(place, user_id, unit, at, facing, reason, back=False)

    async def take_off(self, place: Place, user_id: int, unit: str, reason: str) -> GmChange:
        """Take a unit off the table without destroying it (it left in pursuit, the rules say
        so): it keeps counting for its army and may come back with ``bring_back``."""
        reason = given_reason(reason)
        async with place_write(self.db, place) as session:
            loaded = await _gm_battle(session, place, user_id, BattleStatus.RUNNING)
            target = find_unit(loaded.state, unit)
            if not target.on_table:
                raise Conflict(f"**{target.name}** is not on the table ({_where(target)}).")
            after = loaded.state.with_unit(target.taken_off(loaded.state.cursor.turn))
            await self._edit(session, loaded, after, f"took {target.name} off the table")
            before = Placement(target.x, target.y, target.facing)
            return GmChange(Change.OFF_TABLE, reason, before, OFF_WORDS, user_id, target.name)

    async def bring_back(
        self, place: Place, user_id: int, unit: str, at: str, facing: float | None, reason: str
    ) -> GmChange:
        """Put a unit that is off the table (or in reserve) back on it at ``at``."""
        return await self._put(place, user_id, unit, at, facing, reason, back=True)

    async def _put(
        self,
        place: Place,
        user_id: int,
        unit: str,
        at: str,
        facing: float | None,
        reason: str,
        *,
        back: bool,
    ) -> GmChange:
        """Stand a unit at ``at``: moved on the table, or ``back`` on it from off the table or
        from reserve."""
        reason = given_reason(reason)
        x, y = _point(at, facing)
        async with place_write(self.db, place) as session:
            loaded = await _gm_battle(session, place, user_id, BattleStatus.RUNNING)
            target = find_unit(loaded.state, unit)
            if back and target.on_table:
                raise Conflict(
                    f"**{target.name}** is on the table already; move it with `/gm move`."
                )
            spot = _placement(loaded.state, target, x, y, facing)
            if back:
                after = loaded.state.with_unit(target.placed((x, y), spot.facing))
                await self._edit(session, loaded, after, f"put {target.name} back on the table")
                return GmChange(Change.ON_TABLE, reason, _where(target), spot, user_id, target.name)
            moved = replace(target, x=x, y=y, facing=spot.facing)
            await self._edit(session, loaded, loaded.state.with_unit(moved), f"moved {target.name}")
            before = Placement(target.x, target.y, target.facing)
            return GmChange(Change.MOVE, reason, before, spot, user_id, target.name)

    async def ruling(
        self, place: Place, user_id: int, choice: str, reason: str = ""
    ) -> StageReport | None:
        """Answer the pending question as the GM, for any side; the reason goes on the record."""
        async with self.db.read() as session:
            loaded = await _gm_battle(session, place, user_id, BattleStatus.RUNNING)
            pending = loaded.state.pending
            if pending is None:
                raise NotFound(NO_QUESTION)
            battle_id, stage = loaded.battle.id, loaded.battle.stage
        which = None if pending.others else pending.decision.id  # several: the answer decides
        return await self.play.answer(battle_id, stage, user_id, which, choice, reason)

    async def undo(self, place: Place, user_id: int, reason: str) -> tuple[GmChange, StageReport]:
        """Go back to the start of the previous step; it is replayed with fresh dice."""
        reason = given_reason(reason)
        async with place_write(self.db, place) as session:
            loaded = await _gm_battle(session, place, user_id, BattleStatus.RUNNING)
            battle = loaded.battle
            previous = await session.scalar(
                select(StageLog).where(
                    StageLog.battle_id == battle.id, StageLog.number == battle.stage - 1
                )
            )
            if previous is None:
                raise Conflict("There is no earlier step to go back to.")
            restored = await _fresh_attempt(
                session, battle.id, BattleState.from_dict(previous.start_state)
            )
            current = await session.scalar(
                select(StageLog).where(
                    StageLog.battle_id == battle.id, StageLog.number == battle.stage
                )
            )
            for model in (BattleOrder, Readiness):
                await session.execute(
                    delete(model).where(model.battle_id == battle.id, model.stage == battle.stage)
                )
            await plans.forget_done(session, battle.id, restored.cursor.turn)
            result = engine.edit(loaded.state, restored, f"undo: {reason}")
            report, arming = await advance(
                session, loaded, result, trigger=UNDONE, now=self.clock.now()
            )
            was = current.title if current else "?"
            change = GmChange(Change.UNDO, reason, was, previous.title, user_id)
        self.play.arm(arming)
        return change, report

    async def end(self, place: Place, user_id: int, winner: str | None, reason: str) -> EndReport:
        """End the battle now: the engine's result if it has one, else the GM's."""
        reason = given_reason(reason)
        # Its armies' rosters are the campaign's, but only this battle's sides' armies: the
        # battle's lock, as a battle the engine ends (stages.advance) has always taken.
        async with place_write(self.db, place) as session:
            loaded = await load_battle(session, place)
            loaded.require_gm(user_id)
            outcome = loaded.state.outcome or Outcome(_winner(loaded, winner), reason)
            report, disarmed = await finish(session, loaded, outcome, self.clock.now())
        self.play.arm(Arming(disarmed=disarmed))
        return report

    async def _edit(self, session: Any, loaded: Loaded, after: BattleState, why: str) -> None:
        result = engine.edit(loaded.state, after, why)
        await append_entries(session, loaded.battle.id, result.entries)
        loaded.save(after)


OFF_WORDS = "off the table"


def _where(unit: Unit) -> str:
    """Where a unit not on the table is, in words."""
    return "in reserve" if unit.location == RESERVE else OFF_WORDS


def _holder(loaded: Loaded, ref: str, field: str) -> holders.Holder:
    """The unit, leader, group or side an id or name means; a name several kinds share (a
    side and its army's group) goes to the one that keeps the field, else it is refused."""
    found = holders.named(loaded.state, ref)
    if len(found) > 1:
        found = [h for h in found if field in holders.fields_of(loaded.rules, holders.scope_of(h))]
    if len(found) == 1:
        return found[0]
    if not found:
        return find_actor(loaded.state, ref)  # its "no such unit, leader, ..." refusal
    shown = ", ".join(f"`{h.id}`" for h in found)
    raise InvalidInput(f"**{ref}** names several things here; give one by id: {shown}.")


async def _gm_battle(session: Any, place: Place, user_id: int, status: BattleStatus) -> Loaded:
    loaded = await load_battle(session, place)
    loaded.require_gm(user_id)
    if loaded.battle.status is not status:
        raise Conflict(f"The battle is {loaded.battle.status.value}, not {status.value}.")
    return loaded


async def _fresh_attempt(session: Any, battle_id: int, state: BattleState) -> BattleState:
    """The state with its attempt past every attempt the record used at that step."""
    cursor = state.cursor
    used = await session.scalar(used_attempt(battle_id, cursor.turn, cursor.step))
    attempt = cursor.attempt if used is None else used
    return replace(state, cursor=replace(cursor, attempt=attempt + 1), pending=None)


def used_attempt(battle_id: int, turn: int, step: str) -> Select[int]:
    """The highest attempt the battle's record used at a step (None when it used none): one
    seek down ``ix_record_entry_battle_step_attempt`` (the entries' JSON is not read)."""
    return select(func.max(RecordEntry.attempt)).where(
        RecordEntry.battle_id == battle_id,
        RecordEntry.turn == turn,
        RecordEntry.step == step,
    )


def _winner(loaded: Loaded, winner: str | None) -> str | None:
    if winner is None:
        return None
    key = name_key(winner)
    for side in loaded.battle.sides:
        if key in (side.side_id.casefold(), name_key(side.name)):
            return side.side_id
    raise NotFound(f"No side called **{winner}** in this battle.")


MAX_STATUS_NUMBER = 1000


def parse_value(text: str) -> Any:
    """A typed status value: true/false, a number, or text."""
    lowered = text.strip().lower()
    if lowered in ("true", "yes"):
        return True
    if lowered in ("false", "no"):
        return False
    for kind in (int, float):
        try:
            number = kind(text)
        except ValueError:
            continue
        if not (math.isfinite(number) and abs(number) <= MAX_STATUS_NUMBER):
            raise InvalidInput(
                f"A status number runs from -{MAX_STATUS_NUMBER} to {MAX_STATUS_NUMBER}."
            )
        return number
    return text.strip()


def _point(at: str, facing: float | None) -> tuple[float, float]:
    """The point a GM typed, refused before any loading (as is a facing that is no number)."""
    check_finite(facing=facing)
    return parse_point(at)


def _placement(
    state: BattleState, target: Unit, x: float, y: float, facing: float | None
) -> Placement:
    """Where the unit will stand, refused off the table; no facing keeps the one it had."""
    field = state.battlefield
    if not (0 <= x <= field.width and 0 <= y <= field.depth):
        raise InvalidInput(f"({x:g}, {y:g}) is off the table.")
    return Placement(x, y, target.facing if facing is None else facing % 360)
