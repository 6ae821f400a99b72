"""Terrain drawn by kind, so each piece reads without the legend: trees, contours, water, roofs.

Bands (rivers, roads) keep their true width on the table; marks inside areas (trees, tufts,
buildings) keep a fixed size in pixels so they stay recognisable at any scale.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import pairwise
from typing import Any

import numpy as np
import shapely
from shapely import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from bot.rendering.sketch import Sketch
from bot.rendering.style import RGB, TERRAIN_COLOURS, WHITE, shade
from bot.rendering.view import View
from rules_core.state import TerrainFeature
from rules_core.terrain import DEFAULT_ROAD_WIDTH
from rules_core.terrain_pieces import owner_of, piece_of

C = TERRAIN_COLOURS
PixelPoint = tuple[float, float]
Drawer = Callable[[Sketch, View, TerrainFeature, float], None]

# Kinds and pieces (``terrain_pieces.PIECES``) in the order they are drawn: ground first, then
# water, roads, buildings, camps, obstacles.
DRAW_ORDER = (
    "hill",
    "gentle_hill",
    "rough",
    "marsh",
    "wood",
    "dense_wood",
    "impassable",
    "river",
    "stream",
    "ford",
    "bridge",
    "road",
    "village",
    "baggage",
    "camp",
    "fortification",
    "linear_obstacle",
)
BAND_MM = {"river": 50.0, "stream": 20.0}  # drawn widths when a feature has no "width"
MIN_BAND_PX = {"river": 9.0, "stream": 5.0, "road": 6.0}
OBSTACLE_STYLES = ("hedge", "wall", "stakes", "fence")
PENNANT = (15.0, 22.0)  # px: an owned piece's pennant, its flag's length and its staff's height


def draw_terrain(
    draw: Sketch,
    view: View,
    terrain: Iterable[TerrainFeature],
    mm: float,
    owners: Mapping[str, RGB] | None = None,
) -> None:
    """Draw every feature as the piece it is, piece by piece in ``DRAW_ORDER``; ``mm`` is
    millimetres per measure. A piece a side owns flies a pennant in the side's colour from
    ``owners`` (side id to colour), so the key can say whose it is once."""
    rank = {kind: index for index, kind in enumerate(DRAW_ORDER)}
    for feature in sorted(terrain, key=lambda f: rank.get(piece_of(f), len(rank))):
        drawer = DRAWERS.get(piece_of(feature))
        if drawer is not None:
            drawer(draw, view, feature, mm)
        colour = (owners or {}).get(owner_of(feature) or "")
        if colour is not None and not feature.linear:
            draw_pennant(draw, _pennant_foot(_pixel_polygon(view, feature)), colour)


def draw_pennant(draw: Sketch, foot: PixelPoint, colour: RGB) -> None:
    """A staff with a pennant in a side's colour, standing at ``foot``: whose a piece is."""
    x, y = foot
    edge = shade(colour, 0.5)
    draw.line(((x, y), (x, y - PENNANT[1])), fill=C["fort_edge"], width=2)
    top = y - PENNANT[1]
    flag = ((x + 1, top), (x + PENNANT[0], top + 5), (x + 1, top + 10))
    draw.polygon(flag, fill=colour, outline=edge)


def _pennant_foot(shape: Polygon) -> PixelPoint:
    """Where an owned piece's pennant stands: inside its upper left corner, clear of the name
    written across its middle (its inmost point if the corner lies outside it)."""
    left, top, right, bottom = shape.bounds
    foot = (left + min(10.0, (right - left) / 4), top + min(PENNANT[1] + 4, (bottom - top) / 2))
    if shape.contains(shapely.Point(foot)):
        return foot
    inner = shape.representative_point()
    return (inner.x, inner.y)


def _camp_spots(shape: Polygon, margin: float, spacing: float, seed: str) -> list[PixelPoint]:
    """Where a camp's marks (wagons, tents) go: a grid inside it, clear of where a pennant
    stands; in a piece too small for that (a key's sample), one mark on its right."""
    x, y = _pennant_foot(shape)
    spots = [
        (a, b)
        for a, b in _grid_inside(shape.buffer(-margin), spacing, seed)
        if not (x - 8 < a < x + PENNANT[0] + 8 and y - PENNANT[1] - 10 < b < y + 8)
    ]
    _, top, right, bottom = shape.bounds
    return spots or [(right - 11, (top + bottom) / 2)]


def _pixel_polygon(view: View, feature: TerrainFeature) -> Polygon:
    return Polygon(view.pxs(feature.points))


