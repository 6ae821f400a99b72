"""Units and leaders as shapes: true footprints with a facing mark, and star markers."""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import ImageDraw

from bot.rendering.labels import Box
from bot.rendering.paint import paint_shapes
from bot.rendering.style import INK, WHITE, SideStyle
from bot.rendering.table_scene import Shape
from bot.rendering.view import View
from rules_core.geometry import Footprint
from rules_core.state import Unit

PixelPoint = tuple[float, float]
NAME_LENGTH = 18  # characters of a name kept in a label
STAR_RADIUS = 10.0


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


def unit_shapes(item: Piece) -> tuple[Shape, ...]:
    """The footprint in side colours, stand divisions, and a dark front edge with a chevron."""
    fl, fr, rr, rl = item.corners
    style = item.style
    fill = style.ghost if item.ghost else style.fill
    shapes = [Shape(item.corners, fill, style.edge, 2)]
    stands = max(item.unit.stands, 1)
    if stands > 1 and math.dist(fl, fr) / stands >= 6:
        for index in range(1, stands):
            share = index / stands
            line = (_lerp(fl, fr, share), _lerp(rl, rr, share))
            shapes.append(Shape(line, None, style.edge, 1, closed=False))
    shapes.append(Shape((fl, fr), None, INK, 3, closed=False))
    shapes.append(_chevron(item))
    return tuple(shapes)


def draw_unit(draw: ImageDraw.ImageDraw, item: Piece) -> None:
    """Draw a unit's shapes (the legend's samples use this)."""
    paint_shapes(draw, unit_shapes(item))


def _chevron(item: Piece) -> Shape:
    """A small triangle standing out from the middle of the front edge."""
    fl, fr = item.corners[0], item.corners[1]
    rx, ry = item.rear
    mx, my = (fl[0] + fr[0]) / 2, (fl[1] + fr[1]) / 2
    size = max(4.0, min(8.0, math.dist(fl, fr) / 5))
    ax, ay = -ry, rx  # along the front edge
    tip = (mx - rx * size * 1.2, my - ry * size * 1.2)
    return Shape(
        ((mx + ax * size, my + ay * size), tip, (mx - ax * size, my - ay * size)), INK, None
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


def leader_shapes(centre: PixelPoint, style: SideStyle) -> tuple[Shape, ...]:
    """A leader: a star in the side's colour, ringed in white so it shows on its own unit."""
    ring = Shape(tuple(star(centre, STAR_RADIUS + 3)), WHITE, None)
    return (ring, Shape(tuple(star(centre, STAR_RADIUS)), style.fill, INK, 2))


def draw_leader(draw: ImageDraw.ImageDraw, centre: PixelPoint, style: SideStyle) -> None:
    """Draw a leader's star (the legend's sample uses this)."""
    paint_shapes(draw, leader_shapes(centre, style))


def leader_box(centre: PixelPoint) -> Box:
    """The pixel box a leader's star takes."""
    r = STAR_RADIUS + 3
    return (centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r)
