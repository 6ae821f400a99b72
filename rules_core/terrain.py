"""Terrain on the table: what a move's path crosses, and line of sight between units."""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from shapely import LineString, MultiPoint, Polygon, STRtree, get_num_geometries, unary_union
from shapely import Point as ShapelyPoint
from shapely import box as upright_box
from shapely.geometry.base import BaseGeometry

from rules_core.geometry import EPSILON, TOUCH, Footprint, Point, around
from rules_core.state import CROSSING_KINDS, WATER_KINDS, TerrainFeature

# Kinds that block sight by default; a ruleset may pass its own set. A feature's own
# ``blocks_sight`` property (true or false) overrides its kind either way.
SIGHT_BLOCKING = frozenset({"hill", "wood", "dense_wood", "village", "fortification", "impassable"})
BLOCKS_SIGHT = "blocks_sight"
DEFAULT_ROAD_WIDTH = 1.0  # in the table's measure, when a road has no "width" property


@dataclass(frozen=True)
class Inside:
    """The length of a path inside one area feature."""

    feature: str
    kind: str
    length: float


@dataclass(frozen=True)
class Crossing:
    """How many times a path crosses one linear feature (river, stream, hedge)."""

    feature: str
    kind: str
    times: int


@dataclass(frozen=True)
class WaterCrossing:
    """One place where a path crosses a river or stream, and the bridge or ford there (if
    any: ``via`` is its id, ``via_kind`` its kind, both None away from a crossing point)."""

    feature: str
    kind: str
    at: Point
    via: str | None = None
    via_kind: str | None = None


@dataclass(frozen=True)
class PathReport:
    """A move's path: its length, the terrain it passes through and crosses, roads followed."""

    points: tuple[Point, ...]
    length: float
    inside: tuple[Inside, ...]
    crossings: tuple[Crossing, ...]
    road_length: float
    # Each place the path crosses a river or stream, and the bridge or ford it crosses at.
    water: tuple[WaterCrossing, ...] = ()

    def crossed_outside(
        self, kinds: Iterable[str] = WATER_KINDS, via: Iterable[str] = CROSSING_KINDS
    ) -> int:
        """How many times the path crosses water of these kinds away from any crossing point
        (bridge or ford) of the ``via`` kinds: 0 means every such crossing is at one."""
        wanted, points = set(kinds), set(via)
        return sum(1 for w in self.water if w.kind in wanted and w.via_kind not in points)

    def crossed_via(self, via: Iterable[str], kinds: Iterable[str] = WATER_KINDS) -> int:
        """How many times the path crosses water of these kinds at a crossing point of the
        ``via`` kinds (``{"ford"}``: the fords it wades)."""
        wanted, points = set(kinds), set(via)
        return sum(1 for w in self.water if w.kind in wanted and w.via_kind in points)

    def length_in(self, kinds: Iterable[str]) -> float:
        """Length of the path inside features of these kinds (overlaps counted once each)."""
        wanted = set(kinds)
        return sum(item.length for item in self.inside if item.kind in wanted)

    def crossed(self, kinds: Iterable[str]) -> int:
        """How many times the path crosses linear features of these kinds."""
        wanted = set(kinds)
        return sum(item.times for item in self.crossings if item.kind in wanted)

    @property
    def all_on_road(self) -> bool:
        """True if the whole path follows roads."""
        return self.length > 0 and self.road_length >= self.length - EPSILON


def feature_shape(feature: TerrainFeature) -> BaseGeometry:
    """The feature as shapely geometry: a polygon, or a polyline for linear kinds."""
    try:
        return _shape(feature.linear, tuple(feature.points))
    except TypeError:  # points given as lists: nothing to key a cache on
        return LineString(feature.points) if feature.linear else Polygon(feature.points)


@lru_cache(maxsize=4_096)
def _shape(linear: bool, points: tuple[Point, ...]) -> BaseGeometry:
    """One shape per outline: terrain stays put, and shapely geometry is immutable."""
    return LineString(points) if linear else Polygon(points)


def trace_path(points: Sequence[Point], terrain: Iterable[TerrainFeature]) -> PathReport:
    """Measure a path through the terrain: lengths inside areas, crossings, road followed.

    Reports are kept per layout (terrain stays put while units move, and a step replayed at
    each answer traces the same paths again).
    """
    layout = _layout(terrain)
    key = repr(tuple(points))  # exact: 1 and 1.0, a list and a tuple are told apart
    found = layout.traced.get(key)
    if found is None:
        found = _trace(points, layout)
        if len(layout.traced) >= TRACED_KEPT:
            layout.traced.clear()
        layout.traced[key] = found
    return found


