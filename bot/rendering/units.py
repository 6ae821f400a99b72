"""Units and leaders: true footprints with a facing mark, star markers, and their labels."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from PIL import ImageDraw

from bot.rendering import badges
from bot.rendering.labels import Box, Occupied, first_free, least_covered, spots
from bot.rendering.shapes import outlined
from bot.rendering.style import INK, LABEL_SIZE, SMALL_SIZE, WHITE, SideStyle
from bot.rendering.text import width, write
from bot.rendering.view import View
from rules_core.codec import Json
from rules_core.geometry import Footprint
from rules_core.state import Leader, Unit

PixelPoint = tuple[float, float]
NAME_LENGTH = 18  # characters of a name kept in a label
STAR_RADIUS = 10.0
LINE_GAP = 2


@dataclass(frozen=True)
class Piece:
    """A unit as the map draws it: pixel corners, the box around them, the side's colours."""

    unit: Unit
    corners: tuple[PixelPoint, ...]  # front-left, front-right, rear-right, rear-left
    box: Box
    style: SideStyle
    ghost: bool = False  # drawn where it was last seen

    @property
    def rear(self) -> PixelPoint:
        """The direction, in pixels and of length one, from the unit's front to its rear."""
        (flx, fly), _, _, (rlx, rly) = self.corners[:4]
        dx, dy = rlx - flx, rly - fly
        length = math.hypot(dx, dy) or 1.0
        return (dx / length, dy / length)


def piece(view: View, unit: Unit, style: SideStyle, ghost: bool = False) -> Piece:
    """Project a unit's footprint onto the map."""
    corners = tuple(view.pxs(Footprint.of(unit).corners()))
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return Piece(unit, corners, (min(xs), min(ys), max(xs), max(ys)), style, ghost)


def short(name: str, length: int = NAME_LENGTH) -> str:
    """A name cut to ``length`` characters with an ellipsis."""
    return name if len(name) <= length else name[: length - 1].rstrip() + "…"


def compact(name: str) -> str:
    """The label for a crowded spot: initials and number (``OB28``), else 8 characters."""
    words = name.split()
    if len(words) > 1 and any(ch.isdigit() for ch in words[-1]):
        return "".join(word[0].upper() for word in words[:-1]) + words[-1]
    return short(name, 8)


def _lerp(a: PixelPoint, b: PixelPoint, share: float) -> PixelPoint:
    return (a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share)


def draw_unit(draw: ImageDraw.ImageDraw, item: Piece) -> None:
    """The footprint in side colours, stand divisions, and a dark front edge with a chevron."""
    fl, fr, rr, rl = item.corners
    style = item.style
    fill = style.ghost if item.ghost else style.fill
    outlined(draw, item.corners, fill, style.edge, 2)
    stands = max(item.unit.stands, 1)
    if stands > 1 and math.dist(fl, fr) / stands >= 6:
        for index in range(1, stands):
            share = index / stands
            draw.line((_lerp(fl, fr, share), _lerp(rl, rr, share)), fill=style.edge, width=1)
    draw.line((fl, fr), fill=INK, width=3)
    _chevron(draw, item)


def _chevron(draw: ImageDraw.ImageDraw, item: Piece) -> None:
    """A small triangle standing out from the middle of the front edge."""
    fl, fr = item.corners[0], item.corners[1]
    rx, ry = item.rear
    mx, my = (fl[0] + fr[0]) / 2, (fl[1] + fr[1]) / 2
    size = max(4.0, min(8.0, math.dist(fl, fr) / 5))
    ax, ay = -ry, rx  # along the front edge
    tip = (mx - rx * size * 1.2, my - ry * size * 1.2)
    draw.polygon(
        ((mx + ax * size, my + ay * size), tip, (mx - ax * size, my - ay * size)), fill=INK
    )


def star(centre: PixelPoint, radius: float) -> list[PixelPoint]:
    """The points of a five-pointed star."""
    cx, cy = centre
    points = []
    for index in range(10):
        r = radius if index % 2 == 0 else radius * 0.45
        angle = math.pi * index / 5
        points.append((cx + r * math.sin(angle), cy - r * math.cos(angle)))
    return points


