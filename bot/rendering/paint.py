"""The Pillow backend: draws the table's pieces (``table_scene``) and the recorded marks
(``sketch``) onto an image."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from functools import partial
from itertools import pairwise
from typing import Literal

from PIL import ImageDraw

from bot.rendering.shapes import PixelPoint, outlined
from bot.rendering.sketch import Drawn, Mark, Text
from bot.rendering.style import INK_SOFT, PAPER, RGB
from bot.rendering.table_scene import Label, Shape, TablePieces
from bot.rendering.text import write


def paint_marks(draw: ImageDraw.ImageDraw, marks: Iterable[Drawn]) -> None:
    """Recorded marks and texts, in order."""
    for mark in marks:
        if isinstance(mark, Text):
            paint_text(draw, mark)
        else:
            paint_mark(draw, mark)


def paint_mark(draw: ImageDraw.ImageDraw, mark: Mark) -> None:
    """One recorded shape, drawn as Pillow draws it."""
    box, width = mark.points, mark.width
    if mark.kind == "line" and mark.dash is not None:
        for start, end in dashes(mark.points, *mark.dash):
            draw.line((start, end), fill=mark.stroke, width=width or 1)
    elif mark.kind == "line":
        draw.line(mark.points, fill=mark.stroke, width=width or 1, joint=mark.joint)
    elif mark.kind == "polygon" and width is not None and mark.stroke is not None:
        outlined(draw, mark.points, mark.fill, mark.stroke, width)
    elif mark.kind == "polygon":
        draw.polygon(mark.points, fill=mark.fill, outline=mark.stroke)
    elif mark.kind == "ellipse":
        draw.ellipse(box, fill=mark.fill, outline=mark.stroke, width=width or 1)
    elif mark.kind == "rectangle":
        draw.rectangle(box, fill=mark.fill, outline=mark.stroke)
    else:
        draw.rounded_rectangle(box, mark.radius, fill=mark.fill, outline=mark.stroke)


def dashed(
    draw: ImageDraw.ImageDraw,
    points: Sequence[PixelPoint],
    colour: RGB,
    width: int,
    dash: float = 9.0,
    gap: float = 6.0,
) -> None:
    """A dashed polyline."""
    paint_mark(draw, Mark("line", tuple(points), None, colour, width, (dash, gap)))


def dashes(
    points: Sequence[PixelPoint], dash: float, gap: float
) -> Iterator[tuple[PixelPoint, PixelPoint]]:
    """The pieces of a dashed polyline, the pattern running on round its corners."""
    period, offset = dash + gap, 0.0
    for (x0, y0), (x1, y1) in pairwise(points):
        length = math.hypot(x1 - x0, y1 - y0)
        if length == 0:
            continue
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        at = -offset
        while at < length:
            a, b = max(at, 0.0), min(at + dash, length)
            if b > a:
                yield (x0 + ux * a, y0 + uy * a), (x0 + ux * b, y0 + uy * b)
            at += period
        offset = (length + offset) % period


def paint_shape(draw: ImageDraw.ImageDraw, shape: Shape) -> None:
    """A polygon with its fill and outline, or a polyline."""
    if not shape.closed:
        draw.line(shape.points, fill=shape.outline, width=shape.width)
    elif shape.outline is None:
        draw.polygon(shape.points, fill=shape.fill)
    else:
        outlined(draw, shape.points, shape.fill, shape.outline, shape.width)


def paint_shapes(draw: ImageDraw.ImageDraw, shapes: Iterable[Shape]) -> None:
    """Several shapes, in order."""
    for shape in shapes:
        paint_shape(draw, shape)


def paint_text(draw: ImageDraw.ImageDraw, text: Text) -> None:
    """A string with its halo."""
    put = partial(write, halo=text.halo, halo_colour=text.halo_colour)
    put(draw, text.at, text.text, text.colour, text.size, bold=text.bold, anchor=text.anchor)


def paint_bodies(
    draw: ImageDraw.ImageDraw, pieces: TablePieces, kind: Literal["unit", "leader"]
) -> None:
    """The units (``kind`` "unit") or the leaders' markers."""
    for body in pieces.bodies:
        if body.kind == kind:
            paint_shapes(draw, body.shapes)


def paint_labels(draw: ImageDraw.ImageDraw, pieces: TablePieces) -> None:
    """Leader lines under everything, then badge rows, names, tags and the key."""
    for label in pieces.labels:
        if label.line is not None:
            paint_shape(draw, label.line)
    for row in pieces.badges:
        paint_marks(draw, row.marks)
    for label in pieces.labels:
        _paint_label(draw, label)
    if pieces.key_box is not None:
        draw.rectangle(pieces.key_box, fill=PAPER, outline=INK_SOFT)
        for text in pieces.key:
            paint_text(draw, text)


def _paint_label(draw: ImageDraw.ImageDraw, label: Label) -> None:
    for text in (label.tag, label.name):
        if text is not None:
            paint_text(draw, text)
