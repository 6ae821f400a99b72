"""Moves checked along their whole path: the first thing in the way, and how far a unit got.

A ruleset moving a unit without a player choosing the path (a retreat, rout, evade or fall
back) sweeps the unit's footprint along a straight heading and asks what stops it first: an
enemy unit, a friendly unit, terrain it may not enter, or the table edge. Which of those may be
passed is the ruleset's call (its sheet says); the sweep only measures.

A move a player chooses is checked the same way for terrain with ``barred_ground``: the ground
its footprint sweeps along the whole path, so a move may not step over impassable ground to
a point beyond it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

import numpy
import shapely
from shapely import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from rules_core.geometry import (
    EPSILON,
    Box,
    Footprint,
    Placed,
    Point,
    near,
    overlap_area,
    swept_area,
    zone,
)
from rules_core.state import CROSSING_KINDS, WATER_KINDS, BattleState, TerrainFeature, Unit
from rules_core.terrain import feature_shape, grown, inset

# Terrain of this kind stops every move, whatever the ruleset lists as impassable.
ALWAYS_IMPASSABLE = frozenset({"impassable"})

ENEMY, FRIEND, TERRAIN, EDGE = "enemy", "friend", "terrain", "edge"
# Overlap shallower than this counts as touching, so coordinates rounded to 0.001 never block.
TOUCH = 1e-3
# A blocked unit stops touching what blocks it, its distance rounded down to this.
STEP = 1e-6
REACH_SLACK = 1e-6  # float noise allowed when a box test skips shapely


@dataclass(frozen=True)
class Blocker:
    """What stops a move: an ``enemy`` or ``friend`` unit, ``terrain``, or the table ``edge``."""

    kind: str
    id: str  # the unit's or terrain feature's id; "" for the table edge


@dataclass(frozen=True)
class Sweep:
    """A straight move checked along its path: how far it was meant to go and how far it got."""

    start: Footprint  # the pose it moves from, already turned to the facing it moves with
    heading: float
    wanted: float
    reached: float
    blocker: Blocker | None
    passed: tuple[str, ...]  # friends it passed through (only when friends may be passed)

    @property
    def clear(self) -> bool:
        """True if nothing stopped the move short of its full length."""
        return self.blocker is None

    @property
    def end(self) -> Footprint:
        """The pose where the move stops."""
        return self.pose(self.reached)

    def pose(self, distance: float) -> Footprint:
        """The pose ``distance`` along the path, keeping the start's facing."""
        fx, fy = _unit_vector(self.heading)
        return self.start.moved_to((self.start.x + fx * distance, self.start.y + fy * distance))


def sweep(
    state: BattleState,
    mover: Unit,
    heading: float,
    length: float,
    *,
    facing: float | None = None,
    friends_pass: bool = False,
    impassable: Collection[str] = (),
    leaves_table: bool = False,
    crossings: Collection[str] = CROSSING_KINDS,
) -> Sweep:
    """Sweep ``mover`` ``length`` along ``heading`` (keeping ``facing``) and report what stops it.

    Units the start pose overlaps only because the mover turned to go are left behind.
    ``impassable`` lists terrain kinds the unit may not enter (the ``impassable`` kind always
    stops it); a river or stream listed there may still be crossed where a bridge or ford
    covers it (``crossings`` lists the kinds that count, none to ignore them; the unit's
    footprint must fit inside the crossing point). With ``leaves_table`` the edge does not
    stop it (the caller decides what leaving the table means: ``Context.take_off_table``).
    Units in reserve or off the table are not in the way.
    """
    start = Footprint.of(mover).moved_to((mover.x, mover.y), facing)
    stops: list[tuple[float, Blocker]] = []
    passed: list[tuple[float, float, str]] = []
    for other in near(state.units_on_table, _path_box(start, heading, length)):
        if other.id == mover.id:
            continue
        span = _unit_span(Footprint.of(mover), start, heading, length, Footprint.of(other))
        if span is None:
            continue
        if other.side == mover.side and friends_pass:
            passed.append((*span, other.id))
        else:
            stops.append(
                (span[0], Blocker(FRIEND if other.side == mover.side else ENEMY, other.id))
            )
    barred = ALWAYS_IMPASSABLE | frozenset(impassable)
    stops += _terrain_stops(start, heading, length, state.terrain, barred, crossings)
    if not leaves_table:
        edge = _edge_reach(start, heading, length, state.battlefield.width, state.battlefield.depth)
        if edge is not None:
            stops.append((edge, Blocker(EDGE, "")))
    first = min(stops, key=lambda stop: stop[0], default=None)
    reached, blocker = (length, None) if first is None else (_short_of(first[0]), first[1])
    reached, blocker = _off_friends(reached, blocker, passed)
    gone_past = tuple(key for enter, leave, key in sorted(passed) if leave <= reached + EPSILON)
    return Sweep(start, heading, length, reached, blocker, gone_past)


