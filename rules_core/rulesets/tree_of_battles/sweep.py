"""Which bases a move passes through, shapely asked only about those it may: a base apart
from the convex hull of every pose's corners is apart from the ground the move sweeps (that
ground lies inside the hull), so its overlap is nothing and it need not be built."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rules_core.geometry import Footprint, Point, interpenetrated

# Projections overlapping less than this on one axis leave a sliver under 1e-7 square SF
# on any table, below the EPSILON of area ``interpenetrated`` counts: nothing to measure.
SLIVER = 1e-9


def passed_through(
    poses: Sequence[Footprint], others: Sequence[tuple[str, Footprint]]
) -> tuple[str, ...]:
    """``geometry.interpenetrated(poses, others)``, leaving out first the bases that stand
    clear of the hull of the poses (the answer is the same)."""
    if not others:
        return ()
    hull = _hull([corner for pose in poses for corner in pose.corners()])
    near = [(key, other) for key, other in others if not _clear(hull, list(other.corners()))]
    return interpenetrated(poses, near) if near else ()


def _hull(points: list[Point]) -> list[Point]:
    """The convex hull of some points, counter-clockwise (Andrew's monotone chain)."""
    ordered = sorted(set(points))
    if len(ordered) < 3:
        return ordered

    def chain(run: list[Point]) -> list[Point]:
        found: list[Point] = []
        for p in run:
            while len(found) >= 2 and _turn(found[-2], found[-1], p) <= 0:
                found.pop()
            found.append(p)
        return found[:-1]

    return chain(ordered) + chain(ordered[::-1])


def _turn(o: Point, a: Point, b: Point) -> float:
    """The cross product of o→a and o→b: positive for a left turn."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _clear(a: list[Point], b: list[Point]) -> bool:
    """True if two convex outlines overlap by no more than a sliver along some edge's normal
    (separating axes: convex shapes apart on one axis are apart)."""
    for shape in (a, b):
        for p, q in zip(shape, shape[1:] + shape[:1], strict=True):
            length = math.hypot(q[0] - p[0], q[1] - p[1])
            if length == 0:
                continue
            nx, ny = (q[1] - p[1]) / length, (p[0] - q[0]) / length
            mine = [x * nx + y * ny for x, y in a]
            theirs = [x * nx + y * ny for x, y in b]
            if min(max(mine), max(theirs)) - max(min(mine), min(theirs)) <= SLIVER:
                return True
    return False
