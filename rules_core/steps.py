"""The sequence of play as data: steps, who acts in each, what follows, and the cursor.

A ruleset declares its steps as three chains linked by ``next``: ``setup`` (once, before turn
1), ``turn_start`` (once at the start of every turn) and the main chain from ``first``. With
``player_turns`` the main chain runs once for each side in the turn's side order (alternate
player turns); otherwise it runs once per turn with both sides in each step. A step with
``repeat_for`` runs once for each subject the ruleset lists (one activation per command, one
fatigue test per wing), each subject's side acting in its iteration.

A step with ``repeat_for`` and ``until`` heads a **loop over a chain**: the steps from it to
``until`` (following ``next``) run in turn for each subject (activate → move → shoot), then the
sequence goes on after ``until``. Such a loop counts its iterations, so each repetition has its
own random stream even when a subject comes round again, and a resolver may change the subjects
still to come (``Context.insert_subject``, ``skip_subject``, ``set_subjects``) or end the
current subject's iteration early (``Context.end_iteration``). ``until`` may name the head
itself: a counted loop of one step. Any step may open again for more orders from the same
actors (``Context.again``: several moves in one activation, each seen before the next is chosen).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property

from rules_core.codec import OMIT_DEFAULT, Serialisable

SETUP, TURN_START, MAIN = "setup", "turn_start", "main"


class Actors(StrEnum):
    """Who gives orders in a step."""

    BOTH = "both"  # every side at once; resolved together
    ACTIVE = "active"  # the side whose player turn, activation or loop iteration it is
    GM = "gm"  # the game master (terrain placement, rulings)
    NOBODY = "nobody"  # the resolver runs on its own


# A step's resolver: a function called with the step's ``Context`` (typed loosely: the steps
# sit below the context, which reads them).
Resolver = Callable[..., None]


@dataclass(frozen=True)
class Step(Serialisable):
    """One step of the sequence of play: actors, legal order kinds, resolver and what follows."""

    id: str
    title: str
    actors: Actors = Actors.NOBODY
    # The function that resolves it, or the name of the rules' method (``resolve_<name>``)
    # when it needs the rules themselves; empty: nothing to resolve.
    resolver: str | Resolver = ""
    next: str | None = None
    order_kinds: tuple[str, ...] = ()
    repeat_for: str | None = None
    deadline_hours: float | None = None  # its own deadline length; None: the campaign's
    # With repeat_for: the last step of the chain run for each subject (a counted loop).
    until: str | None = field(default=None, metadata={OMIT_DEFAULT: True})


@dataclass(frozen=True)
class Subject(Serialisable):
    """One iteration of a repeated step: what it is about (a command, a wing) and its side."""

    id: str
    side: str


@dataclass(frozen=True)
class SequenceOfPlay:
    """A ruleset's declared turn structure."""

    steps: tuple[Step, ...]
    first: str
    player_turns: bool = False
    turn_start: str | None = None
    setup: str | None = None

    def __post_init__(self) -> None:
        ids = [step.id for step in self.steps]
        if len(set(ids)) != len(ids):
            raise ValueError("step ids must be unique")
        targets = [self.first, self.turn_start, self.setup, *(s.next for s in self.steps)]
        for target in targets:
            if target is not None and target not in ids:
                raise ValueError(f"unknown step {target!r}")
        self._loop_heads  # noqa: B018 (checks every chain now, not at its first use)

    @cached_property
    def _loop_heads(self) -> dict[str, Step]:
        """For each step inside a loop over a chain, the step that heads the loop."""
        heads: dict[str, Step] = {}
        for head in self.steps:
            if head.until is None:
                continue
            if head.repeat_for is None:
                raise ValueError(f"step {head.id!r} has until but repeats for nothing")
            step = head
            while True:
                if step.id in heads:
                    raise ValueError(f"step {step.id!r} is in two loops")
                if step is not head and step.repeat_for is not None:
                    raise ValueError(f"step {step.id!r} repeats inside the loop of {head.id!r}")
                heads[step.id] = head
                if step.id == head.until:
                    break
                if step.next is None or step.next == head.id:
                    raise ValueError(f"the chain from {head.id!r} never reaches {head.until!r}")
                step = self.step(step.next)
        return heads

    def loop_head(self, step_id: str) -> Step | None:
        """The step heading the loop ``step_id`` runs in (itself for a step repeated alone),
        or None outside any loop."""
        found = self._loop_heads.get(step_id)
        if found is not None:
            return found
        step = self.step(step_id)
        return step if step.repeat_for is not None else None

    def counted(self, step_id: str) -> bool:
        """Whether the step runs inside a loop that counts its iterations (a chain)."""
        return step_id in self._loop_heads

    def step(self, step_id: str) -> Step:
        """The step with this id."""
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(f"no step {step_id!r}")


