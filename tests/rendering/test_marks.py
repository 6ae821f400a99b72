"""The map draws a shot or a combat because the event says it is one, whatever its type."""

from __future__ import annotations

from dataclasses import dataclass

from bot.rendering.overlays import read_events
from rules_core.events import CombatMark, Event, MeleeFought, ShotFired, ShotMark, UnitMoved


@dataclass(frozen=True)
class Volley(Event, ShotMark):
    """A ruleset's own shot event: it mixes in ``ShotMark`` and is drawn."""

    shooter: str
    target: str
    arrows: int = 0


@dataclass(frozen=True)
class Charge(Event, CombatMark):
    """A ruleset's own combat event."""

    attacker: str
    defender: str


@dataclass(frozen=True)
class Glance(Event):
    """Names a shooter and a target but is no shot: the map leaves it alone."""

    shooter: str
    target: str


def test_marked_events_are_drawn_and_lookalikes_are_not() -> None:
    marks = read_events(
        [
            Volley("r2", "b2", 12),
            ShotFired("r1", "b1", 3.0),
            Glance("r3", "b3"),
            Charge("r3", "b3"),
            MeleeFought("r1", "b1"),
            UnitMoved("r1", ((0.0, 0.0), (1.0, 1.0)), 1.4, 0.0),
        ]
    )
    assert marks.shots == [("r2", "b2"), ("r1", "b1")]
    assert marks.combats == [("r3", "b3"), ("r1", "b1")]
    assert marks.moves == [("r1", ((0.0, 0.0), (1.0, 1.0)))]
