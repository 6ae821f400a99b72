"""The table's pieces as data: what to draw, where and in which style, before any drawing.

The table (``map_layer.table_pieces``) records terrain and marks as ``sketch`` marks and
the placement pass (``placement``) places units, labels and badges into a ``TablePieces``;
the Pillow backend (``paint``) draws it; another backend (SVG) can draw the same tree, and the
legibility tests read it instead of the pixels. Boxes are (left, top, right, bottom) pixels
of the table image.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.rendering.badges import Badge
from bot.rendering.sketch import Drawn, Text
from bot.rendering.style import RGB
from rules_core.codec import Json

Box = tuple[float, float, float, float]
PixelPoint = tuple[float, float]


@dataclass(frozen=True)
class Shape:
    """A polygon (``closed``) or a polyline, with its fill, outline and line width."""

    points: tuple[PixelPoint, ...]
    fill: RGB | None
    outline: RGB | None
    width: int = 1
    closed: bool = True


@dataclass(frozen=True)
class Body:
    """A unit (``kind`` "unit") or a leader's marker (``kind`` "leader") and its shapes."""

    kind: Literal["unit", "leader"]
    id: str
    side: str
    box: Box
    outline: tuple[PixelPoint, ...]  # the footprint's corners, or the marker's box
    shapes: tuple[Shape, ...]


@dataclass(frozen=True)
class Label:
    """A body's name: inside its box, or outside joined to it by ``line``; a ``tag`` (short
    name) inside the box when the name is outside; ``keyed`` when the name is in the key."""

    owner: str
    name: Text | None
    tag: Text | None = None
    line: Shape | None = None
    keyed: bool = False


@dataclass(frozen=True)
class BadgeRow:
    """A body's status badges, in a row touching the body's own box: each badge's words and
    colours as ``marks`` (a tag and its text, or dots)."""

    owner: str
    box: Box
    items: tuple[tuple[Badge, Json], ...]
    marks: tuple[Drawn, ...] = ()


@dataclass(frozen=True)
class TablePieces:
    """The whole table: its terrain; the marks under the units (deployment zones, a reach,
    terrain changes, moves); units; the marks over them (shots, combats); leaders, labels and
    badges; the key of names too long to place; the texts laid last (a reach's words,
    terrain names)."""

    bodies: tuple[Body, ...]
    labels: tuple[Label, ...]
    badges: tuple[BadgeRow, ...]
    key: tuple[Text, ...] = ()
    key_box: Box | None = None
    terrain: tuple[Drawn, ...] = ()
    under: tuple[Drawn, ...] = ()
    over: tuple[Drawn, ...] = ()
    texts: tuple[Text, ...] = ()

    def body(self, owner: str) -> Body:
        """The body a label or badge row belongs to."""
        return next(item for item in self.bodies if item.id == owner)


def label_boxes(label: Label) -> list[Box]:
    """The boxes a label's texts take (its name outside or inside, its tag)."""
    return [text.box for text in (label.name, label.tag) if text is not None]
