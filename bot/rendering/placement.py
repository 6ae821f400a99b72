"""The placement pass: each unit's name, tag and badges, and each leader's, find their spots.

A unit's name goes inside its footprint when it fits there at a readable size; otherwise a
short tag goes inside and the name outside, the nearest free spot that is nearer this unit
than any other, joined to it by a leader line; where no such spot is free the name goes in
the key. Badges touch their own body's box, whatever happens to the name. Nothing placed
covers a body, a mark or anything placed before it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

import shapely

from bot.rendering import badges
from bot.rendering.labels import Box, Occupied, add_all, first_free, least_covered, ranked, spots
from bot.rendering.sketch import Text
from bot.rendering.style import INK, LABEL_SIZE, RGB, SMALL_SIZE, SideStyle
from bot.rendering.table_scene import BadgeRow, Body, Label, Shape, TablePieces
from bot.rendering.text import width
from bot.rendering.units import (
    Piece,
    PixelPoint,
    compact,
    leader_box,
    leader_shapes,
    short,
    unit_shapes,
)
from rules_core.codec import Json
from rules_core.state import Leader

READABLE = (LABEL_SIZE, SMALL_SIZE)  # px: the sizes a name may take inside its box
RINGS = (3.0, 12.0, 24.0, 40.0, 64.0, 96.0)  # px from its body an outside name is tried at
KEY_SIZE = SMALL_SIZE
KEY_PAD = 6.0
SLACK = 0.5  # px two boxes may share (rounding) and still not overlap
SNUG = 3.0  # px a badge row keeps from a turned unit's outline


@dataclass(frozen=True)
class Owner:
    """What a label is placed for: a body, its names, colours and badges."""

    body: Body
    name: str
    tag: str
    colour: RGB
    away: PixelPoint  # the side labels keep to (a unit's rear)
    row: tuple[tuple[badges.Badge, Json], ...]
    size: int = LABEL_SIZE
    under: tuple[
        Box, ...
    ] = ()  # bodies its own overlaps (a leader's unit): its name may lie on them


def unit_owner(item: Piece, shown: Mapping[str, badges.Badge]) -> Owner:
    """A unit as the placement pass sees it: its shapes, name, tag and status badges."""
    given = item.unit.get("label")
    name = given if isinstance(given, str) and given else item.unit.name
    mark = " ?" if item.ghost else ""
    # The unit's formation is a field of its own; a status of the same name wins.
    row = badges.shown({"formation": item.unit.formation, **item.unit.status}, shown)
    body = Body("unit", item.unit.id, item.unit.side, item.box, item.corners, unit_shapes(item))
    tag = compact(name) if any(ch.isdigit() for ch in name) else _initials(name)
    return Owner(body, name + mark, tag + mark, item.style.text, item.rear, tuple(row))


def leader_owner(
    leader: Leader, centre: PixelPoint, style: SideStyle, shown: Mapping[str, badges.Badge]
) -> Owner:
    """A leader as the placement pass sees it: a star, a name, badges for wounds and status."""
    status = {**leader.status, **({"wounds": leader.wounds} if leader.wounds else {})}
    row = tuple(badges.shown(status, shown))
    box = leader_box(centre)
    corners = ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3]))
    body = Body(
        "leader", f"leader:{leader.id}", leader.side, box, corners, leader_shapes(centre, style)
    )
    return Owner(body, leader.name, "", style.text, (0.0, 1.0), row, SMALL_SIZE + 1)


def place_all(occupied: Occupied, owners: Sequence[Owner], marks: Sequence[Box]) -> TablePieces:
    """Units' names inside their boxes, their badge rows, their tags and names outside; then
    leaders' names and badge rows (a star has few spots beside it); then the key. What they
    take is marked on ``occupied``."""
    boxes = [owner.body.box for owner in owners]
    add_all(occupied, [*boxes, *marks])
    owners = [_with_under(owner, boxes) for owner in owners]
    grid = Occupied(occupied.bounds)  # the bodies alone, to find those near a spot quickly
    add_all(grid, boxes)
    units = [owner for owner in owners if owner.body.kind == "unit"]
    leaders = [owner for owner in owners if owner.body.kind == "leader"]
    inside = {}
    for owner in units:
        found = _inside(occupied, owner, owner.name)
        if found is not None:
            occupied.add(found.box)
            inside[owner.body.id] = Label(owner.body.id, found)
    # Badges before names placed outside: a status must lie by its own piece, a name has a
    # leader line and the key to fall back on.
    rows = [_row(occupied, owner, grid) for owner in [*units, *leaders] if owner.row]
    labels = [inside.get(owner.body.id) or _outside(occupied, owner, grid) for owner in units]
    labels += [_outside(occupied, owner, grid) for owner in leaders]
    key, key_box = _key(occupied, owners, labels)
    bodies = tuple(owner.body for owner in owners)
    return TablePieces(bodies, tuple(labels), tuple(rows), key, key_box)


def _with_under(owner: Owner, boxes: Sequence[Box]) -> Owner:
    """A leader with the boxes its star overlaps (its unit's): its name may lie on them."""
    if owner.body.kind != "leader":
        return owner
    own = owner.body.box
    return replace(owner, under=tuple(b for b in boxes if b != own and overlap(own, b) > SLACK))


def _text(words: str, owner: Owner, size: int, middle: PixelPoint) -> Text:
    """A bold, haloed string centred at ``middle``; its box has two pixels of air."""
    half_w = width(words, size, True) / 2 + 2
    half_h = size / 2 + 2
    box = (middle[0] - half_w, middle[1] - half_h, middle[0] + half_w, middle[1] + half_h)
    return Text(words, middle, box, owner.colour, size)


def _inside(occupied: Occupied, owner: Owner, words: str) -> Text | None:
    """The words inside the footprint at a readable size, on a spot nothing else covers."""
    corners = owner.body.outline
    left, top, right, bottom = owner.body.box
    for size in READABLE:
        if width(words, size, True) + 4 > right - left or size + 4 > bottom - top:
            continue  # wider or taller than the box around the footprint: it cannot fit
        for middle in _inner_points(corners):
            text = _text(words, owner, size, middle)
            if _within(text.box, corners) and occupied.free(text.box, owner.body.box):
                return text
    return None


def _inner_points(corners: Sequence[PixelPoint]) -> list[PixelPoint]:
    """The footprint's middle, then a quarter of the way to either end of its front."""
    cx = sum(x for x, _ in corners) / len(corners)
    cy = sum(y for _, y in corners) / len(corners)
    (flx, fly), (frx, fry) = corners[0], corners[1]
    ax, ay = (frx - flx) / 4, (fry - fly) / 4
    return [(cx, cy), (cx - ax, cy - ay), (cx + ax, cy + ay)]


def _within(box: Box, corners: Sequence[PixelPoint]) -> bool:
    """Whether the box's four corners lie inside the convex footprint (either winding)."""
    points = ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3]))
    ring = [*corners, corners[0]]
    signs = set()
    for (ax, ay), (bx, by) in pairwise(ring):
        for px, py in points:
            cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
            if abs(cross) > 1e-9:
                signs.add(cross > 0)
    return len(signs) <= 1


