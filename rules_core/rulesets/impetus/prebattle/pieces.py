"""The geometry of terrain pieces: their outlines, where one may stand, a free spot."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from shapely import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from rules_core.codec import Json
from rules_core.rulesets.impetus.prebattle.reading import num
from rules_core.rulesets.impetus.status import (
    ROLE,
)
from rules_core.rulesets.impetus.terrain_tables import (
    Feature,
)
from rules_core.state import BattleState, Point, TerrainFeature
from rules_core.terrain import feature_shape


def piece_size(feature: Feature, params: Mapping[str, Json]) -> tuple[float, float]:
    """The length and width of a piece of the feature's size."""
    size = feature.size or "small"
    return num(params, f"{size}_length"), num(params, f"{size}_width")


def _oval(
    at: Point, length: float, width: float, facing: float, corners: int = 16
) -> tuple[Point, ...]:
    """An oval of ``length`` along the compass ``facing`` and ``width`` across it."""
    return _rotated(
        at,
        facing,
        [
            (
                math.cos(2 * math.pi * i / corners) * width / 2,
                math.sin(2 * math.pi * i / corners) * length / 2,
            )
            for i in range(corners)
        ],
    )


def box(at: Point, length: float, width: float, facing: float) -> tuple[Point, ...]:
    """A rectangle of ``length`` along the compass ``facing`` and ``width`` across it."""
    half_l, half_w = length / 2, width / 2
    return _rotated(
        at, facing, [(-half_w, -half_l), (half_w, -half_l), (half_w, half_l), (-half_w, half_l)]
    )


def _rotated(at: Point, facing: float, local: Sequence[Point]) -> tuple[Point, ...]:
    """Points given across (x) and along (y) a compass ``facing``, on the table."""
    rad = math.radians(facing)
    ahead = (math.sin(rad), math.cos(rad))
    right = (math.cos(rad), -math.sin(rad))
    return tuple(
        (
            round(at[0] + x * right[0] + y * ahead[0], 3),
            round(at[1] + x * right[1] + y * ahead[1], 3),
        )
        for x, y in local
    )


def _line_across(state: BattleState, at: Point, facing: float) -> tuple[Point, ...] | None:
    """The straight line through ``at`` along the compass ``facing``, from table edge to
    table edge; None if it does not cross the table."""
    field = state.battlefield
    rad = math.radians(facing)
    dx, dy = math.sin(rad), math.cos(rad)
    ts: list[float] = []
    for edge, d, origin in (
        (0.0, dx, at[0]),
        (field.width, dx, at[0]),
        (0.0, dy, at[1]),
        (field.depth, dy, at[1]),
    ):
        if abs(d) > 1e-9:
            ts.append((edge - origin) / d)
    hits = []
    for t in ts:
        x, y = at[0] + t * dx, at[1] + t * dy
        if -1e-6 <= x <= field.width + 1e-6 and -1e-6 <= y <= field.depth + 1e-6:
            hits.append((t, (round(x, 3), round(y, 3))))
    hits.sort()
    if len(hits) < 2 or math.dist(hits[0][1], hits[-1][1]) < 1e-6:
        return None
    return (hits[0][1], hits[-1][1])


def outline(
    state: BattleState, feature: Feature, at: Point, facing: float, params: Mapping[str, Json]
) -> tuple[Point, ...] | None:
    """The points of ``feature`` placed at ``at`` along ``facing`` (None: it does not fit)."""
    if feature.linear:
        return _line_across(state, at, facing)
    if feature.crossing:
        river = water_at(state, at)
        across = facing if river is None else _across(river, at)
        width = num(params, "river_width") + 2.0
        return box(at, width, num(params, "crossing_width"), across)
    length, width = piece_size(feature, params)
    if feature.kind == "village":
        return box(at, length, width, facing)
    return _oval(at, length, width, facing)


def water_at(state: BattleState, at: Point) -> TerrainFeature | None:
    """The river or stream within 0.5 of ``at``, if any."""
    spot = ShapelyPoint(at)
    for feature in state.terrain:
        if feature.kind in ("river", "stream") and feature_shape(feature).distance(spot) <= 0.5:
            return feature
    return None


def _across(river: TerrainFeature, at: Point) -> float:
    """The compass facing across a river at the point nearest ``at``."""
    (x1, y1), (x2, y2) = river.points[0], river.points[-1]
    along = math.degrees(math.atan2(x2 - x1, y2 - y1))
    return (along + 90.0) % 360.0


