"""Geometry of the table: footprints as rotated rectangles, zones, distances and contact.

Coordinates are in the ruleset's measure with the origin at one corner of the table. Facing
is in compass degrees: 0 faces +y, 90 faces +x. A footprint's position is its centre.
"""

from __future__ import annotations

import itertools
import math
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import Any, Protocol, TypeVar

import numpy
from shapely import LineString, Polygon, unary_union
from shapely.geometry.base import BaseGeometry

Point = tuple[float, float]
EPSILON = 1e-6  # rounding slack for "touching" and "exactly at distance"
# Footprints overlapping less deep than this touch: positions are rounded to 0.001.
TOUCH = 1e-3
EDGES = ("front", "rear", "left", "right")
KEPT = "_footprint"  # where Footprint.of keeps a placed thing's footprint (as cached_property)
BOX_SLACK = 1e-9  # float noise between our corners and shapely's bounds


class Placed(Protocol):
    """Anything with a footprint's fields, such as a ``Unit``."""

    @property
    def x(self) -> float:
        """The centre's x."""

    @property
    def y(self) -> float:
        """The centre's y."""

    @property
    def facing(self) -> float:
        """The compass heading its front faces."""

    @property
    def frontage(self) -> float:
        """Its width."""

    @property
    def depth(self) -> float:
        """Its depth, front to back."""


