"""What the last step did, drawn over the table: moves as arrows, shots as lines, contacts.

Events are dispatched on their type and unknown ones are ignored: an event is drawn as a shot
if it is a ``ShotMark`` and as a combat if it is a ``CombatMark`` (rules_core.events), so a
ruleset's own events are drawn without naming them here; units in contact with an enemy are
marked from the state itself.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from shapely import Polygon

from bot.rendering.sketch import Sketch
from bot.rendering.style import CONTACT, INK, INK_SOFT, REACH, SHOT, WHITE, SideStyle
from bot.rendering.view import View
from rules_core import registry
from rules_core.events import (
    CombatMark,
    Event,
    LeaderMoved,
    ShotMark,
    TerrainAdded,
    TerrainMoved,
    TerrainRemoved,
    UnitMoved,
)
from rules_core.geometry import EPSILON, Footprint, in_contact
from rules_core.state import LINEAR_KINDS, BattleState, Unit

PixelPoint = tuple[float, float]
Point = tuple[float, float]


@dataclass(frozen=True)
class Marks:
    """The marks the last step's events call for, in table coordinates."""

    moves: list[tuple[str, tuple[Point, ...]]] = field(default_factory=list)
    shots: list[tuple[str, str]] = field(default_factory=list)
    combats: list[tuple[str, str]] = field(default_factory=list)
    # Terrain the step changed: outlines placed or moved to (``laid``), and outlines removed
    # or moved from (``lifted``), each with whether it is a line (river, road).
    laid: list[tuple[tuple[Point, ...], bool]] = field(default_factory=list)
    lifted: list[tuple[tuple[Point, ...], bool]] = field(default_factory=list)


def read_events(events: Iterable[Event]) -> Marks:
    """Sort the events into moves, shots and combats; other events leave no mark."""
    marks = Marks()
    for event in events:
        if isinstance(event, UnitMoved) and len(event.path) >= 2:
            marks.moves.append((event.unit, tuple(event.path)))
        elif isinstance(event, LeaderMoved) and len(event.path) >= 2:
            marks.moves.append((event.leader, tuple(event.path)))  # drawn like a unit's move
        elif isinstance(event, ShotMark):
            marks.shots.append((event.shooter, event.target))
        elif isinstance(event, CombatMark):
            marks.combats.append((event.attacker, event.defender))
        elif isinstance(event, TerrainAdded):
            marks.laid.append((tuple(event.feature.points), event.feature.linear))
        elif isinstance(event, TerrainMoved):
            linear = event.terrain_kind in LINEAR_KINDS
            marks.lifted.append((tuple(event.before), linear))
            marks.laid.append((tuple(event.points), linear))
        elif isinstance(event, TerrainRemoved) and event.points:
            marks.lifted.append((tuple(event.points), event.terrain_kind in LINEAR_KINDS))
    return marks


def draw_terrain_changes(draw: Sketch, view: View, marks: Marks) -> None:
    """Terrain the step changed: where a piece was, dashed; where one now is, outlined."""
    for points, linear in marks.lifted:
        ring = view.pxs(points if linear else (*points, points[0]))
        draw.dashed(ring, INK_SOFT, 2, 6.0, 5.0)
    for points, linear in marks.laid:
        ring = view.pxs(points if linear else (*points, points[0]))
        draw.line(ring, fill=INK, width=3, joint="curve")


def arrow_path(path: Sequence[Point], end: Unit | None) -> list[Point]:
    """The path cut where it enters the unit's final footprint, so the arrow meets its edge."""
    points = list(path)
    if end is None:
        return points
    foot = Footprint.of(end)
    share = _entry(foot, points[-2], points[-1])
    return points if share is None else [*points[:-1], _mix(points[-2], points[-1], share)]


def _entry(foot: Footprint, start: Point, end: Point) -> float | None:
    """How far along start→end the segment enters the footprint (None: from inside, or never).

    Clips the segment against the footprint's two pairs of sides in its own frame.
    """
    enter, leave = 0.0, 1.0
    sides = zip(
        foot.local(start), foot.local(end), (foot.frontage / 2, foot.depth / 2), strict=True
    )
    for a, b, half in sides:
        if a == b:
            if abs(a) > half:
                return None
            continue
        low, high = sorted(((-half - a) / (b - a), (half - a) / (b - a)))
        enter, leave = max(enter, low), min(leave, high)
    return enter if 0.0 < enter <= leave else None


def _mix(a: Point, b: Point, share: float) -> Point:
    return (a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share)


def draw_move(
    draw: Sketch, view: View, path: Sequence[Point], end: Unit | None, style: SideStyle
) -> None:
    """A move: a dot where it began and an arrow along its path to the unit's new place."""
    points = view.pxs(arrow_path(path, end))
    if math.dist(points[0], points[-1]) < 2:
        return
    sx, sy = points[0]
    draw.line(points, fill=WHITE, width=8, joint="curve")
    draw.ellipse((sx - 5, sy - 5, sx + 5, sy + 5), fill=style.edge, outline=WHITE)
    draw.line(points, fill=style.edge, width=4, joint="curve")
    draw.polygon(_arrowhead(points[-2], points[-1], 15.0), fill=style.edge, outline=WHITE)


