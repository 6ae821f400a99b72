"""Terrain and positions typed by users: coordinates parsed and checked against the table."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from shapely.geometry import LineString, Polygon

from bot.errors import InvalidInput
from bot.services.numbers import check_finite
from rules_core.state import (
    LINEAR_KINDS,
    TERRAIN_KINDS,
    Battlefield,
    BattleState,
    Point,
    TerrainFeature,
)

SHAPES = ("polygon", "line", "circle", "rectangle")
_PAIR = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$")
CIRCLE_POINTS = 16
FEWEST_POINTS = {"line": 2, "polygon": 3}  # what TerrainFeature takes for a line or an area
ZOOM_FRACTION = 12  # the smallest zoom is a twelfth of the table's longer side, each way


def parse_point(text: str, what: str = "position") -> Point:
    """``x,y`` as a point, or InvalidInput saying what was expected."""
    match = _PAIR.match(text)
    if match is None:
        raise InvalidInput(f"Malformed {what} `{text}`: write it as `x,y`, for example `12,4.5`.")
    x, y = float(match.group(1)), float(match.group(2))
    check_finite(x=x, y=y)  # 400 digits read as infinity
    return (x, y)


def parse_points(text: str) -> tuple[Point, ...]:
    """Space-separated ``x,y`` pairs, e.g. ``10,12 20,12 20,18``."""
    parts = text.split()
    if not parts:
        raise InvalidInput("No coordinates given: write points as `x,y x,y …`.")
    return tuple(parse_point(part, f"point {index}") for index, part in enumerate(parts, 1))


def zoom_area(text: str, field: Battlefield) -> tuple[float, float, float, float]:
    """Two corners ``x0,y0 x1,y1`` as an area within the table, no smaller than it can draw."""
    corners = parse_points(text)
    if len(corners) != 2:
        raise InvalidInput("Zoom to an area with two corners: `x0,y0 x1,y1`.")
    (x0, y0), (x1, y1) = corners
    area = (
        max(0.0, min(x0, x1)),
        max(0.0, min(y0, y1)),
        min(field.width, max(x0, x1)),
        min(field.depth, max(y0, y1)),
    )
    smallest = max(field.width, field.depth) / ZOOM_FRACTION
    if area[2] - area[0] < smallest or area[3] - area[1] < smallest:
        raise InvalidInput(
            f"Zoom to an area at least {smallest:g} by {smallest:g} on the table "
            f"({field.width:g} by {field.depth:g})."
        )
    return area


def parse_numbers(text: str, count: int, what: str) -> tuple[float, ...]:
    """``count`` positive numbers separated by commas (a radius, or width,depth)."""
    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        values = ()
    if len(values) != count or any(v <= 0 or not math.isfinite(v) for v in values):
        example = "3" if count == 1 else "8,4"
        raise InvalidInput(
            f"Malformed {what} `{text}`: give {count} positive number(s), e.g. `{example}`."
        )
    return values


@dataclass(frozen=True)
class TypedTerrain:
    """A piece of terrain as a GM typed it, for /battle and /gm terrain add: ``at`` holds the
    points of a polygon or line or the centre of a circle or rectangle, ``size`` a circle's
    radius or a rectangle's ``width,depth``; ``name`` is shown on the map."""

    kind: str
    shape: str
    at: str
    size: str | None = None
    name: str | None = None

    def outline(self) -> tuple[Point, ...]:
        """Its outline (or line), checked: see terrain_points."""
        return terrain_points(self.kind, self.shape, self.at, self.size)


def terrain_points(kind: str, shape: str, at: str, size: str | None) -> tuple[Point, ...]:
    """The outline (or line) of a terrain piece from the typed kind, shape, position and size."""
    if kind not in TERRAIN_KINDS:
        raise InvalidInput(f"Unknown terrain `{kind}`: use one of {', '.join(TERRAIN_KINDS)}.")
    if shape not in SHAPES:
        raise InvalidInput(f"Unknown shape `{shape}`: use one of {', '.join(SHAPES)}.")
    linear = kind in LINEAR_KINDS
    if linear != (shape == "line"):
        need = "`line`" if linear else "`polygon`, `circle` or `rectangle`"
        raise InvalidInput(f"A {kind.replace('_', ' ')} is drawn with the shape {need}.")
    if shape in FEWEST_POINTS:
        points = parse_points(at)
        if len(points) < FEWEST_POINTS[shape]:
            raise InvalidInput(
                f"A {shape} needs at least {FEWEST_POINTS[shape]} points; you gave {len(points)}."
            )
        return points
    centre = parse_point(at, "centre")
    if shape == "circle":
        (radius,) = parse_numbers(size or "", 1, "radius")
        return circle(centre, radius)
    width, depth = parse_numbers(size or "", 2, "size")
    return rectangle(centre, width, depth)


def laid_feature(
    state: BattleState, kind: str, points: tuple[Point, ...], title: str | None
) -> TerrainFeature:
    """A new terrain piece, numbered after the table's others and titled by its kind unless
    named, refused if it leaves the table."""
    number = next_number(f.id for f in state.terrain)
    shown = title if title is not None else kind.replace("_", " ").title()
    feature = TerrainFeature(f"t{number}", kind, points, shown)
    check_on_table(points, state.battlefield, feature.linear)
    return feature


def next_number(ids: Iterable[str]) -> int:
    """The number after the highest of ids like ``t3`` (1 when there is none)."""
    numbers = [int(i[1:]) for i in ids if i[1:].isdigit()]
    return max(numbers, default=0) + 1


def circle(centre: Point, radius: float) -> tuple[Point, ...]:
    """A circle as a 16-sided polygon, rounded to hundredths."""
    cx, cy = centre
    return tuple(
        (round(cx + radius * math.cos(a), 2), round(cy + radius * math.sin(a), 2))
        for a in (2 * math.pi * i / CIRCLE_POINTS for i in range(CIRCLE_POINTS))
    )


def rectangle(centre: Point, width: float, depth: float) -> tuple[Point, ...]:
    """An axis-aligned rectangle around a centre."""
    cx, cy = centre
    w, d = width / 2, depth / 2
    return ((cx - w, cy - d), (cx + w, cy - d), (cx + w, cy + d), (cx - w, cy + d))


def check_on_table(points: tuple[Point, ...], field: Battlefield, linear: bool) -> None:
    """Refuse a shape that leaves the table or does not make a proper line or area."""
    off = [p for p in points if not (0 <= p[0] <= field.width and 0 <= p[1] <= field.depth)]
    if off:
        x, y = off[0]
        raise InvalidInput(
            f"({x:g}, {y:g}) is off the table, which is {field.width:g} by {field.depth:g} "
            f"{field.measure}."
        )
    if linear:
        if len(points) < 2 or LineString(points).length == 0:
            raise InvalidInput("A line needs at least two different points.")
        return
    if len(points) < 3 or not Polygon(points).is_valid or Polygon(points).area == 0:
        raise InvalidInput("An area needs at least three points that do not cross or fold.")
