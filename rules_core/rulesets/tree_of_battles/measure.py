"""Measuring in SF: terrain along a path, enemy to the front, contact poses, free ground."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from shapely import Point as ShapelyPoint

from rules_core.geometry import (
    EPSILON,
    Footprint,
    Point,
    around,
    boxes_apart,
    facing_towards,
    near,
    quarter,
    within,
    within_to_front,
)
from rules_core.rulesets.tree_of_battles.sweep import passed_through
from rules_core.state import CROSSING_KINDS, BattleState, TerrainFeature, Unit
from rules_core.terrain import (
    PathReport,
    Sight,
    feature_shape,
    line_of_sight,
    poses_along,
    trace_footprint,
    trace_path,
)
from rules_core.toolkit import gap as gap  # re-exported: the ruleset measures through here

DIFFICULT = frozenset({"wood", "dense_wood", "rough", "marsh", "village"})
DENSE = frozenset({"dense_wood"})
COVER = frozenset({"wood", "dense_wood", "village", "fortification"})
SIGHT_BLOCKERS = frozenset({"hill", "wood", "dense_wood", "village", "fortification"})
ON_ROAD_SLACK = 0.01
CORRIDOR_SLACK = 0.01  # beyond float noise in the corners: a box test only narrows
GAP_SLACK = 1e-9  # float noise between two boxes' distance and shapely's of the bases in them


def nearest(units: Iterable[Unit], unit: Unit) -> Unit | None:
    """The nearest of some units to this one, edge to edge; ties go to the first (as
    ``toolkit.nearest``). Bases are never nearer than their boxes: measured nearest box first,
    the search stops at the first box farther than the nearest base found."""
    found = list(units)
    if not found:
        return None
    here = Footprint.of(unit).bounds
    floors = [_box_gap(here, Footprint.of(other).bounds) for other in found]
    best, best_gap = len(found), math.inf
    for i in sorted(range(len(found)), key=floors.__getitem__):
        if floors[i] > best_gap + GAP_SLACK:
            break  # every one left is farther than the nearest found
        measured = gap(unit, found[i])
        if measured < best_gap or (measured == best_gap and i < best):
            best, best_gap = i, measured
    return found[best]


def _box_gap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """The distance between two upright boxes (0 if they meet)."""
    dx = max(0.0, b[0] - a[2], a[0] - b[2])
    dy = max(0.0, b[1] - a[3], a[1] - b[3])
    return math.hypot(dx, dy)


def path_report(state: BattleState, start: Point, end: Point) -> PathReport:
    """Terrain along a straight path."""
    return trace_path([start, end], state.terrain)


def base_report(state: BattleState, start: Footprint, end: Point) -> PathReport:
    """Terrain under a contingent's whole base moved straight from ``start`` to ``end``."""
    return trace_footprint(poses_along(start, [end]), state.terrain)


def obstacles_crossed(report: PathReport, terrain: Iterable[TerrainFeature]) -> dict[str, int]:
    """How many minor, major and defensive obstacles a path crosses.

    A river is a major obstacle and a stream a minor one ("Cross major obstacle"); the sheet's
    rule is about crossing, so a river or stream crossed at a bridge or ford (a crossing point,
    ``terrain.crossing_at``) is not an obstacle there: only its crossings elsewhere count.
    """
    kinds = {f.id: f for f in terrain}
    found = {"minor": 0, "major": 0, "defensive": 0}
    for crossing in report.crossings:
        feature = kinds[crossing.feature]
        props = feature.properties
        major = crossing.kind == "river" or props.get("major") is True
        times = crossing.times - _at_crossing_points(report, crossing.feature)
        found["major" if major else "minor"] += times
        if props.get("defensive") is True:
            found["defensive"] += times
    return found


def _at_crossing_points(report: PathReport, feature: str) -> int:
    """How many times a path crosses one river or stream at a bridge or ford."""
    return sum(1 for w in report.water if w.feature == feature and w.via_kind in CROSSING_KINDS)


def areas_at(state: BattleState, point: Point) -> frozenset[str]:
    """The kinds of area terrain covering a point."""
    here = ShapelyPoint(point)
    return frozenset(
        f.kind for f in state.terrain if not f.linear and feature_shape(f).covers(here)
    )


def on_road(state: BattleState, point: Point) -> bool:
    """True if a point lies on a road."""
    report = trace_path([point, (point[0] + ON_ROAD_SLACK, point[1])], state.terrain)
    return report.all_on_road


def enemy_within(state: BattleState, unit: Unit, reach: float) -> bool:
    """True if any enemy is within ``reach`` SF, edge to edge."""
    here = Footprint.of(unit)
    # The units whose boxes come within reach (the table's boxes kept): a wider test first.
    return any(
        enemy.side != unit.side
        and not boxes_apart(here, Footprint.of(enemy), reach + EPSILON)
        and within(gap(unit, enemy), reach)
        for enemy in near(state.units_on_table, here.bounds, reach)
    )


def enemy_to_front(state: BattleState, pose: Footprint, side: str, reach: float) -> Unit | None:
    """The first enemy within ``reach`` SF to the front of a pose."""
    return front_enemy(state.units_on_table, pose, side, reach)


def front_enemy(units: tuple[Unit, ...], pose: Footprint, side: str, reach: float) -> Unit | None:
    """The first of these units, not of ``side``, within ``reach`` SF to the front of a pose."""
    # Only units whose boxes come within reach of the pose's box can be (a box test first).
    for enemy in near(units, pose.bounds, reach):
        if enemy.side != side and within_to_front(pose, Footprint.of(enemy), reach - EPSILON):
            return enemy
    return None


