"""The Pillow backend: draws the table's pieces (``table_scene``) onto an image."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Literal

from PIL import ImageDraw

from bot.rendering import badges
from bot.rendering.shapes import outlined
from bot.rendering.style import INK_SOFT, PAPER
from bot.rendering.table_scene import Label, Shape, TablePieces, Text
from bot.rendering.text import write


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
        badges.draw_row(draw, row.box[0], row.box[1], list(row.items))
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