def trace_footprint(poses: Sequence[Footprint], terrain: Iterable[TerrainFeature]) -> PathReport:
    """Measure a move of a whole base through the terrain, pose to pose (each leg keeping the
    facing of the pose it starts from): ``inside`` is how far the centre goes while any part of
    the base is in each area, ``crossings`` how often the base goes over each linear feature
    (a river or stream at a bridge or ford only if the water under the base lies within it).

    A base merely touching a feature (within ``TOUCH``, as rounding leaves it) is not in it.
    ``points``, ``length`` and ``road_length`` are the centre's path, as in ``trace_path``.
    """
    layout = _layout(terrain)
    key = repr(tuple((p.x, p.y, p.facing, p.frontage, p.depth) for p in poses))
    found = layout.traced.get(key)
    if found is None:
        found = _trace_footprint(tuple(poses), layout)
        if len(layout.traced) >= TRACED_KEPT:
            layout.traced.clear()
        layout.traced[key] = found
    return found


def poses_along(start: Footprint, points: Sequence[Point]) -> list[Footprint]:
    """The poses of a base moved through ``points`` keeping its facing (a first point at the
    start itself is not repeated)."""
    poses = [start]
    for point in points:
        if (point[0], point[1]) != (poses[-1].x, poses[-1].y):
            poses.append(start.moved_to(point))
    return poses


def _trace_footprint(poses: tuple[Footprint, ...], layout: _Layout) -> PathReport:
    """``trace_footprint`` worked out."""
    points = [(p.x, p.y) for p in poses]
    centre = _trace(points if len(points) > 1 else points * 2, layout)
    legs = [
        (
            LineString([(a.x, a.y), (b.x, b.y)]),
            inset(a, TOUCH),
            inset(b, TOUCH).moved_to((b.x, b.y), a.facing),
        )
        for a, b in itertools.pairwise(poses)
    ] or [(LineString(points * 2), inset(poses[0], TOUCH), inset(poses[0], TOUCH))]
    box = around(poses)
    inside: list[Inside] = []
    crossings: list[Crossing] = []
    water: list[WaterCrossing] = []
    for feature in layout.near(box):
        if _apart(box, _bounds(feature)):
            continue  # the base never comes near it
        shape = feature_shape(feature)
        pieces = [(leg.intersection(grown(shape, a)), a, b) for leg, a, b in legs]
        if feature.linear:
            met = [(part, a) for piece, a, _ in pieces for part in _parts(piece)]
            if met:
                crossings.append(Crossing(feature.id, feature.kind, len(_joined(met))))
            if met and feature.kind in WATER_KINDS:
                water += _base_water(_joined(met), shape, feature, layout.crossing_points)
        elif any(piece.length > 0 for piece, _, _ in pieces) or _under(shape, poses[0]):
            # Entered beyond a touch: measured from where the base's edge meets it.
            whole = [
                (leg, replace(a, frontage=a.frontage + 2 * TOUCH, depth=a.depth + 2 * TOUCH))
                for leg, a, _ in legs
            ]
            length = sum(float(leg.intersection(grown(shape, a)).length) for leg, a in whole)
            inside.append(Inside(feature.id, feature.kind, max(length, EPSILON * 2)))
    return replace(centre, inside=tuple(inside), crossings=tuple(crossings), water=tuple(water))


def inset(pose: Footprint, margin: float) -> Footprint:
    """The base shrunk by ``margin`` on every side: what must meet ground to be in it."""
    return replace(
        pose, frontage=max(pose.frontage - 2 * margin, 0.0), depth=max(pose.depth - 2 * margin, 0.0)
    )


def grown(shape: BaseGeometry, pose: Footprint) -> BaseGeometry:
    """Where the centre of a base shaped and turned like ``pose`` stands while the base meets
    ``shape``: the shape widened by the base (a Minkowski sum, exact for any outline)."""
    corners = tuple((x - pose.x, y - pose.y) for x, y in pose.corners())
    return _grown(shape, corners)


