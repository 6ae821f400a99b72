"""Drawing as data: the marks a map is made of, recorded before any backend draws them.

Terrain, the last step's marks and badges are drawn onto a ``Sketch``, which keeps each
call as a ``Mark`` (a line, polygon, ellipse or rectangle with its fill, stroke, width and
dash) or a ``Text``; the Pillow backend (``paint``) draws them, and another backend (SVG)
can draw the same marks. Coordinates are pixels of the image the marks belong to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.rendering.style import RGB, WHITE
from bot.rendering.text import width as text_width

Box = tuple[float, float, float, float]
PixelPoint = tuple[float, float]
Coords = Sequence[PixelPoint] | Sequence[float]
Ink = RGB | None
Width = int | None
Kind = Literal["line", "polygon", "ellipse", "rectangle", "rounded"]


@dataclass(frozen=True)
class Mark:
    """One shape: a polyline (``line``) or polygon through ``points``, or an ellipse or
    (rounded) rectangle in the box from ``points[0]`` to ``points[1]``; ``dash`` is a dashed
    line's dash and gap in pixels; ``width`` None is the backend's thinnest line."""

    kind: Kind
    points: tuple[PixelPoint, ...]
    fill: RGB | None = None
    stroke: RGB | None = None
    width: int | None = None
    dash: tuple[float, float] | None = None
    radius: float = 0.0
    joint: Literal["curve"] | None = None


@dataclass(frozen=True)
class Text:
    """A string anchored at ``at`` (Pillow's anchors), its style, and the box it takes."""

    text: str
    at: PixelPoint
    box: Box
    colour: RGB
    size: int
    bold: bool = True
    anchor: str = "mm"
    halo: int = 2
    halo_colour: RGB = WHITE


Drawn = Mark | Text


def _points(xy: Sequence[PixelPoint] | Sequence[float]) -> tuple[PixelPoint, ...]:
    """Points from a sequence of pairs, or a flat box (x0, y0, x1, y1)."""
    if xy and isinstance(xy[0], int | float):
        flat = [float(v) for v in xy]  # type: ignore[arg-type]
        return tuple(zip(flat[::2], flat[1::2], strict=True))
    return tuple((float(x), float(y)) for x, y in xy)  # type: ignore[misc]


class Sketch:
    """Records drawing calls (the part of Pillow's ``ImageDraw`` the map uses) as marks."""

    def __init__(self) -> None:
        self.marks: list[Drawn] = []

    def line(
        self,
        xy: Sequence[PixelPoint] | Sequence[float],
        fill: RGB | None = None,
        width: int | None = None,
        joint: Literal["curve"] | None = None,
    ) -> None:
        """A polyline."""
        self.marks.append(Mark("line", _points(xy), None, fill, width, joint=joint))

    def dashed(
        self, xy: Sequence[PixelPoint], fill: RGB, width: int, dash: float, gap: float
    ) -> None:
        """A dashed polyline."""
        self.marks.append(Mark("line", _points(xy), None, fill, width, (dash, gap)))

    def polygon(
        self, xy: Coords, fill: Ink = None, outline: Ink = None, width: Width = None
    ) -> None:
        """A polygon, filled and outlined."""
        self.marks.append(Mark("polygon", _points(xy), fill, outline, width))

    def ellipse(
        self, xy: Coords, fill: Ink = None, outline: Ink = None, width: Width = None
    ) -> None:
        """An ellipse in a box."""
        self.marks.append(Mark("ellipse", _points(xy), fill, outline, width))

    def rectangle(
        self, xy: Sequence[float], fill: RGB | None = None, outline: RGB | None = None
    ) -> None:
        """A rectangle."""
        self.marks.append(Mark("rectangle", _points(xy), fill, outline))

    def rounded_rectangle(
        self,
        xy: Sequence[float],
        radius: float,
        fill: RGB | None = None,
        outline: RGB | None = None,
    ) -> None:
        """A rectangle with rounded corners."""
        self.marks.append(Mark("rounded", _points(xy), fill, outline, radius=radius))

    def text(
        self,
        at: PixelPoint,
        words: str,
        colour: RGB,
        size: int,
        *,
        bold: bool = False,
        halo: int = 0,
    ) -> None:
        """A string with its top-left corner at ``at``."""
        box = (at[0], at[1], at[0] + text_width(words, size, bold), at[1] + size)
        self.marks.append(Text(words, at, box, colour, size, bold, "la", halo))