def _row(occupied: Occupied, owner: Owner, grid: Occupied) -> BadgeRow:
    """The badge row beside its body, nearer it than any other body so its status is read off
    the right piece: in one line, else stacked as wide as the body; on a free spot, else on
    its own unit, else the least covered spot still nearest it."""
    box = owner.body.box
    whole = list(owner.row)
    shapes = [[whole]]
    stacked = badges.wrapped(whole, max(box[2] - box[0], 1.0))
    if len(stacked) > 1:
        shapes.append(stacked)
    tried: list[tuple[list[badges.Line], list[Box]]] = []
    for shape in shapes:
        near = _row_spots(owner, badges.block_size(shape), grid)
        found = first_free(occupied, near, box) or next(
            (spot for spot in near if occupied.free(spot, box, owner.under)), None
        )
        if found is not None:
            return _laid(occupied, owner, found, shape)
        tried.append((shape, near))
    # Covered but near beats free but far: a status by the wrong piece misleads.
    shape, near = next(((s, n) for s, n in tried if n), tried[0])
    spots_left = near or _row_spots(owner, badges.block_size(shape), None)
    return _laid(occupied, owner, least_covered(occupied, spots_left, box), shape)


def _laid(occupied: Occupied, owner: Owner, spot: Box, lines: list[badges.Line]) -> BadgeRow:
    """A badge row on its spot, moved snug to a turned unit's outline, marked taken."""
    spot = _snug(occupied, spot, owner)
    occupied.add(spot)
    return BadgeRow(owner.body.id, spot, owner.row, badges.block_marks(spot[0], spot[1], lines))


def _row_spots(owner: Owner, size: tuple[float, float], grid: Occupied | None) -> list[Box]:
    """Spots for a badge row beside its body and a ring out, those nearer it than any other
    body only (all of them without ``grid``)."""
    box = owner.body.box
    candidates = [_hugging(box, spot) for spot in spots(box, size, owner.away)]
    if gap(candidates[0], box) == 0:  # the spot on the box last: it is the tag's room
        candidates = [*candidates[1:], candidates[0]]
    candidates += _rings(owner, size)[8:16]
    if grid is None:
        return candidates
    return [spot for spot in candidates if _nearest(spot, box, grid)]


