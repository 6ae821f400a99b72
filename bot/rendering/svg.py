"""A second backend: the table's scene (``table_scene``) written as SVG, without Pillow.

It draws what the Pillow backend (``paint``) draws, from the same data, in the same order:
terrain, the marks under the units, units, the marks over them, leaders, leader lines,
badges, labels, the key and the last texts. Text is written in the browser's sans-serif.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from bot.rendering.sketch import Drawn, Mark, Text
from bot.rendering.style import INK_SOFT, PAPER, RGB
from bot.rendering.table_scene import Shape, TablePieces


def colour(rgb: RGB | None) -> str:
    """An SVG colour, ``none`` for no colour."""
    return "none" if rgb is None else f"#{rgb[0]:02x}{rgb[1]:02x}{rgb[2]:02x}"


def _style(fill: RGB | None, stroke: RGB | None, width: int | None) -> str:
    line = "" if stroke is None else f' stroke-width="{width or 1}"'
    return f'fill="{colour(fill)}" stroke="{colour(stroke)}"{line}'


def _points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def mark_element(mark: Mark) -> str:
    """One recorded shape as an SVG element."""
    style = _style(mark.fill, mark.stroke, mark.width)
    if mark.kind in ("line", "polygon"):
        tag = "polyline" if mark.kind == "line" else "polygon"
        dash = "" if mark.dash is None else f' stroke-dasharray="{mark.dash[0]:g} {mark.dash[1]:g}"'
        return f'<{tag} points="{_points(mark.points)}" {style}{dash}/>'
    (x0, y0), (x1, y1) = mark.points
    if mark.kind == "ellipse":
        centre = f'cx="{(x0 + x1) / 2:.1f}" cy="{(y0 + y1) / 2:.1f}"'
        return f'<ellipse {centre} rx="{(x1 - x0) / 2:.1f}" ry="{(y1 - y0) / 2:.1f}" {style}/>'
    box = f'x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}"'
    return f'<rect {box} rx="{mark.radius:g}" {style}/>'


def text_element(text: Text) -> str:
    """A string at its box's top-left, with its halo as a stroke under the letters."""
    weight = "bold" if text.bold else "normal"
    halo = (
        f' stroke="{colour(text.halo_colour)}" stroke-width="{text.halo * 2}" paint-order="stroke"'
        if text.halo
        else ""
    )
    at = f'x="{text.box[0]:.1f}" y="{text.box[1]:.1f}" dominant-baseline="hanging"'
    font = f'font-family="sans-serif" font-size="{text.size}" font-weight="{weight}"'
    return f'<text {at} {font} fill="{colour(text.colour)}"{halo}>{escape(text.text)}</text>'


def shape_element(shape: Shape) -> str:
    """A unit's or leader's shape."""
    tag = "polygon" if shape.closed else "polyline"
    fill = shape.fill if shape.closed else None
    return f'<{tag} points="{_points(shape.points)}" {_style(fill, shape.outline, shape.width)}/>'


def drawn_element(item: Drawn) -> str:
    """A recorded mark or text."""
    return text_element(item) if isinstance(item, Text) else mark_element(item)


def _group(name: str, items: Iterable[str], owner: str = "") -> str:
    whose = f' data-owner="{escape(owner)}"' if owner else ""
    return f'<g class="{name}"{whose}>' + "".join(items) + "</g>"


def scene_svg(pieces: TablePieces, size: tuple[int, int]) -> str:
    """The table as an SVG document ``size`` pixels wide and tall."""
    bodies = {kind: [b for b in pieces.bodies if b.kind == kind] for kind in ("unit", "leader")}
    parts = [_group("terrain", map(drawn_element, pieces.terrain))]
    parts.append(_group("under", map(drawn_element, pieces.under)))
    parts += [_group("unit", map(shape_element, b.shapes), b.id) for b in bodies["unit"]]
    parts.append(_group("over", map(drawn_element, pieces.over)))
    parts += [_group("leader", map(shape_element, b.shapes), b.id) for b in bodies["leader"]]
    lines = [shape_element(label.line) for label in pieces.labels if label.line is not None]
    parts.append(_group("leader-lines", lines))
    parts += [_group("badges", map(drawn_element, row.marks), row.owner) for row in pieces.badges]
    for label in pieces.labels:
        texts = [text_element(t) for t in (label.tag, label.name) if t is not None]
        parts.append(_group("label", texts, label.owner))
    if pieces.key_box is not None:
        left, top, right, bottom = pieces.key_box
        parts.append(
            mark_element(Mark("rectangle", ((left, top), (right, bottom)), PAPER, INK_SOFT))
        )
    parts.append(_group("key", map(text_element, pieces.key)))
    parts.append(_group("texts", map(text_element, pieces.texts)))
    width, height = size
    head = f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
    return head + "".join(parts) + "</svg>"
