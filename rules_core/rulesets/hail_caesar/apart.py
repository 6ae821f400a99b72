"""A cheap exact test that a move cannot pass through a unit, asked before shapely builds the
ground the move sweeps: a unit moving from one pose to the next sweeps the convex hull of both
footprints, and two convex shapes whose shadows on some line do not meet share no ground.

Nothing here changes what a rule decides: a unit found apart would have shared no area with
the swept ground (``geometry.interpenetrated`` drops it), so leaving it out changes no answer.
"""

from __future__ import annotations

from rules_core.geometry import Footprint, Point


def swept_apart(start: Footprint, end: Footprint, other: Footprint) -> bool:
    """True if a line separates the ground swept from ``start`` to ``end`` from ``other``
    (their shadows on it are disjoint); False when none of the lines tried does."""
    mine = (*start.corners(), *end.corners())
    theirs = other.corners()
    return any(_disjoint(mine, theirs, axis) for axis in _axes(start, end, other))


def _axes(start: Footprint, end: Footprint, other: Footprint) -> list[Point]:
    """The lines to try: across the move (the swept ground's long sides run along it), then
    the sides of each footprint (enough for any two upright or turned rectangles)."""
    dx, dy = end.x - start.x, end.y - start.y
    found = [(-dy, dx)] if dx or dy else []
    return [*found, other.forward, other.right, start.forward, start.right, end.forward, end.right]


def _disjoint(mine: tuple[Point, ...], theirs: tuple[Point, ...], axis: Point) -> bool:
    """True if the two point sets' shadows on ``axis`` do not meet."""
    ax, ay = axis
    a = [x * ax + y * ay for x, y in mine]
    b = [x * ax + y * ay for x, y in theirs]
    return min(b) > max(a) or min(a) > max(b)