def _unit_vector(heading: float) -> tuple[float, float]:
    """The direction of a compass heading."""
    angle = math.radians(heading)
    return (math.sin(angle), math.cos(angle))


def _short_of(distance: float) -> float:
    """Where a unit stops before something that blocks it at ``distance``."""
    return max(0.0, math.floor(distance / STEP) * STEP)


def _overlaps(a: Footprint, b: Footprint) -> bool:
    """True if two footprints share more than a touch."""
    return bool(overlap_area(a, b) > TOUCH * TOUCH)


def _unit_span(
    placed: Footprint, start: Footprint, heading: float, length: float, other: Footprint
) -> tuple[float, float] | None:
    """The stretch of the path along which the moving footprint overlaps ``other``, if any.

    Both footprints are convex, so the moves that overlap form one segment of the path: where
    the path meets the other footprint widened by the mover's shape (a Minkowski difference).
    """
    if _out_of_reach(start, heading, length, other):
        return None
    if _overlaps(start, other) and not _overlaps(placed, other):
        return None  # overlapped only by turning to move away: left behind
    return meeting_span(start.corners(), heading, length, other.corners(), slack=TOUCH)


def meeting_span(
    moving: Sequence[Point],
    heading: float,
    length: float,
    other: Sequence[Point],
    *,
    slack: float = 0.0,
) -> tuple[float, float] | None:
    """The stretch of a straight move along ``heading`` over which the convex shape with
    corners ``moving`` meets the convex shape ``other``, if it does within ``length``.

    Closed form: the path meets the other shape widened by the moving one (a Minkowski
    difference). With ``slack`` 0 touching counts; otherwise only overlap deeper than it.
    Measured along the whole line, not only the move, so a move ending inside has its exit.
    """
    # Every corner of ``other`` less every corner of ``moving``, built as one array: the same
    # points as a Python list of pairs, without shapely making a Point of each.
    sums = numpy.subtract.outer(
        numpy.asarray(other, dtype=float), numpy.asarray(moving, dtype=float)
    )
    pairs = numpy.stack((sums[:, 0, :, 0], sums[:, 1, :, 1]), axis=-1).reshape(-1, 2)
    obstacle = shapely.multipoints(pairs).convex_hull
    fx, fy = _unit_vector(heading)
    path = LineString([(0.0, 0.0), (fx * length, fy * length)])
    core = obstacle.buffer(-slack) if slack else obstacle
    if path.intersection(core).is_empty:
        return None
    beyond = length + obstacle.length
    line = LineString([(0.0, 0.0), (fx * beyond, fy * beyond)])
    along = [px * fx + py * fy for px, py in _coords(line.intersection(obstacle))]
    return (min(along), max(along))


def _path_box(start: Footprint, heading: float, length: float) -> Box:
    """The upright box around the start and end poses of a straight move (so the sweep)."""
    fx, fy = _unit_vector(heading)
    x0, y0, x1, y1 = start.bounds
    dx, dy = fx * length, fy * length
    return (x0 + min(dx, 0.0), y0 + min(dy, 0.0), x1 + max(dx, 0.0), y1 + max(dy, 0.0))


def _out_of_reach(start: Footprint, heading: float, length: float, other: Footprint) -> bool:
    """True if ``other`` lies outside the box around the start and end poses (so the sweep).

    The footprint moves in a straight line, so all it covers lies inside that box; a footprint
    whose box is apart from it cannot be met, and the shapely work is skipped. (``sweep``
    first asks ``near`` for the units whose boxes come that close, a looser test.)
    """
    box = _path_box(start, heading, length)
    ox0, oy0, ox1, oy1 = other.bounds
    slack = REACH_SLACK
    return (
        ox0 - box[2] > slack or box[0] - ox1 > slack or oy0 - box[3] > slack or box[1] - oy1 > slack
    )


def _coords(shape: BaseGeometry) -> list[tuple[float, float]]:
    """The points of a segment or point that shapely returned."""
    return [(float(x), float(y)) for x, y in getattr(shape, "coords", [])]