@lru_cache(maxsize=4_096)
def _grown(shape: BaseGeometry, corners: tuple[Point, ...]) -> BaseGeometry:
    """The base (corners about its centre) swept along every edge of the shape, and the shape:
    a convex base at the origin meets a point of the shape or crosses its outline."""
    parts: list[BaseGeometry] = [shape] if isinstance(shape, Polygon) else []
    for line in _outlines(shape):
        coords = list(line.coords)
        for (ax, ay), (bx, by) in itertools.pairwise(coords):
            ends = [(ax + x, ay + y) for x, y in corners] + [(bx + x, by + y) for x, y in corners]
            parts.append(MultiPoint(ends).convex_hull)
    return unary_union(parts)


def _outlines(shape: BaseGeometry) -> list[LineString]:
    """The lines bounding an area (outer and inner rings), or a line itself."""
    found: list[LineString] = []
    for part in getattr(shape, "geoms", [shape]):
        if isinstance(part, Polygon):
            found += [LineString(part.exterior.coords)]
            found += [LineString(ring.coords) for ring in part.interiors]
        elif isinstance(part, LineString):
            found.append(part)
    return found


def _under(shape: BaseGeometry, pose: Footprint) -> bool:
    """True if a base standing still is in an area (beyond a touch)."""
    return bool(shape.intersection(inset(pose, TOUCH).polygon).area > EPSILON)


def _parts(piece: BaseGeometry) -> list[LineString]:
    """The stretches of a leg inside a widened feature (points, where it only touches, left out)."""
    return [p for p in getattr(piece, "geoms", [piece]) if isinstance(p, LineString) and p.length]


def _joined(met: list[tuple[LineString, Footprint]]) -> list[list[tuple[LineString, Footprint]]]:
    """Stretches of successive legs that meet end to end joined into one crossing."""
    runs: list[list[tuple[LineString, Footprint]]] = []
    for part, pose in met:
        if (
            runs
            and ShapelyPoint(runs[-1][-1][0].coords[-1]).distance(ShapelyPoint(part.coords[0]))
            <= EPSILON
        ):
            runs[-1].append((part, pose))
        else:
            runs.append([(part, pose)])
    return runs


def _base_water(
    runs: list[list[tuple[LineString, Footprint]]],
    shape: BaseGeometry,
    river: TerrainFeature,
    crossing_points: Sequence[TerrainFeature],
) -> list[WaterCrossing]:
    """Each crossing of a river or stream by a base, with the bridge or ford it is made at: one
    holding all the water the base goes over on that crossing."""
    found: list[WaterCrossing] = []
    for run in runs:
        ground = unary_union([_swept_stretch(part, pose) for part, pose in run])
        wet = shape.intersection(ground)
        spot = wet.representative_point()
        via = next(
            (p for p in crossing_points if wet.difference(feature_shape(p)).length <= EPSILON),
            None,
        )
        found.append(
            WaterCrossing(
                river.id,
                river.kind,
                (float(spot.x), float(spot.y)),
                None if via is None else via.id,
                None if via is None else via.kind,
            )
        )
    return found


def _swept_stretch(part: LineString, pose: Footprint) -> BaseGeometry:
    """The ground a base (turned as ``pose``) covers while its centre runs along a stretch."""
    (ax, ay), (bx, by) = part.coords[0], part.coords[-1]
    return MultiPoint(
        [*pose.moved_to((ax, ay)).corners(), *pose.moved_to((bx, by)).corners()]
    ).convex_hull


def _trace(points: Sequence[Point], layout: _Layout) -> PathReport:
    """``trace_path`` worked out."""
    line = LineString(points)
    box = _box(points)
    inside: list[Inside] = []
    crossings: list[Crossing] = []
    water: list[WaterCrossing] = []
    roads = layout.roads
    for feature in layout.near(box):
        if _apart(box, _bounds(feature)):
            continue  # nothing of the path is in or across it
        shape = feature_shape(feature)
        if feature.linear:
            times = _crossings(line, shape)
            if times:
                crossings.append(Crossing(feature.id, feature.kind, times))
            if times and feature.kind in WATER_KINDS:
                water += _water(line, shape, feature, layout.crossing_points)
        else:
            length = float(line.intersection(shape).length)
            if length > EPSILON:
                inside.append(Inside(feature.id, feature.kind, length))
    road = float(line.intersection(_road_ground(roads)).length) if roads else 0.0
    return PathReport(
        tuple(points), float(line.length), tuple(inside), tuple(crossings), road, tuple(water)
    )


