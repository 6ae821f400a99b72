"""After a battle (or during it): its replay frames and its after-action report, from the stages.

Every resolved stage keeps the state it started from and the events resolving it made
(``StageLog``); the state after a stage is the next stage's starting state. A replay is one
frame per resolved stage: the state after it, with that stage's moves, shots and combats.

Secrets: a finished battle's replay is whole (its seed is revealed, so is everything). During
play a replay shows only what the asking seat may see (``rules_core.secrets``): the GM all, a
player their side's view, everyone else the public view (that of the maps the channel got);
the bot sends it to the asker alone. The after-action report is written only once the battle
has ended: before then it would give away what each side may not know.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import BattleStatus, StageLog
from bot.errors import Conflict
from bot.rendering.replay import Frame
from bot.services.base import Service
from bot.services.battle_state import Loaded, load_battle
from bot.services.campaigns import Place
from bot.services.endings import ArmyLosses
from bot.services.gm import UNDONE
from bot.services.records import record_bytes
from bot.services.seats import seat_of
from bot.services.story import (
    TurnChanges,
    TurningPoint,
    TurnPlayed,
    luck,
    rolls_of,
    story,
    turning_point,
)
from rules_core import registry, secrets
from rules_core.events import Event, StepBegan, event_from_dict
from rules_core.render import Gone, Renderer, gone_each
from rules_core.secrets import Viewer
from rules_core.state import BattleState, Unit

_ANY = tuple(BattleStatus)
SWINGS = 3  # the rolls furthest from their dice's average that the report names
NOT_STARTED = (
    "No step of this battle has been resolved yet: there is nothing to replay. Ask again once "
    "the first step is resolved (`/battle status` shows where the battle stands)."
)
NOT_ENDED = "The after-action report is written once the battle has ended (`/battle end`)."


@dataclass(frozen=True)
class Stage:
    """One resolved stage: its title and turn, the states before and after it, its events."""

    number: int
    turn: int
    title: str
    before: BattleState
    after: BattleState
    events: tuple[Event, ...]
    trigger: str | None = None

    @property
    def lost(self) -> tuple[Unit, ...]:
        """Units on the table before the stage and not after it."""
        kept = {unit.id for unit in self.after.units}
        return tuple(unit for unit in self.before.units if unit.id not in kept)


@dataclass(frozen=True)
class Replay:
    """What a replay shows: the battle's name, its frames, and whether anything is hidden."""

    battle_name: str
    frames: tuple[Frame, ...]
    whole: bool  # the battle has ended (or the GM asks): nothing is hidden
    finished: bool  # the battle has ended: the replay may be shown to everyone


@dataclass(frozen=True)
class StepStory:
    """A step of the full log: its title and every line its events read as."""

    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class TurnStory:
    """One turn of the full log (0 is set-up), its steps in order."""

    turn: int
    steps: tuple[StepStory, ...]


@dataclass(frozen=True)
class Swing:
    """A roll far from its dice's average: ``luck`` in standard deviations (+ lucky)."""

    title: str
    line: str
    luck: float


@dataclass(frozen=True)
class AfterAction:
    """The makings of an after-action report: the story turn by turn (what changed the battle)
    with its turning point, the swings of luck, losses, and the full log step by step."""

    battle_name: str
    campaign_name: str
    ruleset_name: str
    result: str
    story: tuple[TurnChanges, ...]
    turning_point: TurningPoint | None
    turns: tuple[TurnStory, ...]  # the full log
    swings: tuple[Swing, ...]
    losses: tuple[ArmyLosses, ...]
    first: Frame  # the table as the battle began
    last: Frame  # the table as it ended, with the last step's marks
    record: bytes


class AftermathService(Service):
    """Replays and after-action reports of the channel's newest battle."""

    async def replay(self, place: Place) -> Replay:
        """The replay's frames as the one who asks may see them (whole once the battle ended)."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place, _ANY)
            finished = loaded.battle.status is BattleStatus.FINISHED
            viewer = Viewer.game_master()  # a finished battle, or the bot itself, sees all
            if not finished and place.user_id is not None:
                viewer = seat_of(loaded.campaign, place.user_id, loaded.battle).viewer()
            stages = await stage_history(session, loaded)
        if not stages:
            raise Conflict(NOT_STARTED)
        frames = tuple(seen_frame(frame, viewer) for frame in replay_frames(stages))
        return Replay(loaded.battle.name, frames, viewer.gm, finished)

    async def report(self, place: Place) -> AfterAction:
        """The after-action report of the channel's newest battle, once it has ended."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place, _ANY)
            if loaded.battle.status is not BattleStatus.FINISHED:
                raise Conflict(NOT_ENDED)
            stages = await stage_history(session, loaded)
            record = await record_bytes(session, loaded, reveal=True)
        return after_action(loaded, kept_stages(stages), record)


async def stage_history(session: AsyncSession, loaded: Loaded) -> list[Stage]:
    """Every resolved stage of the battle in order, each with the state it left."""
    rows = list(
        await session.scalars(
            select(StageLog).where(StageLog.battle_id == loaded.battle.id).order_by(StageLog.number)
        )
    )
    starts = [BattleState.from_dict(row.start_state) for row in rows]
    stages = []
    for index, row in enumerate(rows):
        if row.events is None:
            continue  # the open stage, or one the GM ended the battle in
        after = starts[index + 1] if index + 1 < len(rows) else loaded.state
        events = tuple(event_from_dict(e) for e in row.events)
        stage = Stage(row.number, row.turn, row.title, starts[index], after, events, row.trigger)
        stages.append(stage)
    return stages


