"""Whether a point stands in a terrain feature, asked of many units against every feature.

A point outside the box around a feature's outline is not in it: that cheap test comes
first, and only a point inside the box is tested against the feature's shapely shape (the
same answer as testing every feature's shape, found without building a point for each).
"""

from __future__ import annotations

import math

from shapely.geometry import Point as ShapelyPoint

from rules_core.geometry import BOX_SLACK
from rules_core.state import TerrainFeature
from rules_core.terrain import feature_shape

Box = tuple[float, float, float, float]

# Each feature's outline box, kept by the feature's identity (the feature is held, so its id
# is not reused while kept): terrain stays put while a battle goes on.
_BOXES: dict[int, tuple[TerrainFeature, Box]] = {}
_BOXES_MAX = 4_096


def box(feature: TerrainFeature) -> Box:
    """The upright box around the feature's points."""
    kept = _BOXES.get(id(feature))
    if kept is not None and kept[0] is feature:
        return kept[1]
    xs = [float(p[0]) for p in feature.points]
    ys = [float(p[1]) for p in feature.points]
    found = (
        (min(xs), min(ys), max(xs), max(ys)) if xs else (math.inf, math.inf, -math.inf, -math.inf)
    )
    if len(_BOXES) >= _BOXES_MAX:
        _BOXES.clear()
    _BOXES[id(feature)] = (feature, found)
    return found


def holds(feature: TerrainFeature, x: float, y: float) -> bool:
    """Whether the point (x, y) is in (or on) the feature's shape."""
    x0, y0, x1, y1 = box(feature)
    if x < x0 - BOX_SLACK or x > x1 + BOX_SLACK or y < y0 - BOX_SLACK or y > y1 + BOX_SLACK:
        return False
    return bool(feature_shape(feature).intersects(ShapelyPoint(x, y)))


def box_within(feature: TerrainFeature, x: float, y: float, reach: float) -> bool:
    """False when the point is surely further than ``reach`` from the feature (its box is)."""
    x0, y0, x1, y1 = box(feature)
    slack = reach + BOX_SLACK
    return not (x < x0 - slack or x > x1 + slack or y < y0 - slack or y > y1 + slack)


def box_covers(feature: TerrainFeature, bounds: Box, grown: float) -> bool:
    """False when ``bounds`` surely reach outside the feature grown by ``grown`` (they reach
    outside its box grown so)."""
    x0, y0, x1, y1 = box(feature)
    slack = grown + BOX_SLACK
    return not (
        bounds[0] < x0 - slack
        or bounds[1] < y0 - slack
        or bounds[2] > x1 + slack
        or bounds[3] > y1 + slack
    )