def barred_ground(
    state: BattleState,
    poses: Sequence[Footprint],
    *,
    impassable: Collection[str] = (),
    crossings: Collection[str] = CROSSING_KINDS,
) -> TerrainFeature | None:
    """The terrain a move through ``poses`` would enter but may not, or None if the way is clear.

    For moves a player chooses: the whole ground the footprint sweeps from pose to pose counts,
    not only where it ends. Barred are the ``impassable`` kind always and the kinds listed (a
    river or stream less its bridges and fords of the ``crossings`` kinds, as in ``sweep``);
    ground the first pose already stands in is left out (a unit may always leave). Of several,
    the one nearest the start comes first.
    """
    barred = ALWAYS_IMPASSABLE | frozenset(impassable)
    if not any(f.kind in barred for f in state.terrain):
        return None  # nothing barred on the table: nothing to measure
    start = poses[0]
    ground = swept_area([inset(pose, TOUCH) for pose in poses])  # touching is not entering
    within = inset(start, TOUCH).polygon
    found = [
        (start.polygon.distance(shape), feature)
        for feature, shape in _barred_shapes(state.terrain, barred, crossings)
        if not _enters(within, shape) and _enters(ground, shape)
    ]
    return min(found, key=lambda item: item[0])[1] if found else None


def ground_stop(
    state: BattleState,
    start: Footprint,
    heading: float,
    length: float,
    *,
    impassable: Collection[str] = (),
    crossings: Collection[str] = CROSSING_KINDS,
) -> float | None:
    """How far a base (keeping its facing) goes along ``heading`` before its front reaches
    ground it may not enter (as ``sweep`` bars it), exactly; None if it goes ``length``."""
    barred = ALWAYS_IMPASSABLE | frozenset(impassable)
    stops = _terrain_stops(start, heading, length, state.terrain, barred, crossings)
    return min((at for at, _ in stops), default=None)


def _barred_shapes(
    terrain: Iterable[TerrainFeature], impassable: Collection[str], crossings: Collection[str]
) -> list[tuple[TerrainFeature, BaseGeometry]]:
    """The features of barred kinds and the ground of each a unit may not enter (water less
    its bridges and fords)."""
    terrain = tuple(terrain)
    points = [feature_shape(f) for f in terrain if f.kind in crossings]
    found: list[tuple[TerrainFeature, BaseGeometry]] = []
    for feature in terrain:
        if feature.kind not in impassable:
            continue
        shape = feature_shape(feature)
        if feature.kind in WATER_KINDS and points:
            for point in points:
                shape = shape.difference(point)
            if shape.is_empty:
                continue
        found.append((feature, shape))
    return found


def _terrain_stops(
    start: Footprint,
    heading: float,
    length: float,
    terrain: Iterable[TerrainFeature],
    impassable: Collection[str],
    crossings: Collection[str] = (),
) -> list[tuple[float, Blocker]]:
    """Where the path first enters each impassable feature the unit does not already stand in
    (water less its bridges and fords)."""
    found: list[tuple[float, Blocker]] = []
    for feature, shape in _barred_shapes(terrain, impassable, crossings):
        if _enters(inset(start, TOUCH).polygon, shape):
            continue  # already in it (beyond a touch): a unit may always leave
        entry = _first_entry(start, heading, length, shape)
        if entry is not None:
            found.append((entry, Blocker(TERRAIN, feature.id)))
    return found


def _enters(ground: BaseGeometry, shape: BaseGeometry) -> bool:
    """True if ground covers part of an area, or crosses a line, beyond a touch."""
    meeting = ground.intersection(shape)
    size = meeting.area if isinstance(shape, Polygon) else meeting.length
    return bool(size > EPSILON)


def _first_entry(
    start: Footprint, heading: float, length: float, shape: BaseGeometry
) -> float | None:
    """How far the footprint goes before its front reaches ``shape``, if it then goes in
    beyond a touch within ``length`` (None if it never does).

    Closed form: the centre's path meets the shape widened by the base (``terrain.grown``);
    the first stretch of it that the shape widened by the base less ``TOUCH`` also meets is
    where the unit goes in, and its start is where the front edge reaches the ground.
    """
    fx, fy = _unit_vector(heading)
    path = LineString([(start.x, start.y), (start.x + fx * length, start.y + fy * length)])
    deep = _stretches(path.intersection(grown(shape, inset(start, TOUCH))), start)
    if not deep:
        return None
    touching = _stretches(path.intersection(grown(shape, start)), start)
    return next((a for a, b in touching if any(c < b and a < d for c, d in deep)), deep[0][0])