def kept_stages(stages: Sequence[Stage]) -> list[Stage]:
    """The stages that stand: an undo and the step it took back are left out."""
    void = {i for i, stage in enumerate(stages) if stage.trigger == UNDONE}
    void |= {i - 1 for i in void}
    return [stage for i, stage in enumerate(stages) if i not in void]


def replay_frames(stages: Sequence[Stage]) -> tuple[Frame, ...]:
    """The table before the first resolved stage, then the table after each one."""
    first = Frame(stages[0].before)  # titled by the state: the step it waits at
    gone = gone_each((s.before, s.after, s.events, s.title) for s in stages)
    return (
        first,
        *(Frame(s.after, s.events, s.lost, s.title, g) for s, g in zip(stages, gone, strict=True)),
    )


def gone_so_far(stages: Sequence[Stage]) -> tuple[Gone, ...]:
    """Every unit lost over the stages, with when and why."""
    found = gone_each((s.before, s.after, s.events, s.title) for s in stages)
    return found[-1] if found else ()


def seen_frame(frame: Frame, viewer: Viewer) -> Frame:
    """A frame as a viewer may see it: hidden state and private events taken out."""
    events = secrets.visible_events(frame.events, viewer)
    return Frame(secrets.view(frame.state, viewer), events, frame.lost, frame.title, frame.gone)


def whole_events(events: Iterable[Event]) -> tuple[Event, ...]:
    """Every event with private ones opened (the battle has ended: nothing is secret)."""
    return secrets.visible_events(events, Viewer.game_master())


@dataclass
class Section:
    """The events of one step of play as the engine began it (``StepBegan``), across stages:
    a step stopped at a question goes on in the next stage."""

    turn: int
    title: str
    events: list[Event] = field(default_factory=list)


def sections(stages: Sequence[Stage], r: Renderer) -> list[Section]:
    """Every step of play in order, each with its events (private ones opened)."""
    found: list[Section] = []
    for stage in stages:
        for event in whole_events(stage.events):
            if isinstance(event, StepBegan):
                found.append(Section(event.turn, step_heading(event, r)))
                continue
            if not found:
                found.append(Section(stage.turn, stage.title))
            found[-1].events.append(event)
    return found


def step_heading(event: StepBegan, r: Renderer) -> str:
    """``Turn 2 · Melee (Red)``, ``Set-up · Deployment``: a step's title, as stages are titled."""
    turn = "Set-up" if event.turn == 0 else f"Turn {event.turn}"
    who = event.subject or event.side
    return f"{turn} · {event.title}" + (f" ({r.name(who)})" if who else "")


def after_action(loaded: Loaded, stages: Sequence[Stage], record: bytes) -> AfterAction:
    """The report's parts from the battle's resolved stages."""
    first_state = stages[0].before if stages else loaded.state
    r = Renderer.for_state(loaded.state, first_state, *(s.before for s in stages))
    steps = sections(stages, r)
    turns: dict[int, list[StepStory]] = {}
    swings: list[Swing] = []
    for step in steps:
        lines = tuple(r.lines(step.events))
        turns.setdefault(step.turn, [])
        if lines:
            turns[step.turn].append(StepStory(step.title, lines))
        swings += [Swing(step.title, r.line(e), luck(e.roll)) for e in rolls_of(step.events)]
    swings.sort(key=lambda s: -abs(s.luck))
    played = turns_played(steps, stages, first_state)
    result = (loaded.battle.result or {}).get("text") or "Ended"
    last = stages[-1] if stages else None
    return AfterAction(
        loaded.battle.name,
        loaded.campaign.name,
        registry.get(loaded.battle.ruleset_id).name,
        str(result),
        story(played, r),
        turning_point(played, r),
        tuple(TurnStory(t, tuple(s)) for t, s in sorted(turns.items())),
        tuple(swings[:SWINGS]),
        side_losses(first_state, loaded.state, r),
        Frame(first_state),
        Frame(loaded.state, whole_events(last.events), last.lost, last.title, gone_so_far(stages))
        if last
        else Frame(loaded.state),
        record,
    )


def turns_played(
    steps: Sequence[Section], stages: Sequence[Stage], first: BattleState
) -> list[TurnPlayed]:
    """Each turn's events (from the steps the engine began) and the battle as the turn began
    and ended (from the stages resolved in it; a turn without one of its own keeps the last)."""
    events: dict[int, list[Event]] = {}
    for step in steps:
        events.setdefault(step.turn, []).extend(step.events)
    played, state = [], first
    for turn in sorted(events):
        own = [stage for stage in stages if stage.turn == turn]
        start = own[0].before if own else state
        state = own[-1].after if own else state
        played.append(TurnPlayed(turn, tuple(events[turn]), start, state))
    return played


def side_losses(first: BattleState, last: BattleState, r: Renderer) -> tuple[ArmyLosses, ...]:
    """Each side's units on the table at the start and not at the end."""
    kept = {unit.id for unit in last.units}
    return tuple(
        ArmyLosses(
            r.name(side.id),
            tuple(u.name for u in first.units if u.side == side.id and u.id not in kept),
            sum(1 for u in first.units if u.side == side.id),
        )
        for side in first.sides
    )