def _rings(geometry: BaseGeometry) -> Iterator[list[PixelPoint]]:
    """The outer rings of a polygon or of each part of a multipolygon."""
    for part in getattr(geometry, "geoms", [geometry]):
        if isinstance(part, Polygon) and not part.is_empty:
            yield list(part.exterior.coords)


def _fill(draw: Sketch, geometry: BaseGeometry, fill: RGB, edge: RGB, width: int) -> None:
    for ring in _rings(geometry):
        draw.polygon(ring, fill=fill, outline=edge, width=width)


def _grid_inside(shape: BaseGeometry, spacing: float, seed: str) -> list[PixelPoint]:
    """A jittered grid of points inside a pixel shape; the jitter is fixed by ``seed``."""
    if shape.is_empty:
        return []
    left, top, right, bottom = shape.bounds
    grid_x, grid_y = np.meshgrid(np.arange(left, right, spacing), np.arange(top, bottom, spacing))
    xs, ys = grid_x.ravel(), grid_y.ravel()
    rng = np.random.default_rng(zlib.crc32(seed.encode()))
    # Alternate rows shift half a step so marks sit in a staggered, natural pattern.
    xs = xs + ((ys - top) // spacing % 2) * spacing / 2 + rng.uniform(-0.3, 0.3, xs.size) * spacing
    ys = ys + rng.uniform(-0.3, 0.3, ys.size) * spacing
    inside = shapely.contains_xy(shape, xs, ys)
    return list(zip(xs[inside].tolist(), ys[inside].tolist(), strict=True))


def _wood(draw: Sketch, view: View, feature: TerrainFeature, mm: float) -> None:
    dense = feature.kind == "dense_wood"
    shape = _pixel_polygon(view, feature)
    ground, tree = (C["dense_wood"], C["dense_tree"]) if dense else (C["wood"], C["tree"])
    _fill(draw, shape, ground, C["wood_edge"] if not dense else C["dense_tree"], 2)
    radius, spacing = (4.5, 11.0) if dense else (5.0, 15.0)
    rim = shade(tree, 0.45)
    for x, y in _grid_inside(shape.buffer(-radius - 1), spacing, feature.id):
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=tree, outline=rim)


def _hill(draw: Sketch, view: View, feature: TerrainFeature, mm: float) -> None:
    shape = _pixel_polygon(view, feature)
    left, top, right, bottom = shape.bounds
    step = max(6.0, min(right - left, bottom - top) / 7)
    for level, colour in enumerate((C["hill"], C["hill_2"], C["hill_3"])):
        # Shrinking then growing back by less rounds the inner contours' corners.
        inner = shape.buffer(-step * level - step / 2).buffer(step / 2) if level else shape
        _fill(draw, inner, colour, C["contour"], 1)


def _gentle_hill(draw: Sketch, view: View, feature: TerrainFeature, mm: float) -> None:
    """One pale level with short hachures inside its edge: lower than a hill's contours."""
    shape = _pixel_polygon(view, feature)
    _fill(draw, shape, C["hill"], C["contour"], 1)
    inward = 1.0 if shape.exterior.is_ccw else -1.0
    for (x, y), (dx, dy) in _along(list(shape.exterior.coords), 9.0):
        nx, ny = -dy * inward, dx * inward
        draw.line(((x + nx * 2, y + ny * 2), (x + nx * 7, y + ny * 7)), fill=C["contour"])


def _impassable(draw: Sketch, view: View, feature: TerrainFeature, mm: float) -> None:
    """Grey ground hatched across in dark lines: nothing goes there."""
    shape = _pixel_polygon(view, feature)
    _fill(draw, shape, C["wall"], C["fort_edge"], 3)
    left, top, right, bottom = shape.bounds
    tall = bottom - top
    offset = 0.0
    while offset < (right - left) + tall:
        stroke = LineString([(left + offset, top), (left + offset - tall, bottom)])
        for part in getattr(stroke.intersection(shape), "geoms", [stroke.intersection(shape)]):
            if isinstance(part, LineString) and not part.is_empty:
                draw.line(list(part.coords), fill=C["fort_edge"], width=2)
        offset += 9.0


def _bridge(draw: Sketch, view: View, feature: TerrainFeature, mm: float) -> None:
    """A roadway with heavy parapets, laid over the water."""
    shape = _pixel_polygon(view, feature)
    _fill(draw, shape, C["road"], C["fort_edge"], 4)
    box = shape.minimum_rotated_rectangle
    if isinstance(box, Polygon):
        corners = list(box.exterior.coords)[:4]
        sides = [(corners[i], corners[(i + 1) % 4]) for i in range(4)]
        short = sorted(sides, key=lambda side: math.dist(*side))[:2]
        (a0, a1), (b0, b1) = short[0], short[1][::-1]
        planks = max(2, round(math.dist(a0, b0) / 6))
        for index in range(1, planks):
            t = index / planks
            start = (a0[0] + (b0[0] - a0[0]) * t, a0[1] + (b0[1] - a0[1]) * t)
            end = (a1[0] + (b1[0] - a1[0]) * t, a1[1] + (b1[1] - a1[1]) * t)
            draw.line((start, end), fill=C["road_edge"])