@dataclass(frozen=True)
class Cursor(Serialisable):
    """Where play stands: turn, chain, step, side order, active side and loop position."""

    turn: int
    segment: str
    step: str
    side_order: tuple[str, ...]
    player_turn: int = 0
    subjects: tuple[Subject, ...] = ()
    subject_index: int = 0
    attempt: int = 0
    # The iteration of a counted loop (0 first), however its subjects changed, and how many
    # times the step has opened again for the same actors; left out of JSON while 0.
    iteration: int = field(default=0, metadata={OMIT_DEFAULT: True})
    again: int = field(default=0, metadata={OMIT_DEFAULT: True})

    @property
    def subject(self) -> Subject | None:
        """The subject of the current iteration of a repeated step."""
        return self.subjects[self.subject_index] if self.subjects else None

    @property
    def player_side(self) -> str | None:
        """The side whose player turn it is, in a game of alternate player turns."""
        return self.side_order[self.player_turn] if self.segment == MAIN else None

    def label(self, sequence: SequenceOfPlay) -> str:
        """The step as named in random-stream keys: ``shoot@red``, ``activate#cmd2``."""
        text = self.step
        if sequence.player_turns and self.segment == MAIN:
            text += f"@{self.side_order[self.player_turn]}"
        if self.subject is not None:
            text += f"#{self.subject.id}"
            if sequence.counted(self.step):
                text += f".{self.iteration}"
        if self.again:
            text += f"+{self.again}"
        return text

    @property
    def upcoming(self) -> tuple[Subject, ...]:
        """The subjects still to come after the current one in a loop."""
        return self.subjects[self.subject_index + 1 :]

    def with_upcoming(self, subjects: tuple[Subject, ...]) -> Cursor:
        """The cursor with other subjects to come after the current one."""
        return replace(self, subjects=(*self.subjects[: self.subject_index + 1], *subjects))


SubjectsFor = Callable[[Step], tuple[Subject, ...]]


def active_side(sequence: SequenceOfPlay, cursor: Cursor) -> str | None:
    """The side that acts now: the loop subject's, else the player turn's, else None."""
    if cursor.subject is not None:
        return cursor.subject.side
    return cursor.player_side if sequence.player_turns else None


def start(sequence: SequenceOfPlay, side_order: tuple[str, ...], subjects: SubjectsFor) -> Cursor:
    """The cursor at the start of a battle: setup if declared, else turn 1."""
    if sequence.setup is not None:
        cursor = Cursor(0, SETUP, sequence.setup, side_order)
        return _enter(sequence, cursor, subjects)
    return _next_chain(sequence, Cursor(0, SETUP, "", side_order), subjects)


def advance(sequence: SequenceOfPlay, cursor: Cursor, subjects: SubjectsFor) -> Cursor:
    """The cursor after the current step (or loop iteration) is resolved."""
    head = sequence.loop_head(cursor.step) if cursor.subjects else None
    if head is None:
        last = cursor.step
    else:
        last = head.until or head.id
        if cursor.step != last:  # on along the chain, for the same subject
            step = sequence.step(cursor.step)
            assert step.next is not None
            return replace(cursor, step=step.next, attempt=0, again=0)
        if cursor.subject_index + 1 < len(cursor.subjects):
            iteration = cursor.iteration + 1 if head.until is not None else 0
            return replace(
                cursor,
                step=head.id,
                subject_index=cursor.subject_index + 1,
                attempt=0,
                iteration=iteration,
                again=0,
            )
    following = sequence.step(last).next
    if following is not None:
        return _enter(sequence, _at(cursor, following), subjects)
    return _next_chain(sequence, cursor, subjects)


def again(cursor: Cursor) -> Cursor:
    """The cursor with the same step open again for the same actors (another move)."""
    return replace(cursor, again=cursor.again + 1, attempt=0)


def end_iteration(sequence: SequenceOfPlay, cursor: Cursor, subjects: SubjectsFor) -> Cursor:
    """The cursor once the current subject's iteration ends early: the rest of its chain is
    skipped and the loop goes on with the next subject (or on after the loop)."""
    head = sequence.loop_head(cursor.step) if cursor.subjects else None
    if head is None:
        return advance(sequence, cursor, subjects)
    return advance(sequence, replace(cursor, step=head.until or head.id), subjects)


def _at(cursor: Cursor, step_id: str) -> Cursor:
    return replace(
        cursor, step=step_id, subjects=(), subject_index=0, attempt=0, iteration=0, again=0
    )


def _enter(sequence: SequenceOfPlay, cursor: Cursor, subjects: SubjectsFor) -> Cursor:
    """Enter a step, listing its subjects; a repeated step with none is skipped."""
    step = sequence.step(cursor.step)
    if step.repeat_for is None:
        return cursor
    listed = subjects(step)
    if listed:
        return replace(cursor, subjects=listed, subject_index=0)
    skipped = replace(cursor, step=step.until or step.id, subjects=(), subject_index=0)
    return advance(sequence, skipped, subjects)  # a chain with none is skipped whole


def _next_chain(sequence: SequenceOfPlay, cursor: Cursor, subjects: SubjectsFor) -> Cursor:
    """Where play goes when a chain of steps runs out."""
    if cursor.segment == TURN_START:
        return _enter(sequence, _chain(cursor, MAIN, sequence.first, cursor.turn, 0), subjects)
    more_players = sequence.player_turns and cursor.player_turn + 1 < len(cursor.side_order)
    if cursor.segment == MAIN and more_players:
        main = _chain(cursor, MAIN, sequence.first, cursor.turn, cursor.player_turn + 1)
        return _enter(sequence, main, subjects)
    turn = cursor.turn + 1
    if sequence.turn_start is not None:
        opening = _chain(cursor, TURN_START, sequence.turn_start, turn, 0)
        return _enter(sequence, opening, subjects)
    return _enter(sequence, _chain(cursor, MAIN, sequence.first, turn, 0), subjects)


def _chain(cursor: Cursor, segment: str, step_id: str, turn: int, player_turn: int) -> Cursor:
    return replace(_at(cursor, step_id), segment=segment, turn=turn, player_turn=player_turn)