def _stretches(meeting: BaseGeometry, start: Footprint) -> list[tuple[float, float]]:
    """The stretches of a straight path (from the start's centre) inside a shape, as distances
    along it, in order (points where it only touches left out)."""
    found = []
    for part in getattr(meeting, "geoms", [meeting]):
        along = [math.dist((start.x, start.y), xy) for xy in _coords(part)]
        if along and max(along) > min(along):
            found.append((min(along), max(along)))
    return sorted(found)


def _edge_reach(
    start: Footprint, heading: float, length: float, width: float, depth: float
) -> float | None:
    """How far the footprint goes before a corner leaves the table (None if it never does)."""
    fx, fy = _unit_vector(heading)
    limit = length
    for x, y in start.corners():
        for position, step, size in ((x, fx, width), (y, fy, depth)):
            if step > EPSILON:
                limit = min(limit, (size + EPSILON - position) / step)
            elif step < -EPSILON:
                limit = min(limit, (-EPSILON - position) / step)
    return None if limit >= length - EPSILON else max(0.0, limit)


def _off_friends(
    reached: float, blocker: Blocker | None, passed: list[tuple[float, float, str]]
) -> tuple[float, Blocker | None]:
    """Step back until the unit does not end on a friend it was passing through."""
    moved = True
    while moved:
        moved = False
        for enter, leave, key in passed:
            if enter < reached - EPSILON and reached < leave - EPSILON:
                reached, blocker, moved = _short_of(enter), Blocker(FRIEND, key), True
    return reached, blocker


def front_reached(
    start: Footprint, heading: float, length: float, others: Iterable[Placed], reach: float
) -> float | None:
    """How far ``start`` moves along ``heading`` (up to ``length``) before one of ``others``
    first comes exactly ``reach`` to its front, in closed form; None if none does on the way.

    The strip ``reach`` deep before the front edge travels with the move (a translation), so
    the stop is where that strip first touches another footprint (``meeting_span``). Others
    already that near at the start are the caller's to rule on.
    """
    strip = zone(start, "front", reach).exterior.coords[:-1]
    box = _path_box(start, heading, length)
    found = [
        span[0]
        for other in near(tuple(others), box, reach)
        if (span := meeting_span(strip, heading, length, Footprint.of(other).corners()))
        and span[0] > EPSILON
    ]
    return min(found, default=None)


def gap_reached(
    start: Footprint, heading: float, length: float, other: Footprint, gap: float
) -> float | None:
    """How far ``start`` moves along ``heading`` (up to ``length``) before its edges first come
    exactly ``gap`` from ``other``'s, in closed form; None if not on the way (or already).

    The edges of two convex footprints are nearest between a corner of one and an edge of the
    other, so the move stops where the first corner path enters the capsule (``gap`` around an
    edge) of the other footprint: a line against a strip and two circles.
    """
    fx, fy = _unit_vector(heading)
    found = [
        _capsule_entry(corner, (sign * fx, sign * fy), edge, gap)
        for mover, fixed, sign in ((start, other, 1.0), (other, start, -1.0))
        for corner in mover.corners()
        for edge in itertools.pairwise([*fixed.corners(), fixed.corners()[0]])
    ]
    first = min((t for t in found if t is not None), default=None)
    return first if first is not None and EPSILON < first <= length else None


def _capsule_entry(
    point: Point, way: Point, edge: tuple[Point, Point], radius: float
) -> float | None:
    """Where ``point`` moving along the unit vector ``way`` first comes ``radius`` from a
    segment (negative if it already is), or None if it never does from here on."""
    (ax, ay), (bx, by) = edge
    px, py, dx, dy = point[0], point[1], way[0], way[1]
    entries = []
    for cx, cy in ((ax, ay), (bx, by)):
        half = dx * (px - cx) + dy * (py - cy)
        rest = (px - cx) ** 2 + (py - cy) ** 2 - radius**2
        if half * half >= rest and -half + math.sqrt(half * half - rest) > 0:
            entries.append(-half - math.sqrt(half * half - rest))
    size = math.hypot(bx - ax, by - ay)
    if size > 0:
        ux, uy = (bx - ax) / size, (by - ay) / size
        low, high = -math.inf, math.inf
        for (nx, ny), lo, hi in (((ux, uy), 0.0, size), ((-uy, ux), -radius, radius)):
            at, rate = (px - ax) * nx + (py - ay) * ny, dx * nx + dy * ny
            if abs(rate) < 1e-12:
                if not lo <= at <= hi:
                    low, high = math.inf, -math.inf
                continue
            one, two = (lo - at) / rate, (hi - at) / rate
            low, high = max(low, min(one, two)), min(high, max(one, two))
        if low <= high and high > 0:
            entries.append(low)
    return min(entries, default=None)
