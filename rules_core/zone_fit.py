"""Why a base does not fit its deployment zone, for a refusal: which part of it is out, by how
much, and where to put it instead.

A zone is a polygon; every zone so far is an upright rectangle (a band of y across the
table), for which the refusal says how far to move the base and to where. Any other shape
gets which corners are out and how far.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon

from rules_core.geometry import Footprint
from rules_core.state import Point

SLACK = 1e-9  # float noise allowed at the zone's edge (as the zone checks allow)
CORNERS = ("front-left", "front-right", "rear-right", "rear-left")  # Footprint.corners order
EDGES = {  # two neighbouring corners out: the edge between them
    frozenset({0, 1}): "front edge",
    frozenset({1, 2}): "right side",
    frozenset({2, 3}): "rear edge",
    frozenset({0, 3}): "left side",
}
AXES = (("x", 0, "west", "east"), ("y", 1, "south", "north"))


def explained(where: str, zone: Sequence[Point], pose: Footprint, measure: str) -> str:
    """``where`` (the zone in words) followed by how the base lies outside it, if it does."""
    detail = overhang(zone, pose, measure)
    return f"{where}: {detail}" if detail else where


def overhang(zone: Sequence[Point], pose: Footprint, measure: str) -> str:
    """How the base ``pose`` lies outside ``zone``: "its front edge reaches y=12.5, past the
    zone's edge at y=12; move it 0.5 inch south, to (30, 11.5)"; empty if it is inside."""
    corners = pose.corners()
    if _is_upright_box(zone):
        return _box_overhang(zone, pose, corners, measure)
    area = Polygon(zone)
    out = [i for i, c in enumerate(corners) if not area.buffer(SLACK).contains(ShapelyPoint(c))]
    if not out:
        return ""
    far = max(area.distance(ShapelyPoint(corners[i])) for i in out)
    return f"its {_part(out)} lies up to {_num(far)} {measure} outside; move it into the zone"


def _box_overhang(
    zone: Sequence[Point], pose: Footprint, corners: Sequence[Point], measure: str
) -> str:
    """The overhang past an upright rectangular zone, axis by axis, and the move that ends it."""
    out: set[int] = set()
    reaches, moves, fixes = [], [], []
    centre = [pose.x, pose.y]
    for name, axis, low_way, high_way in AXES:
        low, high = min(p[axis] for p in zone), max(p[axis] for p in zone)
        values = [c[axis] for c in corners]
        below = [i for i, v in enumerate(values) if v < low - SLACK]
        above = [i for i, v in enumerate(values) if v > high + SLACK]
        out.update(below, above)
        span = max(values) - min(values)
        if span > high - low + SLACK:
            fixes.append(_too_big(pose, name, span, high - low, measure))
        elif below or above:
            # the centre may lie from ``c + low - min`` to ``c + high - max``: go to the nearer
            room = (centre[axis] + low - min(values), centre[axis] + high - max(values))
            if below:
                reach, edge, way, target = min(values), low, high_way, _inward(*room, 1)
            else:
                reach, edge, way, target = max(values), high, low_way, _inward(*room[::-1], -1)
            reaches.append(f"{name}={_num(reach)}, past the zone's edge at {name}={_num(edge)}")
            moves.append(f"{_num(abs(target - centre[axis]))} {measure} {way}")
            centre[axis] = target
    if not out:
        return ""
    said = f"its {_part(sorted(out))} reaches {' and '.join(reaches)}" if reaches else ""
    if moves and not fixes:
        said += f"; move it {' and '.join(moves)}, to ({_num(centre[0])}, {_num(centre[1])})"
    return "; ".join(s for s in (said, *fixes) if s)


def _too_big(pose: Footprint, axis: str, span: float, room: float, measure: str) -> str:
    """A base wider (or deeper) along ``axis`` than the zone: turn it, if it fits turned."""
    said = (
        f"its base spans {_num(span)} {measure} of {axis} facing {_num(pose.facing)}°, "
        f"more than the zone's {_num(room)} {measure}"
    )
    if min(pose.frontage, pose.depth) <= room + SLACK:
        return f"{said}: turn it to fit"
    return f"{said}: it fits at no facing (a deeper table gives a deeper zone, up to the ruleset's)"


def _inward(edge: float, other: float, inward: int) -> float:
    """The centre at ``edge`` of its room in the zone, rounded to 0.01 towards ``other`` (the
    room's far end; ``inward`` +1 if it lies above), unless the rounding would pass it."""
    step = math.ceil if inward > 0 else math.floor
    rounded = step(round(edge * 100, 6)) / 100
    return rounded if (rounded - other) * inward <= 0 else edge


def _part(out: Sequence[int]) -> str:
    """The corners that are out, in words: a corner, an edge, or the whole base."""
    if len(out) == 4:
        return "whole base"
    if len(out) == 3:
        return "base but its " + CORNERS[({0, 1, 2, 3} - set(out)).pop()] + " corner"
    if len(out) == 2 and frozenset(out) in EDGES:
        return EDGES[frozenset(out)]
    return " and ".join(CORNERS[i] for i in out) + (" corners" if len(out) > 1 else " corner")


def _is_upright_box(zone: Sequence[Point]) -> bool:
    """Whether the zone is an upright rectangle (its area fills the box around it)."""
    xs, ys = [p[0] for p in zone], [p[1] for p in zone]
    box = (max(xs) - min(xs)) * (max(ys) - min(ys))
    return len(zone) >= 3 and box > 0 and abs(Polygon(zone).area - box) <= SLACK * max(1.0, box)


def _num(value: float) -> str:
    """A coordinate or distance to 0.01 (a zone a third of 10 inch deep ends at 3.33)."""
    return f"{round(value, 2) + 0.0:g}"
