"""The map draws a shot or a combat because the event says it is one, whatever its type."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest

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


@pytest.mark.parametrize(
    "ruleset", ["tree_of_battles", "hail_caesar", "heroic_age", "pike_and_shot"]
)
def test_reach_is_measured_by_the_ruleset_and_drawn(ruleset: str) -> None:
    from PIL import Image

    from bot.rendering import MapOptions, Reach, render_map
    from bot.rendering.overlays import measured
    from bot.rendering.style import REACH
    from rules_core import registry

    rules = registry.get(ruleset).rules
    assert rules is not None
    state = rules.sample_battle()
    unit = state.units[0]
    moved = measured(state, Reach(unit.id, "move"))
    assert moved.distance is not None and moved.distance > 0
    shooter = next(u for u in state.units if measured(state, Reach(u.id, "range")).distance)
    reach = measured(state, Reach(shooter.id, "range"))
    png = render_map(state, options=MapOptions(width=800, reach=reach))
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert REACH in {colour for _, colour in image.getcolors(1 << 16) or []}