def _hugging(box: Box, spot: Box) -> Box:
    """A row for a corner of the box slid along its top or bottom edge until it lies over the
    box (or the box under it, if the row is the wider) from that corner's side: a row touching
    a box by its corner alone reads as anyone's."""
    left, top, right, bottom = spot
    if (left < box[2] and box[0] < right) or (top < box[3] and box[1] < bottom):
        return spot  # beside a side of the box already
    w = right - left
    if (
        left >= box[2]
    ):  # a right corner: the row ends at the box's right edge, or starts at its left
        x = box[2] - w if w <= box[2] - box[0] else box[0]
    else:
        x = box[0] if w <= box[2] - box[0] else box[2] - w
    return (x, top, x + w, bottom)


def _snug(occupied: Occupied, row: Box, owner: Owner) -> Box:
    """A badge row beside a turned unit's box moved in towards the unit's outline as far as
    nothing is in the way: left at the box's corner it floats clear of the unit, and reads as
    another's."""
    body = owner.body
    if body.kind != "unit" or _upright(body.outline):
        return row
    outline = shapely.Polygon(body.outline)
    cx, cy = (body.box[0] + body.box[2]) / 2, (body.box[1] + body.box[3]) / 2
    for _ in range(3):  # each step closes most of the gap: moving by d shrinks it by at most d
        step = shapely.distance(shapely.box(*row), outline) - SNUG
        rx, ry = (row[0] + row[2]) / 2, (row[1] + row[3]) / 2
        length = math.hypot(cx - rx, cy - ry)
        if step < 1 or length == 0:
            break
        dx, dy = (cx - rx) / length * step, (cy - ry) / length * step
        moved = (row[0] + dx, row[1] + dy, row[2] + dx, row[3] + dy)
        if not occupied.free(moved, body.box, owner.under):
            break
        row = moved
    return row


def _nearest_on(outline: Sequence[PixelPoint], point: PixelPoint) -> PixelPoint:
    """The point of an outline's edges nearest ``point`` (edges projected on by hand: a
    shapely polygon per label costs more than the few sums)."""
    best, best_d = outline[0], math.inf
    for (ax, ay), (bx, by) in pairwise([*outline, outline[0]]):
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy
        t = 0.0 if length == 0 else ((point[0] - ax) * dx + (point[1] - ay) * dy) / length
        t = min(max(t, 0.0), 1.0)
        spot = (ax + dx * t, ay + dy * t)
        d = math.dist(spot, point)
        if d < best_d:
            best, best_d = spot, d
    return best


def _upright(outline: Sequence[PixelPoint]) -> bool:
    """Whether every edge of an outline runs across or up the map."""
    ring = [*outline, outline[0]]
    return all(abs(a[0] - b[0]) < 0.5 or abs(a[1] - b[1]) < 0.5 for a, b in pairwise(ring))


def _outside(occupied: Occupied, owner: Owner, grid: Occupied) -> Label:
    """A tag inside the box and the name on the nearest free spot outside, with a leader
    line; the name in the key where no spot is free."""
    tag = _inside(occupied, owner, owner.tag) if owner.tag else None
    if tag is not None:
        occupied.add(tag.box)
    for words in dict.fromkeys((owner.name, short(owner.name))):
        text = _ring_spot(occupied, owner, words, grid)
        if text is not None:
            occupied.add(text.box)
            return Label(owner.body.id, text, tag, _leader_line(owner.body, text.box, owner.colour))
    if tag is not None:
        return Label(owner.body.id, None, tag, None, keyed=True)
    initials = _ring_spot(occupied, owner, _initials(owner.name), grid)
    if initials is not None:  # the initials beside the body, the name in the key
        occupied.add(initials.box)
        line = _leader_line(owner.body, initials.box, owner.colour)
        return Label(owner.body.id, None, initials, line, keyed=True)
    return _crowded(occupied, owner, grid)


def _initials(name: str) -> str:
    """A leader's or unit's initials (``EA`` for Ealdorman Aethelnoth), a number kept whole."""
    words = [w for w in name.replace("-", " ").split() if w[0].isupper() or w.isdigit()]
    kept = [w for w in words if w not in ("The", "Sir", "Lord", "King")] or words
    return "".join(w if w.isdigit() else w[0] for w in kept)[:4] or name[:3]


def _crowded(occupied: Occupied, owner: Owner, grid: Occupied) -> Label:
    """No free spot near enough: the initials on the least covered spot nearer the body than
    any other, the name in the key."""
    words = owner.tag or _initials(owner.name)
    own = owner.body.box
    candidates = [box for box in _rings(owner, _size(owner, words)) if _nearest(box, own, grid)]
    if not candidates:
        candidates = spots(own, _size(owner, words), owner.away)
    spot = least_covered(occupied, candidates, own)
    occupied.add(spot)
    text = _text(words, owner, owner.size, ((spot[0] + spot[2]) / 2, (spot[1] + spot[3]) / 2))
    return Label(
        owner.body.id, None, text, _leader_line(owner.body, text.box, owner.colour), keyed=True
    )


