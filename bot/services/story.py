"""The after-action report's story: per turn, what changed the battle, each in one sentence.

What changes a battle: a unit destroyed, routed or broken; a leader hit; an army's or wing's
state changing (its morale or break point passing a threshold the ruleset keeps in its
state, or the ruleset's own ``army_broken`` turning true); the roll of the turn furthest from
its odds among those that did something (a shot that hit nothing is not a swing worth
telling); the battle's end. The turning point is the turn whose events moved the balance of
strength most: each side's share of the strength still in the battle (a unit counts 1, half
if routed or broken), compared at the turn's start and end.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules_core import registry
from rules_core.codec import Json
from rules_core.dice import Roll, faces_of
from rules_core.events import (
    BattleEnded,
    CombatMark,
    DiceRolled,
    Event,
    LeaderHit,
    ShotMark,
    StatusChanged,
    UnitDestroyed,
)
from rules_core.render import Renderer
from rules_core.shared_status import BROKEN, ROUTED, SHATTERED
from rules_core.state import BattleState

SWING_AT = 1.0  # standard deviations from the average: a roll nearer is no swing to tell
# A unit in one of these states (a flag set, or a level such as cohesion at that value) has
# fallen out of the fight without leaving the table: it is told, and counts half its strength.
FALLEN = frozenset({ROUTED.key, BROKEN.key, SHATTERED.key})
NOTHING = "Nothing changed the battle: no unit was lost, routed or broken."


@dataclass(frozen=True)
class TurnChanges:
    """One turn (0 is set-up) of the story: what changed the battle, one sentence each."""

    turn: int
    sentences: tuple[str, ...]
    turning: bool = False  # the turning point of the battle


@dataclass(frozen=True)
class TurningPoint:
    """The turn that moved the balance most: the side whose share of strength fell, and how."""

    turn: int
    side: str
    shares: tuple[float, float]  # the side's share of strength as the turn began and ended

    @property
    def fall(self) -> float:
        """How much of the share the side lost in the turn."""
        return self.shares[0] - self.shares[1]

    @property
    def sentence(self) -> str:
        """The turning point in one sentence, with the side and its share before and after."""
        before, after = self.shares
        return (
            f"Turn {self.turn} was the turning point: {self.side}'s share of the strength still "
            f"in the battle fell from {before:.0%} to {after:.0%}."
        )


@dataclass(frozen=True)
class TurnPlayed:
    """A turn's events in order, and the battle as the turn began and as it ended."""

    turn: int
    events: tuple[Event, ...]
    start: BattleState
    end: BattleState


def story(turns: Sequence[TurnPlayed], r: Renderer) -> tuple[TurnChanges, ...]:
    """Each turn's changes to the battle, in order (a quiet turn says nothing changed), the
    turning point marked."""
    point = turning_point(turns, r)
    return tuple(
        TurnChanges(t.turn, changes(t, r) or (NOTHING,), point is not None and point.turn == t.turn)
        for t in turns
    )


def changes(turn: TurnPlayed, r: Renderer) -> tuple[str, ...]:
    """The sentences of one turn: losses, falls, leaders, armies, its swing, the end."""
    units = {u.id for u in turn.start.units} | {u.id for u in turn.end.units}
    wholes = {s.id for s in turn.end.sides} | {g.id for g in turn.end.groups}
    said: list[str] = []
    for event in turn.events:
        if not isinstance(event, BattleEnded):
            said += _sentence(event, r, units, wholes)
    said += _breaks(turn, r)
    swing = _swing(turn.events, r, units)
    said += [swing] if swing else []
    said += [_full(r.line(e)) for e in turn.events if isinstance(e, BattleEnded)]
    return tuple(said)


def _sentence(event: Event, r: Renderer, units: set[str], wholes: set[str]) -> list[str]:
    """The sentence an event adds to the story, if it changed the battle."""
    if isinstance(event, UnitDestroyed | LeaderHit):
        return [_full(r.line(event))]
    if not isinstance(event, StatusChanged) or not r.line(event):
        return []
    if event.subject in units:
        fell = _fallen_word(event.field, event.new)
        if fell and not _fallen_word(event.field, event.old):
            why = f": {event.reason}" if event.reason else ""
            return [f"{r.name(event.subject)} is {fell}{why}."]
        return []
    return [_full(r.line(event))] if event.subject in wholes else []  # an army's or a wing's