def _water(
    line: LineString,
    shape: BaseGeometry,
    river: TerrainFeature,
    crossing_points: Sequence[TerrainFeature],
) -> list[WaterCrossing]:
    """The places a path crosses one river or stream, each with its bridge or ford."""
    found: list[WaterCrossing] = []
    meeting = line.intersection(shape)
    parts = getattr(meeting, "geoms", [meeting])
    for part in parts:
        spot = part.representative_point()
        at = (float(spot.x), float(spot.y))
        via = _crossing_point(crossing_points, at)
        found.append(
            WaterCrossing(
                river.id,
                river.kind,
                at,
                None if via is None else via.id,
                None if via is None else via.kind,
            )
        )
    return found


def _crossing_point(crossing_points: Sequence[TerrainFeature], at: Point) -> TerrainFeature | None:
    spot = ShapelyPoint(at).buffer(EPSILON)
    return next((f for f in crossing_points if feature_shape(f).intersects(spot)), None)


def crossing_at(
    terrain: Iterable[TerrainFeature], at: Point, kinds: Iterable[str] = CROSSING_KINDS
) -> TerrainFeature | None:
    """The bridge or ford (a feature of ``kinds``) covering a point, if any: where a unit may
    cross a river or stream, as its ruleset says."""
    wanted = set(kinds)
    return _crossing_point([f for f in terrain if f.kind in wanted], at)


Box = tuple[float, float, float, float]
TRACED_KEPT = 20_000  # path reports kept per layout (forgotten all at once beyond)
INDEXED = 16  # from this many features a layout finds those near a box through an STRtree


class _Layout:
    """A terrain layout made ready for tracing: its roads, and its other features indexed by
    their boxes so that a path meets only those near it (in the layout's order)."""

    def __init__(self, features: Sequence[TerrainFeature]) -> None:
        self.features = tuple(features)
        self.traced: dict[str, PathReport] = {}
        self.roads = tuple(
            (tuple((x, y) for x, y in f.points), _road_width(f))
            for f in self.features
            if f.kind == "road"
        )
        self.road_features = tuple(f for f in self.features if f.kind == "road")
        self.crossing_points = tuple(f for f in self.features if f.kind in CROSSING_KINDS)
        self.others = tuple(f for f in self.features if f.kind != "road")
        self.tree = (
            STRtree([upright_box(*_bounds(f)) for f in self.others])
            if len(self.others) >= INDEXED
            else None
        )

    def near(self, area: Box) -> Sequence[TerrainFeature]:
        """The non-road features whose boxes may meet ``area`` (a superset of those within
        ``EPSILON`` of it), in the layout's order."""
        if self.tree is None:
            return self.others
        grown = upright_box(
            area[0] - 2 * EPSILON,
            area[1] - 2 * EPSILON,
            area[2] + 2 * EPSILON,
            area[3] + 2 * EPSILON,
        )
        return [self.others[i] for i in sorted(self.tree.query(grown).tolist())]


_LAYOUTS: OrderedDict[int, _Layout] = OrderedDict()
_LAYOUTS_KEPT = 32
_LAYOUTS_LOCK = threading.Lock()


def _layout(terrain: Iterable[TerrainFeature]) -> _Layout:
    """The prepared layout of a state's terrain, kept by the identity of its tuple (a state
    rebuilt with ``replace`` shares it); the layout holds the tuple, so its id is not reused
    while kept."""
    if not isinstance(terrain, tuple):
        return _Layout(tuple(terrain))
    with _LAYOUTS_LOCK:
        found = _LAYOUTS.get(id(terrain))
        if found is not None and found.features is terrain:
            _LAYOUTS.move_to_end(id(terrain))
            return found
    made = _Layout(terrain)
    made.features = terrain
    with _LAYOUTS_LOCK:
        _LAYOUTS[id(terrain)] = made
        while len(_LAYOUTS) > _LAYOUTS_KEPT:
            _LAYOUTS.popitem(last=False)
    return made


def areas_near(terrain: Iterable[TerrainFeature], point: Point) -> list[TerrainFeature]:
    """The area (not linear) features whose boxes hold a point (within ``EPSILON``), in order:
    those that may cover it."""
    spot = (point[0], point[1], point[0], point[1])
    return [f for f in _layout(terrain).near(spot) if not f.linear and not _apart(spot, _bounds(f))]


