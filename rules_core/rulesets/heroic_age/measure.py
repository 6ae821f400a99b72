"""Distances and places the rules measure: fronts, flanks, terrain, moves swept along a heading."""

from __future__ import annotations

import math
from collections.abc import Mapping

from rules_core import paths
from rules_core.codec import Json
from rules_core.geometry import (
    TOUCH,
    Footprint,
    around,
    edge_distance,
    near,
    overlapping,
    within_to_front,
)
from rules_core.rulesets.heroic_age import tables
from rules_core.rulesets.heroic_age import units as u
from rules_core.state import BattleState, Unit
from rules_core.terrain import trace_path

EPS = 1e-6


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
    from shapely.geometry import Point, Polygon

    here = Point(unit.x, unit.y)
    for feature in state.terrain:
        area = feature.kind in terrain and len(feature.points) >= 3
        if area and Polygon(feature.points).contains(here):
            return True
    return False


def crosses_difficult(
    state: BattleState,
    start: tuple[float, float],
    end: tuple[float, float],
    terrain: tuple[str, ...],
) -> bool:
    """Whether a straight path runs through or across difficult terrain."""
    if start == end:
        return False
    report = trace_path((start, end), state.terrain)
    return report.length_in(terrain) > EPS or report.crossed(terrain) > 0


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
    """Sweep a move and, with ``keep_off``, stop it 2" from any enemy to its front.

    Returns the sweep and the distance the unit may go. Drawing a move back from the enemy
    never leaves it standing on a friend it passed through: it goes back further.
    """
    swept = paths.sweep(state, unit, heading, length, facing=facing, friends_pass=friends_pass)
    reached = swept.reached
    if keep_off:
        stop = tables.ENEMY_STOP
        # Only enemies whose boxes come within the stop distance of the path's box can be.
        path = around([swept.start, swept.pose(reached)])
        enemies = [Footprint.of(e) for e in near(state.enemies_of(unit.side), path, stop)]
        # Every pose drawn back lies on the path (a translation): only friends whose boxes
        # meet the path's box can overlap one of them (TOUCH: slack beyond float noise).
        friends = [
            Footprint.of(f)
            for f in near(state.units_on_table, path, TOUCH)
            if f.side == unit.side and f.id != unit.id
        ]
        step = 0.25
        while reached > 0:
            pose = swept.pose(reached)
            near_enemy = any(within_to_front(pose, e, stop - EPS) for e in enemies)
            if not near_enemy and not any(overlapping(pose, f) for f in friends):
                break
            reached = max(0.0, reached - step)
        if reached <= 0 and any(within_to_front(swept.start, e, stop - EPS) for e in enemies):
            reached = 0.0
    return swept, reached


def away_heading(state: BattleState, unit: Unit) -> float:
    """The heading directly away from the nearest enemy (or to the rear if none)."""
    enemy = u.nearest_enemy(state, unit)
    if enemy is None:
        return (unit.facing + 180) % 360
    dx, dy = unit.x - enemy.x, unit.y - enemy.y
    if abs(dx) < EPS and abs(dy) < EPS:
        return (unit.facing + 180) % 360
    return math.degrees(math.atan2(dx, dy)) % 360
