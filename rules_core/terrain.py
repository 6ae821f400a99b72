"""Terrain on the table: what a move's path crosses, and line of sight between units."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from shapely import LineString, Polygon, get_num_geometries
from shapely import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from rules_core.geometry import EPSILON, Footprint, Point
from rules_core.state import TerrainFeature

# Kinds that block sight by default; a ruleset may pass its own set.
SIGHT_BLOCKING = frozenset({"hill", "wood", "dense_wood", "village", "fortification"})
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
class PathReport:
    """A move's path: its length, the terrain it passes through and crosses, roads followed."""

    points: tuple[Point, ...]
    length: float
    inside: tuple[Inside, ...]
    crossings: tuple[Crossing, ...]
    road_length: float

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
    return LineString(feature.points) if feature.linear else Polygon(feature.points)


def trace_path(points: Sequence[Point], terrain: Iterable[TerrainFeature]) -> PathReport:
    """Measure a path through the terrain: lengths inside areas, crossings, road followed."""
    line = LineString(points)
    inside: list[Inside] = []
    crossings: list[Crossing] = []
    road_parts: list[BaseGeometry] = []
    for feature in terrain:
        shape = feature_shape(feature)
        if feature.kind == "road":
            road_parts.append(shape.buffer(_road_width(feature) / 2))
        elif feature.linear:
            times = _crossings(line, shape)
            if times:
                crossings.append(Crossing(feature.id, feature.kind, times))
        else:
            length = float(line.intersection(shape).length)
            if length > EPSILON:
                inside.append(Inside(feature.id, feature.kind, length))
    road = float(line.intersection(_union(road_parts)).length) if road_parts else 0.0
    return PathReport(tuple(points), float(line.length), tuple(inside), tuple(crossings), road)


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
    screens = [(f.id, feature_shape(f)) for f in terrain if f.kind in blocking_kinds]
    screens = [(key, shape) for key, shape in screens if not shape.covers(ShapelyPoint(eye))]
    # Shrunk a hair so a sight line grazing a unit's edge is not blocked by it.
    bodies = [(key, other.polygon.buffer(-EPSILON * 10)) for key, other in others]
    aims = ((target.x, target.y), *target.corners())
    blocked: set[str] = set()
    clear = 0
    for aim in aims:
        hits = _blockers(LineString([eye, aim]), screens, see_into) + _blockers(
            LineString([eye, aim]), bodies, 0.0
        )
        blocked.update(hits)
        clear += not hits
    return Sight(clear, len(aims), tuple(sorted(blocked)))


def _blockers(
    line: LineString, shapes: Sequence[tuple[str, BaseGeometry]], allowance: float
) -> list[str]:
    return [key for key, shape in shapes if line.intersection(shape).length > allowance + EPSILON]