def _breaks(turn: TurnPlayed, r: Renderer) -> list[str]:
    """An army the ruleset counts broken at the turn's end and not at its start."""
    rules = registry.get(turn.end.ruleset).rules
    if rules is None:
        return []
    return [
        f"{r.name(side.id)}'s army has passed its break point."
        for side in turn.end.sides
        if rules.army_broken(turn.end, side.id) and not rules.army_broken(turn.start, side.id)
    ]


def _swing(events: Sequence[Event], r: Renderer, units: set[str]) -> str:
    """The roll furthest from its odds among the fights of the turn that changed something."""
    rolls = [e for fight in fights(events) if _telling(fight, r, units) for e in rolls_of(fight)]
    if not rolls:
        return ""
    roll = max(rolls, key=lambda e: abs(luck(e.roll)))
    away = luck(roll.roll)
    if abs(away) < SWING_AT:
        return ""
    side = "above" if away > 0 else "below"
    return (
        f"Against the odds: {r.line(roll).rstrip('.')}, {abs(away):.1f} standard deviations "
        f"{side} its average."
    )


def _telling(fight: Sequence[Event], r: Renderer, units: set[str]) -> bool:
    """Whether a fight did something a player sees: destroyed a unit or changed one's state."""
    return any(
        isinstance(e, UnitDestroyed)
        or (isinstance(e, StatusChanged) and e.subject in units and bool(r.line(e)))
        for e in fight
    )


def _fallen_word(key: str, value: Json) -> str:
    """``routed``, ``broken`` or ``shattered`` when a status value says so; "" otherwise."""
    if key in FALLEN and value is True:
        return key
    if isinstance(value, str) and value.lower() in FALLEN:
        return value.lower()
    return ""


def _full(line: str) -> str:
    """A log line as a sentence: ending with one full stop."""
    return line.rstrip(".") + "."


def turning_point(turns: Sequence[TurnPlayed], r: Renderer) -> TurningPoint | None:
    """The turn (after set-up) in which some side's share of strength fell most; None if no
    turn moved the balance."""
    best: TurningPoint | None = None
    for turn in turns:
        if turn.turn == 0:
            continue
        before, after = shares(turn.start), shares(turn.end)
        for side, share in before.items():
            found = TurningPoint(turn.turn, r.name(side), (share, after.get(side, 0.0)))
            if found.fall > 1e-9 and (best is None or found.fall > best.fall + 1e-9):
                best = found
    return best


def shares(state: BattleState) -> dict[str, float]:
    """Each side's share of the strength still in the battle (routed or broken units half)."""
    strength = {side.id: 0.0 for side in state.sides}
    for unit in state.units:
        fallen = any(_fallen_word(key, value) for key, value in unit.status.items())
        strength[unit.side] = strength.get(unit.side, 0.0) + (0.5 if fallen else 1.0)
    total = sum(strength.values())
    return {side: (value / total if total else 0.0) for side, value in strength.items()}


def rolls_of(events: Iterable[Event]) -> list[DiceRolled]:
    """The dice rolls among the events."""
    return [e for e in events if isinstance(e, DiceRolled)]


def fights(events: Sequence[Event]) -> list[list[Event]]:
    """A step's events cut into fights: each combat or shot with the events after it, up to
    the next (what a step did before its first fight is in none)."""
    found: list[list[Event]] = []
    for event in events:
        if isinstance(event, (CombatMark, ShotMark)):
            found.append([event])
        elif found:
            found[-1].append(event)
    return found


def luck(roll: Roll) -> float:
    """How far a roll's kept dice fell from their average, in standard deviations (+: high).

    A pool counts successes against the chance of each die succeeding; any other roll sums
    its kept faces against the sum's mean and spread (each die uniform over its faces)."""
    kept = [die for die in roll.dice if die.kept]
    if not kept:
        return 0.0
    if roll.mode == "pool" and roll.target is not None:
        chances = [_success_chance(die.kind, roll.target) for die in kept]
        mean = sum(chances)
        spread = sum(p * (1 - p) for p in chances)
        observed = float(roll.successes or 0)
    else:
        faces = [faces_of(die.kind) for die in kept]
        mean = sum(statistics.fmean(f) for f in faces)
        spread = sum(statistics.pvariance(f) for f in faces)
        observed = float(sum(die.face for die in kept))
    return 0.0 if spread <= 0 else (observed - mean) / spread**0.5


def _success_chance(kind: str, target: int) -> float:
    faces = faces_of(kind)
    return sum(1 for face in faces if face >= target) / len(faces)