def _shape(feature: TerrainFeature, params: Mapping[str, Json]) -> BaseGeometry:
    """A feature as ground: a road or river with its width."""
    shape = feature_shape(feature)
    if feature.kind in ("road", "river", "stream"):
        width = num(params, "road_width" if feature.kind == "road" else "river_width")
        return shape.buffer(width / 2)
    return shape


def placement_problem(
    state: BattleState,
    side: str,
    feature: Feature,
    at: Point,
    facing: float,
    params: Mapping[str, Json],
    moving: str | None = None,
) -> str | None:
    """Why ``feature`` may not be placed (or an enemy piece ``moving`` moved) at ``at``, or
    None if it may."""
    points = outline(state, feature, at, facing, params)
    if points is None:
        return f"a {feature.label.lower()} through ({at[0]:g}, {at[1]:g}) does not cross the table"
    field = state.battlefield
    if not feature.linear and not all(
        -1e-6 <= x <= field.width + 1e-6 and -1e-6 <= y <= field.depth + 1e-6 for x, y in points
    ):
        return f"a {feature.label.lower()} at ({at[0]:g}, {at[1]:g}) would not fit on the table"
    river = water_at(state, at) if feature.crossing else None
    if feature.crossing and river is None:
        where = f"({at[0]:g}, {at[1]:g})"
        return f"a {feature.label.lower()} goes over a river, and there is none at {where}"
    others = [f for f in state.terrain if f.id != moving]
    if feature.kind == "river" and any(f.kind == "river" for f in others):
        return "there is a river already: one river a battlefield"
    probe = TerrainFeature(
        "new",
        feature.kind or "rough",
        points,
        feature.label,
        {"width": 1.0} if feature.linear else {},
    )
    shape = _shape(probe, params)
    if not feature.linear and not feature.crossing:
        for other in others:
            if (
                not other.linear
                and other.kind not in ("bridge", "ford")
                and shape.intersects(feature_shape(other))
                and shape.intersection(feature_shape(other)).area > 1e-6
            ):
                return f"it would overlap {other.name or other.id}"
    if role_of(state, side) == "attacker" and moving is None:
        gap = num(params, "attacker_gap")
        for other in others:
            if river is not None and other.id == river.id:
                continue
            distance = shape.distance(_shape(other, params))
            if distance < gap - 1e-6:
                return (
                    f"the attacker's terrain stands at least {gap:g} H from other terrain: "
                    f"{other.name or other.id} is {distance:.1f} H away"
                )
    return None


def role_of(state: BattleState, side: str) -> str:
    """The side's role (attacker or defender) as step 1 set it."""
    return ROLE.of(state.side(side))


def free_spot(
    state: BattleState,
    side: str,
    feature: Feature,
    facing: float,
    params: Mapping[str, Json],
    near: Point | None = None,
    moving: str | None = None,
) -> Point | None:
    """The free spot nearest ``near`` (default the table's centre) where the feature may go."""
    field = state.battlefield
    near = near or (field.width / 2, field.depth / 2)
    spots = [
        (float(x), float(y)) for x in range(1, int(field.width)) for y in range(1, int(field.depth))
    ]
    spots.sort(key=lambda p: (math.dist(p, near), p))
    for spot in spots:
        if placement_problem(state, side, feature, spot, facing, params, moving) is None:
            return spot
    return None


def terrain_id(state: BattleState) -> str:
    """A terrain id no piece has yet: ``t`` and a number."""
    taken = {f.id for f in state.terrain}
    n = len(state.terrain) + 1
    while f"t{n}" in taken:
        n += 1
    return f"t{n}"


def enemy_terrain(state: BattleState, side: str) -> list[TerrainFeature]:
    """The pieces the enemy placed (the Mtd table's 10-11 moves one, its 12 removes one)."""
    return [
        f
        for f in state.terrain
        if f.properties.get("placed_by") not in (None, side)
        and f.properties.get("placed_by") != "baggage"
    ]


def find_terrain(state: BattleState, text: str) -> TerrainFeature | None:
    """The terrain piece whose id or name is ``text`` (any case), if any."""
    wanted = text.strip().lower()
    return next((f for f in state.terrain if wanted in (f.id.lower(), f.name.lower())), None)
