"""Distances and places the rules measure: fronts, flanks, terrain, moves swept along a heading."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache

from shapely import Polygon, contains_xy

from rules_core import paths
from rules_core.codec import Json
from rules_core.geometry import (
    EPSILON,
    TOUCH,
    Box,
    Footprint,
    Point,
    around,
    edge_distance,
    near,
    within_to_front,
    zone,
)
from rules_core.rulesets.heroic_age import tables
from rules_core.rulesets.heroic_age import units as u
from rules_core.state import BattleState, TerrainFeature, Unit
from rules_core.terrain import trace_footprint

EPS = EPSILON  # the shared distance tolerance: "exactly at distance" counts within


def kinds(params: Mapping[str, Json], name: str) -> tuple[str, ...]:
    """A parameter that lists terrain kinds."""
    value = params.get(name)
    return tuple(str(v) for v in value) if isinstance(value, list | tuple) else ()


def heading_vector(heading: float) -> tuple[float, float]:
    """The unit vector of a compass heading (0 is +y, 90 is +x)."""
    rad = math.radians(heading)
    return math.sin(rad), math.cos(rad)


def angle_between(a: float, b: float) -> float:
    """The smaller angle between two compass headings."""
    diff = abs((a - b) % 360)
    return min(diff, 360 - diff)


def enemy_to_front(state: BattleState, unit: Unit, reach: float) -> Unit | None:
    """The nearest enemy within ``reach`` in the strip before the unit's front."""
    here = Footprint.of(unit)
    found = [
        e for e in state.enemies_of(unit.side) if within_to_front(here, Footprint.of(e), reach)
    ]
    return min(found, key=lambda e: edge_distance(here, Footprint.of(e)), default=None)


def in_terrain(state: BattleState, unit: Unit, terrain: tuple[str, ...]) -> bool:
    """Whether the unit's centre stands in an area of these kinds."""
    for feature in state.terrain:
        if feature.kind not in terrain or len(feature.points) < 3:
            continue
        shape, (x0, y0, x1, y1) = _area(feature)
        # a point outside the area's box is outside the area: its box is the cheaper test
        if x0 <= unit.x <= x1 and y0 <= unit.y <= y1 and contains_xy(shape, unit.x, unit.y):
            return True
    return False


def _area(feature: TerrainFeature) -> tuple[Polygon, Box]:
    """A feature's outline as an area (a linear feature's points closed as a polygon) and its
    box, kept per outline: terrain stays put."""
    try:
        return _outline(tuple(feature.points))
    except TypeError:  # points given as lists: nothing to key a cache on
        shape = Polygon(feature.points)
        return shape, shape.bounds


@lru_cache(maxsize=4_096)
def _outline(points: tuple[Point, ...]) -> tuple[Polygon, Box]:
    """One area and box per outline (``_area``)."""
    shape = Polygon(points)
    return shape, shape.bounds


def crosses_difficult(
    state: BattleState, poses: Sequence[Footprint], terrain: tuple[str, ...]
) -> bool:
    """Whether a base moved through ``poses`` goes into or across difficult terrain."""
    if all((p.x, p.y) == (poses[0].x, poses[0].y) for p in poses):
        return False
    box = around(poses)
    if not any(f.kind in terrain and _box_near(f, box) for f in state.terrain):
        return False  # nothing of these kinds near the ground swept: nothing to trace
    report = trace_footprint(poses, state.terrain)
    return report.length_in(terrain) > EPS or report.crossed(terrain) > 0


def _box_near(feature: TerrainFeature, box: Box) -> bool:
    """Whether a feature's points' box comes within ``TOUCH`` of ``box`` (a box test only
    narrows: a base never further away can be in or across it)."""
    xs = [p[0] for p in feature.points]
    ys = [p[1] for p in feature.points]
    slack = 10 * TOUCH
    return not (
        min(xs) - box[2] > slack
        or box[0] - max(xs) > slack
        or min(ys) - box[3] > slack
        or box[1] - max(ys) > slack
    )


def move_along(
    state: BattleState,
    unit: Unit,
    heading: float,
    length: float,
    *,
    facing: float | None = None,
    keep_off: bool = True,
    friends_pass: bool = True,
) -> tuple[paths.Sweep, float]:
    """Sweep a move and, with ``keep_off``, stop it where an enemy first comes exactly 2" to
    its front.

    Returns the sweep and the distance the unit may go. Drawing a move back from the enemy
    never leaves it standing on a friend it passed through: it goes back further.
    """
    swept = paths.sweep(state, unit, heading, length, facing=facing, friends_pass=friends_pass)
    reached = swept.reached
    if keep_off and reached > EPS:
        stop = tables.ENEMY_STOP
        # Only enemies whose boxes come within the stop distance of the path's box can be.
        path = around([swept.start, swept.pose(reached)])
        strip = zone(swept.start, "front", stop).exterior.coords[:-1]
        # (asked of the state's units, whose boxes ``near`` keeps, not a new tuple of enemies)
        enemies = [
            paths.meeting_span(strip, heading, reached, Footprint.of(e).corners())
            for e in near(state.units, path, stop)
            if e.side != unit.side
        ]
        # Only friends whose boxes meet the path's box can be stood on (TOUCH: slack beyond
        # float noise, as ``overlapping`` allows).
        mine = swept.start.corners()
        friends = [
            paths.meeting_span(mine, heading, reached, Footprint.of(f).corners(), slack=TOUCH)
            for f in near(state.units_on_table, path, TOUCH)
            if f.side == unit.side and f.id != unit.id
        ]
        reached = kept_off(
            reached, [s for s in enemies if s is not None], [s for s in friends if s is not None]
        )
    return swept, reached


Span = tuple[float, float]


def kept_off(reached: float, enemies: list[Span], friends: list[Span]) -> float:
    """How far a move of ``reached`` may go given the stretches of it along which each enemy is
    within the stop distance to its front and each friend is overlapped.

    It stops where the first enemy met on the way comes exactly to the stop distance (computed,
    so a unit stopped there may charge). An enemy within it already at the start (at exactly
    the distance counts, within ``EPS``) keeps the unit where it is unless the move ends
    clear of it. A move ending on a friend goes back to where it first touched it.
    """
    stop = min([reached, *(enter for enter, _ in enemies if enter > EPS)])
    moved = True
    while moved:
        moved = False
        for enter, leave in friends:
            if enter < stop - EPS and stop < leave - EPS:
                stop, moved = max(0.0, enter), True
        for enter, leave in enemies:
            if enter <= EPS and EPS < stop < leave - EPS:
                stop, moved = 0.0, True
    return stop


def away_heading(state: BattleState, unit: Unit) -> float:
    """The heading directly away from the nearest enemy (or to the rear if none)."""
    enemy = u.nearest_enemy(state, unit)
    if enemy is None:
        return (unit.facing + 180) % 360
    dx, dy = unit.x - enemy.x, unit.y - enemy.y
    if abs(dx) < EPS and abs(dy) < EPS:
        return (unit.facing + 180) % 360
    return math.degrees(math.atan2(dx, dy)) % 360