def _ford(draw: Sketch, view: View, feature: TerrainFeature, mm: float) -> None:
    """Shallows: pale water with stepping stones."""
    shape = _pixel_polygon(view, feature)
    _fill(draw, shape, C["marsh"], C["water_edge"], 2)
    for x, y in _grid_inside(shape.buffer(-3), 9.0, feature.id):
        draw.ellipse((x - 2.5, y - 2, x + 2.5, y + 2), fill=C["rough_mark"])


def _stipple(draw: Sketch, view: View, feature: TerrainFeature, mm: float) -> None:
    shape = _pixel_polygon(view, feature)
    _fill(draw, shape, C["rough"], C["rough_mark"], 1)
    mark = C["rough_mark"]
    for x, y in _grid_inside(shape.buffer(-4), 13.0, feature.id):
        draw.polygon(((x - 3, y + 2), (x, y - 3), (x + 3, y + 2)), outline=mark)


def _marsh(draw: Sketch, view: View, feature: TerrainFeature, mm: float) -> None:
    shape = _pixel_polygon(view, feature)
    _fill(draw, shape, C["marsh"], C["marsh_mark"], 1)
    mark = C["marsh_mark"]
    for x, y in _grid_inside(shape.buffer(-8), 16.0, feature.id):
        draw.line(((x - 7, y + 3), (x + 7, y + 3)), fill=mark, width=2)
        for dx in (-4, 0, 4):
            draw.line(((x + dx, y + 3), (x + dx * 1.4, y - 4)), fill=mark, width=1)


def _band_width(view: View, feature: TerrainFeature, mm: float) -> float:
    """The band's width in pixels: the feature's ``width`` in measure, else a default."""
    given = feature.properties.get("width")
    if isinstance(given, int | float):
        measure = float(given)
    elif feature.kind == "road":
        measure = DEFAULT_ROAD_WIDTH
    else:
        measure = BAND_MM.get(feature.kind, 25.0) / mm
    return max(view.length(measure), MIN_BAND_PX.get(feature.kind, 3.0))


def _band(view: View, feature: TerrainFeature, mm: float) -> BaseGeometry:
    line = LineString(view.pxs(feature.points))
    return line.buffer(_band_width(view, feature, mm) / 2, cap_style="flat", join_style="round")


def _water(draw: Sketch, view: View, feature: TerrainFeature, mm: float) -> None:
    _fill(draw, _band(view, feature, mm), C["water"], C["water_edge"], 2)


def _road(draw: Sketch, view: View, feature: TerrainFeature, mm: float) -> None:
    _fill(draw, _band(view, feature, mm), C["road"], C["road_edge"], 1)


def _village(draw: Sketch, view: View, feature: TerrainFeature, mm: float) -> None:
    shape = _pixel_polygon(view, feature)
    _fill(draw, shape, C["village"], C["road_edge"], 1)
    roof, rim = C["roof"], shade(C["roof"], 0.5)
    spots = _grid_inside(shape.buffer(-8), 18.0, feature.id)
    for index, (x, y) in enumerate(spots):
        w, h = (7, 5) if index % 2 else (5, 7)  # alternate long and tall blocks like streets
        draw.rectangle((x - w, y - h, x + w, y + h), fill=roof, outline=rim)
        draw.line(((x - w, y), (x + w, y)) if w > h else ((x, y - h), (x, y + h)), fill=rim)


def _baggage(draw: Sketch, view: View, feature: TerrainFeature, mm: float) -> None:
    """A baggage camp: trodden ground with wagons, each a covered body on two wheels."""
    shape = _pixel_polygon(view, feature)
    _fill(draw, shape, C["road"], C["road_edge"], 2)
    cover, wheel = C["village"], C["fort_edge"]
    for x, y in _camp_spots(shape, 9.0, 22.0, feature.id):
        draw.rounded_rectangle((x - 6, y - 5, x + 6, y + 2), 3, fill=cover, outline=wheel)
        for dx in (-4, 4):
            draw.ellipse((x + dx - 2, y + 2, x + dx + 2, y + 6), fill=wheel)