def quarter_of(target: Unit, attacker: Unit) -> str:
    """Which quarter of the target the attacker stands in (front, rear, left, right)."""
    return quarter(Footprint.of(target), (attacker.x, attacker.y))


def contact_pose(mover: Unit, target: Unit) -> Footprint:
    """Where a charger stands when its front meets the target's nearest face, centred on it."""
    face = quarter_of(target, mover)
    there = Footprint.of(target)
    half_d, half_w, mine = target.depth / 2, target.frontage / 2, mover.depth / 2
    offsets = {
        "front": (half_d + mine, 0.0),
        "rear": (-half_d - mine, 0.0),
        "left": (0.0, -half_w - mine),
        "right": (0.0, half_w + mine),
    }
    ahead, across = offsets[face]
    centre = there.at(ahead, across)
    facing = facing_towards(centre, (target.x, target.y))
    return Footprint.of(mover).moved_to(centre, facing)


def distance_to_contact(mover: Unit, target: Unit) -> float:
    """How far the mover's front centre travels to reach its contact pose."""
    pose = contact_pose(mover, target)
    return math.dist(Footprint.of(mover).front_centre, pose.front_centre)


def blockers(state: BattleState, unit: Unit, poses: list[Footprint], spare: set[str]) -> list[Unit]:
    """Other contingents a move through these poses would pass through."""
    others = [
        (u.id, Footprint.of(u))
        for u in near(state.units_on_table, around(poses))
        if u.id != unit.id and u.id not in spare
    ]
    found = set(passed_through(poses, others))
    if not found:  # most poses pass through nobody: no need to scan the table
        return []
    return [u for u in state.units_on_table if u.id in found]


@dataclass(frozen=True)
class Corridor:
    """The units a straight move might meet: those near the ground its base (turned any way)
    covers from its start to ``length`` along ``heading``, in table order, and of those the
    ones (not spared) that the base, moved the whole way, passes through."""

    units: tuple[Unit, ...]
    crossed: tuple[tuple[str, Footprint], ...]

    @classmethod
    def of(
        cls,
        state: BattleState,
        start: Footprint,
        heading: float,
        length: float,
        reach: float,
        spare: set[str],
    ) -> Corridor:
        """The corridor of a move; ``reach`` widens it for what is looked for around a pose."""
        span = math.hypot(start.frontage, start.depth) / 2 + reach + CORRIDOR_SLACK
        ahead = start.moved_to((start.x, start.y), heading).advanced(length)
        x0, x1 = sorted((start.x, ahead.x))
        y0, y1 = sorted((start.y, ahead.y))
        units = tuple(near(state.units_on_table, (x0 - span, y0 - span, x1 + span, y1 + span)))
        full = ahead.moved_to((ahead.x, ahead.y), start.facing)
        others = [(u.id, Footprint.of(u)) for u in units if u.id not in spare]
        hit = set(passed_through([start, full], others))
        return cls(units, tuple(o for o in others if o[0] in hit))

    def passes_through(self, start: Footprint, pose: Footprint) -> bool:
        """True if the base moved from ``start`` to ``pose`` (on the way) passes through any
        unit not spared: only those the whole move passes through can be, as the ground swept
        to a pose on the way lies inside the ground swept the whole way."""
        return bool(self.crossed) and bool(passed_through([start, pose], self.crossed))


def on_table(state: BattleState, pose: Footprint) -> bool:
    """True if every corner of a pose is on the table."""
    field = state.battlefield
    return all(0 <= x <= field.width and 0 <= y <= field.depth for x, y in pose.corners())


def farthest(
    start: Footprint, heading: float, length: float, ok: Callable[[Footprint], bool]
) -> float:
    """The longest distance up to ``length`` along ``heading`` whose pose is acceptable."""

    def pose_at(share: float) -> Footprint:
        moved = start.moved_to((start.x, start.y), heading).advanced(length * share)
        return moved.moved_to((moved.x, moved.y), start.facing)

    if length <= 0 or ok(pose_at(1.0)):
        return max(0.0, length)
    low, high = 0.0, 1.0
    for _ in range(BISECTIONS):
        # The answer is ``low`` rounded down to 0.001 SF, and ``low`` only ever grows up to
        # below ``high``: once both round down alike, the poses left cannot change it (the
        # rounding is monotonic), so the search stops there with the same answer.
        if _thousandths(length, low) == _thousandths(length, high):
            break
        middle = (low + high) / 2
        low, high = (middle, high) if ok(pose_at(middle)) else (low, middle)
    # Rounded down, so rounding never carries a unit past the acceptable pose into another.
    return _thousandths(length, low) / 1000


BISECTIONS = 25  # halvings of the move at most: far finer than the 0.001 SF a move is kept to


def _thousandths(length: float, share: float) -> int:
    """A share of a move in whole thousandths of an SF, rounded down."""
    return math.floor(length * share * 1000)


def sight(state: BattleState, viewer: Unit, target: Unit) -> Sight:
    """Line of sight between two contingents; other contingents and blocking terrain block it.

    As ``toolkit.sight``, but only the contingents whose boxes meet the box of the sight lines
    are handed on (the sight test leaves out all others itself, after building their bases).
    """
    seer, seen = Footprint.of(viewer), Footprint.of(target)
    eye = seer.front_centre
    xs, ys = zip(eye, (seen.x, seen.y), *seen.corners(), strict=True)
    box = (min(xs), min(ys), max(xs), max(ys))
    apart = (viewer.id, target.id)
    others = [(u.id, Footprint.of(u)) for u in near(state.units_on_table, box) if u.id not in apart]
    return line_of_sight(seer, seen, state.terrain, others, SIGHT_BLOCKERS)