def draw_leader(draw: ImageDraw.ImageDraw, centre: PixelPoint, style: SideStyle) -> None:
    """A leader: a star in the side's colour, ringed in white so it shows on its own unit."""
    draw.polygon(star(centre, STAR_RADIUS + 3), fill=WHITE)
    outlined(draw, star(centre, STAR_RADIUS), style.fill, INK, 2)


def leader_box(centre: PixelPoint) -> Box:
    """The pixel box a leader's star takes."""
    r = STAR_RADIUS + 3
    return (centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r)


@dataclass(frozen=True)
class Label:
    """A label to place: the text, its colour and badges, and the item it belongs to."""

    text: str
    colour: tuple[int, int, int]
    badges: list[tuple[badges.Badge, Json]]
    item: Box
    away: PixelPoint
    bold: bool = True
    fallback: str = ""  # a shorter text for when the full one finds no free spot
    last_resort: str = ""  # shorter still, for a crowded spot

    @property
    def text_size(self) -> int:
        """Unit names in bold at the label size, leaders' names a little smaller."""
        return LABEL_SIZE if self.bold else SMALL_SIZE + 1

    @cached_property
    def size(self) -> tuple[float, float]:
        """Width and height of the text line plus the badge row."""
        # Eight pixels of air keep two neighbouring labels from reading as one.
        across = max(width(self.text, self.text_size, self.bold) + 8, badges.row_width(self.badges))
        height = LABEL_SIZE + 4 + (badges.HEIGHT + LINE_GAP if self.badges else 0)
        return (across, height)


def unit_label(item: Piece, shown: Mapping[str, badges.Badge]) -> Label:
    """The label of a unit: its short name and its status badges."""
    given = item.unit.get("label")
    name = given if isinstance(given, str) and given else item.unit.name
    mark = " ?" if item.ghost else ""
    # The unit's formation is a field of its own; a status of the same name wins.
    row = badges.shown({"formation": item.unit.formation, **item.unit.status}, shown)
    # The whole name where there is room; the short one only where the full one finds none.
    fallback, crowded = short(name) + mark, compact(name) + mark
    return Label(name + mark, item.style.text, row, item.box, item.rear, True, fallback, crowded)


def leader_label(
    leader: Leader, centre: PixelPoint, style: SideStyle, shown: Mapping[str, badges.Badge]
) -> Label:
    """The label of a leader: a short name and badges for wounds and status."""
    status = {**leader.status, **({"wounds": leader.wounds} if leader.wounds else {})}
    row = badges.shown(status, shown)
    box, away = leader_box(centre), (0.0, 1.0)
    return Label(leader.name, style.text, row, box, away, False, fallback=short(leader.name, 16))


def place_labels(occupied: Occupied, labels: Sequence[Label]) -> list[tuple[Label, Box]]:
    """Choose a spot for each label, in order, avoiding everything placed before it."""
    return [_place(occupied, label) for label in labels]


def _place(occupied: Occupied, label: Label) -> tuple[Label, Box]:
    """A free spot for the full text, else for the shorter one, else the least covered."""
    tries = [label]
    for text in (label.fallback, label.last_resort):
        if text and text not in (t.text for t in tries):
            tries.append(replace(label, text=text))
    for option in tries:
        box = first_free(occupied, spots(option.item, option.size, option.away), option.item)
        if box is not None:
            occupied.add(box)
            return option, box
    last = tries[-1]
    box = least_covered(occupied, spots(last.item, last.size, last.away), last.item)
    occupied.add(box)
    return last, box


def draw_label(draw: ImageDraw.ImageDraw, label: Label, box: Box) -> None:
    """The text with a white halo, centred over its badge row."""
    left, top, right, _ = box
    middle = (left + right) / 2
    size = label.text_size
    write(
        draw,
        (middle, top + 1),
        label.text,
        label.colour,
        size,
        bold=label.bold,
        anchor="ma",
        halo=2,
    )
    if label.badges:
        row = badges.row_width(label.badges)
        badges.draw_row(draw, middle - row / 2, top + LABEL_SIZE + 4 + LINE_GAP, label.badges)