def _arrowhead(tail: PixelPoint, tip: PixelPoint, size: float) -> list[PixelPoint]:
    dx, dy = tip[0] - tail[0], tip[1] - tail[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    back = (tip[0] - ux * size, tip[1] - uy * size)
    return [
        tip,
        (back[0] - uy * size * 0.5, back[1] + ux * size * 0.5),
        (back[0] + uy * size * 0.5, back[1] - ux * size * 0.5),
    ]


def draw_shot(draw: Sketch, view: View, shooter: Unit, target: Unit) -> None:
    """A shot: a dashed line from the shooter's front to the target, with a burst on it."""
    start = view.px(Footprint.of(shooter).front_centre)
    end = view.px((target.x, target.y))
    draw.line((start, end), fill=WHITE, width=5)
    draw.dashed((start, end), SHOT, 3, 9.0, 6.0)
    x, y = end
    draw.ellipse((x - 7, y - 7, x + 7, y + 7), outline=WHITE, width=4)
    draw.ellipse((x - 6, y - 6, x + 6, y + 6), outline=SHOT, width=2)


def contacts(units: Sequence[Unit]) -> list[tuple[Unit, Unit]]:
    """Pairs of enemy units whose footprints touch, in roster order."""
    if len(units) < 2:
        return []
    # Only pairs whose circumscribed circles meet can touch; numpy finds them at once.
    xy = np.array([(unit.x, unit.y) for unit in units])
    radius = np.array([math.hypot(unit.frontage, unit.depth) / 2 for unit in units])
    gaps = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))
    near = np.argwhere(np.triu(gaps <= radius[:, None] + radius[None, :] + EPSILON, 1))
    pairs = []
    for i, j in near.tolist():
        a, b = units[i], units[j]
        if a.side != b.side and in_contact(Footprint.of(a), Footprint.of(b)):
            pairs.append((a, b))
    return pairs


def contact_point(a: Unit, b: Unit) -> Point:
    """The middle of the ground two units share (or between them, if they do not touch)."""
    meeting = (
        Footprint.of(a).polygon.buffer(0.05).intersection(Footprint.of(b).polygon.buffer(0.05))
    )
    if meeting.is_empty:
        return ((a.x + b.x) / 2, (a.y + b.y) / 2)
    centre = meeting.centroid
    return (centre.x, centre.y)


def draw_contact(draw: Sketch, view: View, where: Point) -> None:
    """A combat: a red disc with crossed white strokes where the units meet."""
    x, y = view.px(where)
    draw.ellipse((x - 10, y - 10, x + 10, y + 10), fill=CONTACT, outline=WHITE, width=2)
    for sign in (1, -1):
        draw.line(((x - 5, y - 5 * sign), (x + 5, y + 5 * sign)), fill=WHITE, width=3)


@dataclass(frozen=True)
class Reach:
    """An outline of how far one unit can move or shoot, in the ruleset's measure.

    ``kind`` is ``move`` (the ground any part of its footprint can reach moving straight,
    ignoring terrain and turning) or ``range`` (within ``distance`` of its front edge, ahead
    of it). ``distance`` None reads the unit's
    ``move`` or ``range`` field.
    """

    unit: str
    kind: str = "move"
    distance: float | None = None

    def length(self, unit: Unit) -> float:
        """The distance to outline."""
        if self.distance is not None:
            return self.distance
        value = unit.get(self.kind, 0)
        return float(value) if isinstance(value, int | float) else 0.0


def measured(state: BattleState, reach: Reach) -> Reach:
    """The reach with the distance the unit's ruleset gives it (its ``reach`` hook)."""
    if reach.distance is not None:
        return reach
    try:
        rules = registry.get(state.ruleset).rules
    except KeyError:
        rules = None
    unit = state.unit(reach.unit)
    length = rules.reach(state, unit, reach.kind) if rules is not None else reach.length(unit)
    return replace(reach, distance=length)


def reach_shape(reach: Reach, unit: Unit) -> Polygon:
    """The outlined ground, as a shapely polygon in table coordinates."""
    foot, length = Footprint.of(unit), reach.length(unit)
    if reach.kind != "range":
        return foot.polygon.buffer(length, quad_segs=16)
    front = foot.edge("front").buffer(length, quad_segs=16)
    w, d = foot.frontage / 2 + length, foot.depth / 2
    ahead = Polygon(
        [foot.at(d, -w), foot.at(d + length, -w), foot.at(d + length, w), foot.at(d, w)]
    )
    shape = front.intersection(ahead)  # both are convex, so this is one polygon
    assert isinstance(shape, Polygon)
    return shape


def draw_reach(draw: Sketch, view: View, reach: Reach, unit: Unit) -> PixelPoint:
    """The outline, dashed in purple over a white halo; returns its topmost pixel for a label."""
    ring = view.pxs(reach_shape(reach, unit).exterior.coords)
    draw.line(ring, fill=WHITE, width=6, joint="curve")
    draw.dashed(ring, REACH, 3, 12.0, 6.0)
    return min(ring, key=lambda p: (p[1], p[0]))


def reach_text(reach: Reach, unit: Unit, measure: str) -> str:
    """The words beside the outline: ``Red Archers: range 12"``."""
    return f"{unit.name}: {reach.kind} {reach.length(unit):g}{measure}"