def _box(points: Sequence[Point]) -> tuple[float, float, float, float]:
    """The upright box around some points."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _bounds(feature: TerrainFeature) -> tuple[float, float, float, float]:
    """The upright box around a feature."""
    try:
        return _shape_bounds(tuple(feature.points))
    except TypeError:  # points given as lists
        return _box(feature.points)


@lru_cache(maxsize=4_096)
def _shape_bounds(points: tuple[Point, ...]) -> tuple[float, float, float, float]:
    """The upright box around a feature's outline, kept."""
    return _box(points)


def _apart(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """True if two boxes are clearly apart, so their shapes cannot meet."""
    slack = EPSILON
    return b[0] - a[2] > slack or a[0] - b[2] > slack or b[1] - a[3] > slack or a[1] - b[3] > slack


@lru_cache(maxsize=256)
def _road_ground(roads: tuple[tuple[tuple[Point, ...], float], ...]) -> BaseGeometry:
    """The ground the roads cover (each buffered by half its width), built once per layout."""
    return _union([LineString(points).buffer(width / 2) for points, width in roads])


def _road_width(feature: TerrainFeature) -> float:
    width = feature.properties.get("width", DEFAULT_ROAD_WIDTH)
    return float(width) if isinstance(width, int | float) else DEFAULT_ROAD_WIDTH


def _crossings(line: LineString, shape: BaseGeometry) -> int:
    meeting = line.intersection(shape)
    return 0 if meeting.is_empty else int(get_num_geometries(meeting))


def _union(parts: list[BaseGeometry]) -> BaseGeometry:
    merged = parts[0]
    for part in parts[1:]:
        merged = merged.union(part)
    return merged


@dataclass(frozen=True)
class Sight:
    """Line of sight from a viewer to a target: how many sight lines are clear, what blocks."""

    lines_clear: int
    lines_total: int
    blocked_by: tuple[str, ...]

    @property
    def clear(self) -> bool:
        """True if at least one sight line reaches the target."""
        return self.lines_clear > 0

    @property
    def partial(self) -> bool:
        """True if the target is seen but partly obscured."""
        return 0 < self.lines_clear < self.lines_total


def line_of_sight(
    viewer: Footprint,
    target: Footprint,
    terrain: Iterable[TerrainFeature] = (),
    others: Iterable[tuple[str, Footprint]] = (),
    blocking_kinds: frozenset[str] = SIGHT_BLOCKING,
    see_into: float = 0.0,
) -> Sight:
    """Sight from the viewer's front centre to the target's centre and four corners.

    ``others`` are the other units on the table (leaders are not passed: they never block).
    Terrain of a blocking kind blocks a sight line running more than ``see_into`` inside it,
    unless the viewer stands in it (a unit on a hill sees over it, in a wood sees out).
    """
    eye = viewer.front_centre
    aims = ((target.x, target.y), *target.corners())
    box = _box((eye, *aims))  # every sight line lies inside it: what is outside cannot block
    layout = _layout(terrain)
    screens = [
        (f.id, feature_shape(f))
        for f in (*layout.near(box), *layout.road_features)
        if blocks_sight(f, blocking_kinds) and not _apart(box, _bounds(f))
    ]
    screens = [(key, shape) for key, shape in screens if not shape.covers(ShapelyPoint(eye))]
    # Shrunk a hair so a sight line grazing a unit's edge is not blocked by it.
    bodies = [
        (key, other.polygon.buffer(-EPSILON * 10))
        for key, other in others
        if not _apart(box, other.bounds)
    ]
    blocked: set[str] = set()
    clear = 0
    for aim in aims:
        hits = _blockers(LineString([eye, aim]), screens, see_into) + _blockers(
            LineString([eye, aim]), bodies, 0.0
        )
        blocked.update(hits)
        clear += not hits
    return Sight(clear, len(aims), tuple(sorted(blocked)))


def blocks_sight(feature: TerrainFeature, blocking_kinds: frozenset[str] = SIGHT_BLOCKING) -> bool:
    """True if a feature blocks sight: its ``blocks_sight`` property if it has one, else its
    kind (one of ``blocking_kinds``)."""
    own = feature.properties.get(BLOCKS_SIGHT)
    if isinstance(own, bool):
        return own
    return feature.kind in blocking_kinds


def _blockers(
    line: LineString, shapes: Sequence[tuple[str, BaseGeometry]], allowance: float
) -> list[str]:
    return [key for key, shape in shapes if line.intersection(shape).length > allowance + EPSILON]