def _size(owner: Owner, words: str) -> tuple[float, float]:
    return (width(words, owner.size, True) + 4, owner.size + 4.0)


def _rings(owner: Owner, size: tuple[float, float]) -> list[Box]:
    """Boxes of a size, ring by ring around the body, the side it faces away from first."""
    w, h = size
    left, top, right, bottom = owner.body.box
    cx, cy = (left + right) / 2, (top + bottom) / 2
    boxes = []
    for ring in RINGS:
        for dx, dy in ranked(round(owner.away[0], 2), round(owner.away[1], 2)):
            x = cx - w / 2 if dx == 0 else (right + ring if dx > 0 else left - ring - w)
            y = cy - h / 2 if dy == 0 else (bottom + ring if dy > 0 else top - ring - h)
            boxes.append((x, y, x + w, y + h))
    return boxes


def _ring_spot(occupied: Occupied, owner: Owner, words: str, grid: Occupied) -> Text | None:
    """The first free spot, ring by ring around the body, nearer it than any other body."""
    own = owner.body.box
    for box in _rings(owner, _size(owner, words)):
        if occupied.free(box, own, owner.under) and _nearest(box, own, grid):
            middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            return _text(words, owner, owner.size, middle)
    return None


def gap(a: Box, b: Box) -> float:
    """How far apart two boxes are (0 where they meet or overlap)."""
    dx = max(a[0] - b[2], b[0] - a[2], 0.0)
    dy = max(a[1] - b[3], b[1] - a[3], 0.0)
    return float((dx * dx + dy * dy) ** 0.5)


def overlap(a: Box, b: Box) -> float:
    """How deep two boxes overlap, along the axis they overlap least on (0: apart)."""
    across = min(a[2], b[2]) - max(a[0], b[0])
    down = min(a[3], b[3]) - max(a[1], b[1])
    return max(min(across, down), 0.0)


def _nearest(box: Box, own: Box, grid: Occupied) -> bool:
    """Whether the box is nearer its own body than any other (bodies overlapping its own
    excepted: they are as near as it is). Only bodies within that distance can be nearer."""
    mine = gap(box, own)
    reach = (box[0] - mine - 1, box[1] - mine - 1, box[2] + mine + 1, box[3] + mine + 1)
    return all(
        mine < gap(box, other)
        for other in grid.meeting(reach)
        if other != own and overlap(own, other) <= SLACK
    )


def _leader_line(body: Body, label: Box, colour: RGB) -> Shape:
    """A thin line from the body to the label's box, between their nearest points (on a
    turned unit's outline, not the corner of the box round it)."""
    mx, my = (label[0] + label[2]) / 2, (label[1] + label[3]) / 2
    own = body.box
    start = (min(max(mx, own[0]), own[2]), min(max(my, own[1]), own[3]))
    if body.kind == "unit" and not _upright(body.outline):
        start = _nearest_on(body.outline, (mx, my))
    end = (min(max(start[0], label[0]), label[2]), min(max(start[1], label[1]), label[3]))
    return Shape((start, end), None, colour, 1, closed=False)


def _key(
    occupied: Occupied, owners: Sequence[Owner], labels: Sequence[Label]
) -> tuple[tuple[Text, ...], Box | None]:
    """The key of tags whose names found no spot: a box in the freest corner of the table."""
    named = {owner.body.id: owner for owner in owners}
    lines = [
        f"{label.tag.text} = {named[label.owner].name}"
        for label in labels
        if label.keyed and label.tag is not None
    ]
    if not lines:
        return (), None
    w = max(width(line, KEY_SIZE, False) for line in lines) + 2 * KEY_PAD
    h = len(lines) * (KEY_SIZE + 4) + 2 * KEY_PAD
    left, top, right, bottom = occupied.bounds
    corners = [
        (right - w - 4, bottom - h - 4, right - 4, bottom - 4),
        (left + 4, bottom - h - 4, left + w + 4, bottom - 4),
        (right - w - 4, top + 4, right - 4, top + h + 4),
        (left + 4, top + 4, left + w + 4, top + h + 4),
    ]
    box = least_covered(occupied, corners)
    occupied.add(box)
    texts = []
    for index, line in enumerate(lines):
        y = box[1] + KEY_PAD + index * (KEY_SIZE + 4) + (KEY_SIZE + 4) / 2
        tw = width(line, KEY_SIZE, False)
        at = (box[0] + KEY_PAD + tw / 2, y)
        edge = (at[0] - tw / 2, y - KEY_SIZE / 2 - 2, at[0] + tw / 2, y + KEY_SIZE / 2 + 2)
        texts.append(Text(line, at, edge, INK, KEY_SIZE, halo=0, bold=False))
    return tuple(texts), box