@dataclass(frozen=True)
class Footprint:
    """A unit's base on the table: centre, facing, frontage (width) and depth."""

    x: float
    y: float
    facing: float
    frontage: float
    depth: float

    @classmethod
    def of(cls, placed: Placed) -> Footprint:
        """The footprint of a unit (or anything placed like one), shared while it stays put."""
        fields = getattr(placed, "__dict__", None)
        found: Footprint | None = None if fields is None else fields.get(KEPT)
        if found is not None and cls is Footprint:
            return found  # only ever kept beside a frozen thing's fields
        if cls is not Footprint:
            return cls(placed.x, placed.y, placed.facing, placed.frontage, placed.depth)
        kept = fields if _frozen(placed) else None
        if kept is None:
            return _footprint(placed.x, placed.y, placed.facing, placed.frontage, placed.depth)
        if found is None:  # a frozen unit never moves: its footprint is kept beside its fields
            found = _footprint(placed.x, placed.y, placed.facing, placed.frontage, placed.depth)
            kept[KEPT] = found
        return found

    @cached_property
    def forward(self) -> Point:
        """Unit vector the footprint faces."""
        angle = math.radians(self.facing)
        return (_clean(math.sin(angle)), _clean(math.cos(angle)))

    @cached_property
    def right(self) -> Point:
        """Unit vector to the footprint's right."""
        fx, fy = self.forward
        return (fy, -fx)

    def at(self, forward: float, right: float) -> Point:
        """The table point ``forward`` ahead of and ``right`` to the right of the centre."""
        (fx, fy), (rx, ry) = self.forward, self.right
        return (self.x + fx * forward + rx * right, self.y + fy * forward + ry * right)

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Front-left, front-right, rear-right and rear-left corners."""
        return self._corners

    @cached_property
    def _corners(self) -> tuple[Point, Point, Point, Point]:
        """The corners, worked out once (a footprint never moves; shapes ask them often)."""
        d, w = self.depth / 2, self.frontage / 2
        return (self.at(d, -w), self.at(d, w), self.at(-d, w), self.at(-d, -w))

    @cached_property
    def polygon(self) -> Polygon:
        """The footprint as a shapely polygon."""
        return Polygon(self.corners())

    @cached_property
    def bounds(self) -> tuple[float, float, float, float]:
        """The smallest upright box around the footprint: min x, min y, max x, max y."""
        xs, ys = [c[0] for c in self.corners()], [c[1] for c in self.corners()]
        return (min(xs), min(ys), max(xs), max(ys))

    def edge(self, name: str) -> LineString:
        """One edge: ``front``, ``rear``, ``left`` or ``right`` (built once: shapely geometry
        is immutable, and a footprint never moves)."""
        found = self._edges.get(name)
        if found is None:
            fl, fr, rr, rl = self.corners()
            ends = {"front": (fl, fr), "rear": (rl, rr), "left": (rl, fl), "right": (rr, fr)}
            found = self._edges[name] = LineString(ends[name])
        return found

    @cached_property
    def _edges(self) -> dict[str, LineString]:
        """The edges built so far, by name."""
        return {}

    @property
    def front_centre(self) -> Point:
        """The middle of the front edge, where a unit sees and measures from."""
        return self.at(self.depth / 2, 0.0)

    def local(self, point: Point) -> Point:
        """A table point as (right, forward) offsets from the centre."""
        dx, dy = point[0] - self.x, point[1] - self.y
        (fx, fy), (rx, ry) = self.forward, self.right
        return (dx * rx + dy * ry, dx * fx + dy * fy)

    def moved_to(self, point: Point, facing: float | None = None) -> Footprint:
        """The same footprint centred on ``point``, optionally turned to ``facing``."""
        turned = self.facing if facing is None else facing % 360
        if type(self) is not Footprint:
            return replace(self, x=point[0], y=point[1], facing=turned)
        return Footprint(point[0], point[1], turned, self.frontage, self.depth)  # as replace

    def advanced(self, distance: float) -> Footprint:
        """The footprint moved straight ahead by ``distance`` (backwards if negative)."""
        return self.moved_to(self.at(distance, 0.0))


@lru_cache(maxsize=16_384, typed=True)
def _footprint(x: float, y: float, facing: float, frontage: float, depth: float) -> Footprint:
    """One footprint per placement, so its polygon is built once however often it is asked."""
    return Footprint(x, y, facing, frontage, depth)


def _frozen(placed: Placed) -> bool:
    """Whether a placed thing is a frozen dataclass, whose fields never change."""
    kind = type(placed)
    found = _FROZEN_TYPES.get(kind)
    if found is None:
        params = getattr(kind, "__dataclass_params__", None)
        found = _FROZEN_TYPES[kind] = bool(params is not None and params.frozen)
    return found


_FROZEN_TYPES: dict[type, bool] = {}


def boxes_apart(a: Footprint, b: Footprint, gap: float) -> bool:
    """True if the footprints' upright boxes are more than ``gap`` apart (so are they)."""
    (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = a.bounds, b.bounds
    slack = gap + BOX_SLACK
    return bx0 - ax1 > slack or ax0 - bx1 > slack or by0 - ay1 > slack or ay0 - by1 > slack


def _clean(value: float) -> float:
    """Snap sin/cos noise such as 6e-17 to exact 0, 1 or -1 so right angles stay exact."""
    for exact in (0.0, 1.0, -1.0):
        if abs(value - exact) < 1e-12:
            return exact
    return value


def facing_towards(origin: Point, target: Point) -> float:
    """The compass facing from ``origin`` towards ``target``."""
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    return math.degrees(math.atan2(dx, dy)) % 360


def distance(a: Point, b: Point) -> float:
    """Straight-line distance between two points."""
    return math.hypot(b[0] - a[0], b[1] - a[1])


def quarter(footprint: Footprint, point: Point) -> str:
    """Which quarter of a footprint a point lies in, split by the diagonals through its corners.

    Returns ``front``, ``rear``, ``left`` or ``right``; a point on a diagonal counts as front
    or rear.
    """
    across, ahead = footprint.local(point)
    half_w, half_d = footprint.frontage / 2, footprint.depth / 2
    if abs(across) * half_d <= abs(ahead) * half_w + EPSILON:
        return "front" if ahead >= 0 else "rear"
    return "right" if across > 0 else "left"


def zone(footprint: Footprint, edge: str, reach: float) -> Polygon:
    """The strip ``reach`` deep beyond one edge, as wide as that edge."""
    d, w = footprint.depth / 2, footprint.frontage / 2
    strips = {
        "front": ((d, -w), (d, w), (d + reach, w), (d + reach, -w)),
        "rear": ((-d, -w), (-d, w), (-d - reach, w), (-d - reach, -w)),
        "left": ((d, -w), (-d, -w), (-d, -w - reach), (d, -w - reach)),
        "right": ((d, w), (-d, w), (-d, w + reach), (d, w + reach)),
    }
    return Polygon([footprint.at(ahead, across) for ahead, across in strips[edge]])


def edge_distance(a: Footprint, b: Footprint) -> float:
    """The shortest distance between the edges of two footprints (0 if they touch)."""
    return float(a.polygon.distance(b.polygon))


def within(distance: float, reach: float) -> bool:
    """Whether a measured distance is within ``reach``: exactly at it counts, up to the shared
    tolerance ``EPSILON``, since moves that stop at a distance stop exactly there."""
    return distance <= reach + EPSILON


def within_to_front(footprint: Footprint, other: Footprint, reach: float) -> bool:
    """True if ``other`` is within ``reach`` of ``footprint`` in the strip before its front."""
    if boxes_apart(footprint, other, reach + EPSILON):
        return False  # the strip lies inside the footprint's box widened by the reach
    return bool(zone(footprint, "front", reach + EPSILON).intersects(other.polygon))


def in_contact(a: Footprint, b: Footprint) -> bool:
    """True if the footprints touch without overlapping."""
    if boxes_apart(a, b, EPSILON):
        return False
    return edge_distance(a, b) <= EPSILON and overlap_area(a, b) <= EPSILON


def contact_edge(a: Footprint, b: Footprint) -> str | None:
    """The edge of ``a`` that ``b`` touches along the greatest length, or None."""
    if boxes_apart(a, b, EPSILON) or edge_distance(a, b) > EPSILON:
        return None
    near = b.polygon.buffer(EPSILON * 10)
    lengths = {name: a.edge(name).intersection(near).length for name in EDGES}
    best = max(EDGES, key=lambda name: lengths[name])
    return best if lengths[best] > EPSILON * 100 else None


def range_from_front(shooter: Footprint, target: Footprint) -> float:
    """The range from the shooter's front edge to the nearest part of the target."""
    return float(shooter.edge("front").distance(target.polygon))


def overlap_area(a: Footprint, b: Footprint) -> float:
    """The area two footprints share."""
    if boxes_apart(a, b, 0.0):
        return 0.0
    return float(a.polygon.intersection(b.polygon).area)


def penetration(a: Footprint, b: Footprint) -> float:
    """How deep two footprints overlap: the least push along any of their edges' axes that
    parts them (0 if they are apart or only touch)."""
    if boxes_apart(a, b, 0.0):
        return 0.0
    depth = math.inf
    for axis in (a.forward, a.right, b.forward, b.right):
        mine = [x * axis[0] + y * axis[1] for x, y in a.corners()]
        theirs = [x * axis[0] + y * axis[1] for x, y in b.corners()]
        depth = min(depth, min(max(mine), max(theirs)) - max(min(mine), min(theirs)))
        if depth <= 0:
            return 0.0
    return depth


def overlapping(a: Footprint, b: Footprint) -> bool:
    """True if two footprints overlap deeper than ``TOUCH``: positions rounded to 0.001 that
    meet edge to edge touch rather than overlap (so do two that each rounded 0.0005 towards
    the other). The one test of "on another unit"."""
    return penetration(a, b) > TOUCH + EPSILON


def swept_area(poses: Sequence[Footprint]) -> BaseGeometry:
    """The ground a footprint covers moving through successive poses along a path."""
    legs = [
        unary_union([start.polygon, end.polygon]).convex_hull
        for start, end in itertools.pairwise(poses)
    ]
    return unary_union(legs or [poses[0].polygon])


def interpenetrated(
    poses: Sequence[Footprint], others: Iterable[tuple[str, Footprint]]
) -> tuple[str, ...]:
    """Ids of the footprints a move through ``poses`` would pass through (not merely touch)."""
    others = list(others)
    x0, y0, x1, y1 = around(poses)  # the ground's box, from the same corners
    loose = (x0 - EPSILON, y0 - EPSILON, x1 + EPSILON, y1 + EPSILON)
    if not any(_box_meets(other.bounds, loose) for _, other in others):
        return ()  # nothing near: no need to build the ground
    ground = swept_area(poses)
    x0, y0, x1, y1 = ground.bounds
    return tuple(
        key
        for key, other in others
        if _box_meets(other.bounds, (x0, y0, x1, y1))
        and ground.intersection(other.polygon).area > EPSILON
    )


def _box_meets(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """True if two upright boxes overlap or touch (within float noise)."""
    return not (
        b[0] - a[2] > BOX_SLACK
        or a[0] - b[2] > BOX_SLACK
        or b[1] - a[3] > BOX_SLACK
        or a[1] - b[3] > BOX_SLACK
    )


# -- finding placed things near a box ----------------------------------------------------------

Box = tuple[float, float, float, float]
P = TypeVar("P", bound=Placed)
INDEXED = 24  # from this many placed things, their boxes are kept as arrays and tested at once


def near(placed: tuple[P, ...], area: Box, gap: float = 0.0) -> list[P]:
    """The placed things whose footprints' boxes are at most ``gap`` from ``area`` (and a few
    more: a box test only ever narrows what an exact test then looks at), in tuple order.

    A state's units are a tuple that never changes: the boxes of one asked about more than
    once are kept as arrays (by the tuple's identity, holding the tuple so that the id is not
    reused while kept) and tested in one vectorised step.
    """
    reach = gap + 2 * EPSILON
    grown = (area[0] - reach, area[1] - reach, area[2] + reach, area[3] + reach)
    boxes = _boxes(placed) if len(placed) >= INDEXED else None
    if boxes is None:
        return [p for p in placed if _box_meets(Footprint.of(p).bounds, grown)]
    x0, y0, x1, y1 = boxes
    apart = (
        (grown[0] - x1 > BOX_SLACK)
        | (x0 - grown[2] > BOX_SLACK)
        | (grown[1] - y1 > BOX_SLACK)
        | (y0 - grown[3] > BOX_SLACK)
    )
    return [placed[i] for i in numpy.flatnonzero(~apart).tolist()]


def around(poses: Iterable[Footprint]) -> Box:
    """The upright box around some footprints."""
    boxes = [pose.bounds for pose in poses]
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


Boxes = numpy.ndarray[Any, numpy.dtype[numpy.float64]]
# Boxes kept for a tuple from which it was made by changing some slots: those slots' rows
# are made again from the tuple, the others are the kept boxes' rows.
Lineage = tuple[Boxes, frozenset[int]]
_Kept = tuple[tuple[Placed, ...], int, Boxes | None, Lineage | None]
_KEPT_BOXES: OrderedDict[int, _Kept] = OrderedDict()
_KEPT_BOXES_SIZE = 64
_KEPT_BOXES_LOCK = threading.Lock()
BUILD_AFTER = 2  # a tuple asked this often is likely to be asked again: its boxes are kept
MAX_CHANGED = 32  # past this many changed slots, the boxes are made again from every one


def _boxes(placed: tuple[Placed, ...]) -> Boxes | None:
    """The footprints' boxes of a tuple of placed things as four arrays (min x, min y, max x,
    max y), kept; None while the tuple has been asked about too rarely for them to pay
    (within a resolution each move makes a new tuple, often asked only once), unless it was
    made from a tuple whose boxes are kept (``follow``)."""
    key = id(placed)
    with _KEPT_BOXES_LOCK:
        found = _KEPT_BOXES.get(key)
        if found is not None and found[0] is not placed:
            found = None
        asked = 1 if found is None else found[1] + 1
        kept = None if found is None else found[2]
        lineage = None if found is None else found[3]
        if kept is not None:
            _KEPT_BOXES.move_to_end(key)
            return kept
        if lineage is None and asked < BUILD_AFTER:
            _keep_boxes(key, (placed, asked, None, None))
            return None
    if lineage is None:
        made = numpy.array([Footprint.of(p).bounds for p in placed], dtype=numpy.float64).T
    else:
        made = lineage[0].copy()
        for slot in lineage[1]:
            made[:, slot] = Footprint.of(placed[slot]).bounds
    with _KEPT_BOXES_LOCK:
        _keep_boxes(key, (placed, asked, made, None))
    return made


def follow(parent: tuple[Placed, ...], child: tuple[Placed, ...], slot: int) -> None:
    """Note that ``child`` is ``parent`` with one slot changed: if the parent's boxes are
    kept, the child's are made from them (that row made again) when first asked for."""
    if len(child) < INDEXED or len(child) != len(parent):
        return
    with _KEPT_BOXES_LOCK:
        found = _KEPT_BOXES.get(id(parent))
        if found is None or found[0] is not parent:
            return
        if found[2] is not None:
            lineage: Lineage = (found[2], frozenset((slot,)))
        elif found[3] is not None and len(found[3][1]) < MAX_CHANGED:
            lineage = (found[3][0], found[3][1] | {slot})
        else:
            return
        _keep_boxes(id(child), (child, 0, None, lineage))


def _keep_boxes(key: int, entry: _Kept) -> None:
    """Remember an entry (the lock held), forgetting the oldest beyond the size."""
    _KEPT_BOXES[key] = entry
    _KEPT_BOXES.move_to_end(key)
    while len(_KEPT_BOXES) > _KEPT_BOXES_SIZE:
        _KEPT_BOXES.popitem(last=False)