def _camp(draw: Sketch, view: View, feature: TerrainFeature, mm: float) -> None:
    """A fortified camp: a ditch and rampart round rows of tents."""
    shape = _pixel_polygon(view, feature)
    _fill(draw, shape, C["rough"], C["fort_edge"], 3)
    for ring in _rings(shape.buffer(-5)):
        draw.line(ring, fill=C["stakes"], width=2)
    for x, y in _camp_spots(shape, 12.0, 18.0, feature.id):
        draw.polygon(((x - 5, y + 4), (x, y - 5), (x + 5, y + 4)), fill=WHITE, outline=C["stakes"])


def _fortification(draw: Sketch, view: View, feature: TerrainFeature, mm: float) -> None:
    shape = _pixel_polygon(view, feature)
    edge = C["fort_edge"]
    _fill(draw, shape, C["fort"], edge, 4)
    ring = list(shape.exterior.coords)
    # Merlons go on the inner face so the work stays within its true outline; which normal
    # points inwards depends on the ring's winding.
    inward = 1.0 if shape.exterior.is_ccw else -1.0
    for (x, y), (dx, dy) in _along(ring, 12.0):
        cx, cy = x - dy * 4 * inward, y + dx * 4 * inward
        draw.rectangle((cx - 2.5, cy - 2.5, cx + 2.5, cy + 2.5), fill=edge)


def _along(points: Sequence[PixelPoint], spacing: float) -> Iterator[tuple[PixelPoint, PixelPoint]]:
    """Points every ``spacing`` pixels along a polyline, each with its unit direction."""
    carry = spacing / 2
    for (x0, y0), (x1, y1) in pairwise(points):
        length = math.hypot(x1 - x0, y1 - y0)
        if length == 0:
            continue
        dx, dy = (x1 - x0) / length, (y1 - y0) / length
        at = carry
        while at < length:
            yield (x0 + dx * at, y0 + dy * at), (dx, dy)
            at += spacing
        carry = at - length


def obstacle_style(feature: TerrainFeature) -> str:
    """The look of a linear obstacle: its ``type`` property, else a word in its name."""
    given = str(feature.properties.get("type", "")).lower()
    if given in OBSTACLE_STYLES:
        return given
    name = feature.name.lower()
    return next((style for style in OBSTACLE_STYLES if style in name), "wall")


def _obstacle(draw: Sketch, view: View, feature: TerrainFeature, mm: float) -> None:
    points = view.pxs(feature.points)
    style = obstacle_style(feature)
    OBSTACLE_DRAWERS[style](draw, points)


def _hedge(draw: Sketch, points: Sequence[PixelPoint]) -> None:
    colour = C["hedge"]
    draw.line(points, fill=colour, width=5, joint="curve")
    rim = shade(colour, 0.4)
    for (x, y), _ in _along(points, 7.0):
        draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=colour, outline=rim)


def _wall(draw: Sketch, points: Sequence[PixelPoint]) -> None:
    dark = shade(C["wall"], 0.5)
    draw.line(points, fill=dark, width=7, joint="curve")
    draw.line(points, fill=C["wall"], width=4, joint="curve")
    for (x, y), (dx, dy) in _along(points, 9.0):
        draw.line(((x - dy * 3, y + dx * 3), (x + dy * 3, y - dx * 3)), fill=dark)


def _stakes(draw: Sketch, points: Sequence[PixelPoint]) -> None:
    colour = C["stakes"]
    draw.line(points, fill=colour, width=2)
    for index, ((x, y), (dx, dy)) in enumerate(_along(points, 7.0)):
        side = 1 if index % 2 else -1
        tip = (x + (dx - dy * side) * 6, y + (dy + dx * side) * 6)
        draw.line(((x, y), tip), fill=colour, width=2)


def _fence(draw: Sketch, points: Sequence[PixelPoint]) -> None:
    colour = C["stakes"]
    draw.line(points, fill=colour, width=3)
    for (x, y), _ in _along(points, 10.0):
        draw.rectangle((x - 2, y - 2, x + 2, y + 2), fill=shade(colour, 0.4))


OBSTACLE_DRAWERS: dict[str, Callable[[Sketch, Sequence[PixelPoint]], Any]] = {
    "hedge": _hedge,
    "wall": _wall,
    "stakes": _stakes,
    "fence": _fence,
}

DRAWERS: dict[str, Drawer] = {
    "hill": _hill,
    "gentle_hill": _gentle_hill,
    "impassable": _impassable,
    "bridge": _bridge,
    "ford": _ford,
    "wood": _wood,
    "dense_wood": _wood,
    "rough": _stipple,
    "marsh": _marsh,
    "river": _water,
    "stream": _water,
    "road": _road,
    "village": _village,
    "baggage": _baggage,
    "camp": _camp,
    "linear_obstacle": _obstacle,
    "fortification": _fortification,
}
