"""The table itself: ground, terrain, grid, last step's marks, units, leaders and labels."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw
from shapely import LineString

from bot.rendering import overlays
from bot.rendering.badges import badges_for
from bot.rendering.frame import draw_major_grid, draw_minor_grid, grid_for
from bot.rendering.labels import Box, Occupied, first_free, place
from bot.rendering.overlays import contact_point, draw_contact
from bot.rendering.paint import paint_bodies, paint_labels, paint_marks
from bot.rendering.placement import Owner, leader_owner, place_all, unit_owner
from bot.rendering.scene import Scene, measure_mark
from bot.rendering.sketch import Drawn, Sketch, Text
from bot.rendering.style import INK_SOFT, REACH, RGB, SMALL_SIZE, TABLE
from bot.rendering.table_scene import TablePieces
from bot.rendering.terrain import draw_terrain
from bot.rendering.text import width as text_width
from bot.rendering.units import Piece, leader_box, piece
from bot.rendering.view import View
from rules_core.state import Leader, Point, TerrainFeature, Unit

MARK_RADIUS = 11.0
TERRAIN_TEXT = 14
NAME_GAP = 6  # px kept clear on each side of a terrain name, so it never runs into a label
ALONG = (0.5, 0.3, 0.7, 0.15, 0.85)  # shares of a line's length tried for its name
Owners = tuple[tuple[str, RGB], ...]  # each side owning pieces, and its colour
GROUNDS_KEPT = 8  # a few battles' tables (about 5 MB each at 1600 px)

_grounds: OrderedDict[tuple[str, View], Image.Image] = OrderedDict()
_marks: OrderedDict[str, Terrain] = OrderedDict()
_grounds_lock = threading.Lock()  # maps are drawn in worker threads


def ground(terrain: Terrain, view: View) -> Image.Image:
    """A fresh copy of the table with its grid and terrain.

    Terrain rarely changes during a battle, so the last few grounds are kept and the next map
    of the same battle starts from a copy.
    """
    key = (terrain.key, view)
    with _grounds_lock:
        kept = _grounds.get(key)
        if kept is not None:
            _grounds.move_to_end(key)
            return kept.copy()
    image = draw_ground(terrain.marks, view)
    with _grounds_lock:
        _grounds[key] = image.copy()
        while len(_grounds) > GROUNDS_KEPT:
            _grounds.popitem(last=False)
    return image


def forget_grounds() -> None:
    """Drop the kept grounds and terrain marks (the benchmark's cold runs use this)."""
    with _grounds_lock:
        _grounds.clear()
        _marks.clear()


def draw_ground(terrain: Sequence[Drawn], view: View) -> Image.Image:
    """The open table, the light grid, the terrain's marks and the labelled grid lines."""
    image = Image.new("RGB", (view.width, view.height), TABLE)
    draw = ImageDraw.Draw(image)
    grid = grid_for(view.scale)
    draw_minor_grid(draw, view, grid)
    paint_marks(draw, terrain)
    draw_major_grid(draw, view, grid)
    return image


@dataclass(frozen=True)
class Terrain:
    """The terrain's marks, and the key its ground image is kept under."""

    key: str
    marks: tuple[Drawn, ...]


def terrain_marks(
    key: str, terrain: tuple[TerrainFeature, ...], view: View, mm: float, owners: Owners
) -> Terrain:
    """Every feature as marks (owned pieces flying their sides' colours, ``owners``); ``key``
    stands for the arguments: the last few tables' marks are kept under it."""
    with _grounds_lock:
        kept = _marks.get(key)
        if kept is not None:
            _marks.move_to_end(key)
            return kept
    sketch = Sketch()
    draw_terrain(sketch, view, terrain, mm, dict(owners))
    made = Terrain(key, tuple(sketch.marks))
    with _grounds_lock:
        _marks[key] = made
        while len(_marks) > GROUNDS_KEPT:
            _marks.popitem(last=False)
    return made


def _terrain(scene: Scene, view: View) -> Terrain:
    state = scene.state
    owners = tuple((side.id, scene.style(side.id).fill) for side in state.sides)
    mm = state.battlefield.mm_per_measure
    key = repr((state.terrain, owners, view, mm))
    return terrain_marks(key, state.terrain, view, mm, owners)


def draw_table(scene: Scene, view: View) -> Image.Image:
    """The table image, ``view.width`` by ``view.height`` pixels."""
    terrain = _terrain(scene, view)
    pieces = table_pieces(scene, view, terrain)
    image = ground(terrain, view)
    draw = ImageDraw.Draw(image)
    paint_marks(draw, pieces.under)  # under the units, so each arrow ends at its unit's edge
    paint_bodies(draw, pieces, "unit")
    paint_marks(draw, pieces.over)
    paint_bodies(draw, pieces, "leader")
    paint_labels(draw, pieces)
    paint_marks(draw, pieces.texts)
    return image


def table_pieces(scene: Scene, view: View, terrain: Terrain | None = None) -> TablePieces:
    """The whole table as data: terrain, marks, units, leaders, labels, badges and texts
    (``terrain`` the table's marks, if already at hand)."""
    under = Sketch()
    if scene.state.cursor.segment == "setup":
        _deploy_zones(under, scene, view)
    reach_top = _reach(under, scene, view)
    overlays.draw_terrain_changes(under, view, scene.marks)
    _moves(under, scene, view)
    over = Sketch()
    pairs = _draw_marks(over, scene, view)
    occupied = Occupied((0.0, 0.0, float(view.width), float(view.height)))
    pieces = place_all(occupied, table_owners(scene, view), [_mark_box(view, p) for p in pairs])
    texts = [] if reach_top is None else [_reach_label(scene, reach_top, occupied)]
    texts += _terrain_names(view, scene.state.terrain, occupied)
    return replace(
        pieces,
        terrain=(terrain or _terrain(scene, view)).marks,
        under=tuple(under.marks),
        over=tuple(over.marks),
        texts=tuple(texts),
    )


def table_owners(scene: Scene, view: View) -> list[Owner]:
    """Every unit and leader in view, with its shapes, names and badges."""
    shown = badges_for(scene.state.ruleset)
    owners = [unit_owner(item, shown) for item in _pieces(scene, view)]
    owners += [
        leader_owner(leader, centre, scene.style(leader.side), shown)
        for leader, centre in _leaders(scene, view)
    ]
    return owners


def _mark_box(view: View, where: Point) -> Box:
    x, y = view.px(where)
    return (x - MARK_RADIUS, y - MARK_RADIUS, x + MARK_RADIUS, y + MARK_RADIUS)


def _leaders(scene: Scene, view: View) -> list[tuple[Leader, tuple[float, float]]]:
    """Each leader with the pixel its state puts it at; off-view leaders are dropped, as
    units are (their labels were pushed onto the map far from them)."""
    placed = [(leader, view.px((leader.x, leader.y))) for leader in scene.leaders]
    return [(leader, centre) for leader, centre in placed if view.sees(leader_box(centre))]


def _pieces(scene: Scene, view: View) -> list[Piece]:
    """Ghosts first so units now in sight are drawn over them; off-view units are dropped."""
    items = [piece(view, u, scene.style(u.side), ghost=True) for u in scene.ghosts]
    items += [piece(view, u, scene.style(u.side)) for u in scene.units]
    return [item for item in items if view.sees(item.box)]


def _deploy_zones(draw: Sketch, scene: Scene, view: View) -> None:
    """During setup, dashed lines where each side's deployment zone ends: the zone's edges
    that run inside the table, not along its border."""
    table = scene.state.battlefield
    for side in scene.state.sides:
        zone = scene.zones.get(side.id, ())
        for start, end in zip(zone, (*zone[1:], *zone[:1]), strict=True):
            if _inside_table(start, end, table.width, table.depth):
                line = view.pxs(tuple(sorted((start, end))))  # drawn left to right, as always
                draw.dashed(line, scene.style(side.id).fill, 3, 14.0, 8.0)


def _inside_table(start: Point, end: Point, width: float, depth: float) -> bool:
    """Whether a zone edge lies on the table and not along one of its borders."""
    on_table = all(0 <= x <= width and 0 <= y <= depth for x, y in (start, end))
    border = any(
        start[axis] == end[axis] == limit
        for axis, limit in ((0, 0.0), (0, width), (1, 0.0), (1, depth))
    )
    return on_table and not border


def _reach(draw: Sketch, scene: Scene, view: View) -> tuple[float, float] | None:
    reach = scene.reach
    unit = next((u for u in scene.units if reach and u.id == reach.unit), None)
    if reach is None or unit is None or reach.length(unit) <= 0:
        return None
    return overlays.draw_reach(draw, view, reach, unit)


def _moves(draw: Sketch, scene: Scene, view: View) -> None:
    units = scene.marked()
    for unit_id, path in scene.marks.moves:
        unit = units.get(unit_id)
        style = scene.style(unit.side) if unit else scene.style("")
        overlays.draw_move(draw, view, path, unit, style)


def _draw_marks(draw: Sketch, scene: Scene, view: View) -> list[Point]:
    """Shots, then a mark on every combat; returns where the combat marks are."""
    units = scene.marked()
    for shooter, target in scene.marks.shots:
        if shooter in units and target in units:
            overlays.draw_shot(draw, view, units[shooter], units[target])
    points = []
    for a, b in _combat_pairs(scene):
        where = contact_point(a, b)
        draw_contact(draw, view, where)
        points.append(where)
    return points


def _combat_pairs(scene: Scene) -> list[tuple[Unit, Unit]]:
    """Units touching an enemy, and those the step's combats name, each pair once."""
    units = scene.marked()
    pairs = {(a.id, b.id): (a, b) for a, b in scene.contacts}
    for first, second in scene.marks.combats:
        if first in units and second in units and (second, first) not in pairs:
            pairs.setdefault((first, second), (units[first], units[second]))
    return list(pairs.values())


def _reach_label(scene: Scene, top: tuple[float, float], occupied: Occupied) -> Text:
    reach = scene.reach
    unit = next(u for u in scene.units if reach and u.id == reach.unit)
    assert reach is not None
    text = overlays.reach_text(reach, unit, measure_mark(scene.state.battlefield.measure))
    width, x, y = text_width(text, SMALL_SIZE + 1, True), top[0], top[1]
    candidates = [
        (x - width / 2, y - 22, x + width / 2, y - 4),
        (x - width / 2, y + 4, x + width / 2, y + 22),
    ]
    box = place(occupied, candidates)
    return Text(text, box[:2], box, REACH, SMALL_SIZE + 1, bold=True, anchor="la", halo=2)


def _terrain_names(
    view: View, terrain: tuple[TerrainFeature, ...], occupied: Occupied
) -> list[Text]:
    """Each named feature's name where it fits without covering units or their labels."""
    names = []
    for feature in terrain:
        if not feature.name:
            continue
        half = text_width(feature.name, TERRAIN_TEXT) / 2 + NAME_GAP
        boxes = [
            (x - half, y - TERRAIN_TEXT / 2 - 2, x + half, y + TERRAIN_TEXT / 2 + 3)
            for x, y in _anchors(view, feature)
        ]
        box = first_free(occupied, boxes)
        if box is not None:
            occupied.add(box)
            at = (box[0] + NAME_GAP, box[1])
            names.append(Text(feature.name, at, box, INK_SOFT, TERRAIN_TEXT, False, "la", 2))
    return names


def _anchors(view: View, feature: TerrainFeature) -> list[tuple[float, float]]:
    """Where a name may go: along a line from its middle outwards, or an area's middle and
    the rows above and below it."""
    points = view.pxs(feature.points)
    if feature.linear:
        line = LineString(points)
        spots = (line.interpolate(share, normalized=True) for share in ALONG)
        return [(spot.x, spot.y) for spot in spots]
    x = sum(p[0] for p in points) / len(points)
    y = sum(p[1] for p in points) / len(points)
    return [(x, y + dy) for dy in (0, 18, -18, 36, -36)]
