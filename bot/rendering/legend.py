"""The legend: a sample of everything drawn on this map, each with its words, in flowing rows."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache

from PIL import Image, ImageDraw

from bot.rendering import badges
from bot.rendering.paint import dashed, paint_marks
from bot.rendering.sketch import Sketch
from bot.rendering.style import (
    CONTACT,
    INK,
    INK_SOFT,
    PAPER,
    REACH,
    RGB,
    SHOT,
    WHITE,
    SideStyle,
)
from bot.rendering.terrain import DRAW_ORDER, DRAWERS, OBSTACLE_DRAWERS, draw_pennant
from bot.rendering.text import possessive, shortened, write
from bot.rendering.text import width as text_width
from bot.rendering.units import Piece, draw_leader, draw_unit
from bot.rendering.view import View
from rules_core.codec import Json
from rules_core.state import TerrainFeature, Unit
from rules_core.terrain_pieces import PIECE, PIECES, owner_of, piece_of, words_for

TEXT_SIZE = 14
ROW = 30  # px per legend row
MIDDLE = 12  # px from a row's top to the middle of its samples
GAP = 6  # px between a sample and its words
SPACE = 20  # px after an entry's words
SWATCH = (40, 24)
SWATCH_SCALE = 5.0  # px per measure for the bands in terrain swatches
SWATCH_MM = 25.4

Paint = Callable[[Image.Image, float, float], None]  # draws a sample at (left, top)
Owner = tuple[str, RGB]  # a side that owns a piece: its name and colour


@dataclass(frozen=True)
class Entry:
    """One legend entry: a sample drawn at (left, top), its width, and its words."""

    width: float
    paint: Paint
    words: str


def side_entry(name: str, style: SideStyle, ghost: bool = False, label: str = "") -> Entry:
    """A unit in the side's colours, facing up."""

    def paint(image: Image.Image, left: float, top: float) -> None:
        draw = ImageDraw.Draw(image)
        corners = (
            (left + 2, top + 5),
            (left + 34, top + 5),
            (left + 34, top + 19),
            (left + 2, top + 19),
        )
        stub = Unit("legend", name, "", "", "", "", 1, 1, 0, 0, 0, stands=2)
        draw_unit(draw, Piece(stub, corners, (left, top, left + 36, top + 20), style, ghost))

    return Entry(36, paint, label or (f"{name} (last seen)" if ghost else name))


def leader_entry(style: SideStyle) -> Entry:
    """The leader's star."""
    return Entry(
        24, lambda im, x, y: draw_leader(ImageDraw.Draw(im), (x + 12, y + MIDDLE), style), "leader"
    )


def terrain_entry(kind: str, style: str = "", owner: Owner | None = None, words: str = "") -> Entry:
    """A patch (or a length, for linear kinds) of one kind of terrain or piece
    (``terrain_pieces``), named ``words`` if given; an owned piece's flies its side's pennant,
    and its words say whose."""

    def paint(image: Image.Image, left: float, top: float) -> None:
        image.paste(_swatch(kind, style, owner[1] if owner else None), (round(left), round(top)))

    words = style or words or words_for(kind)
    return Entry(SWATCH[0], paint, f"{possessive(owner[0])} {words}" if owner else words)


@cache
def _swatch(kind: str, style: str, colour: RGB | None = None) -> Image.Image:
    """A terrain sample, drawn once on the legend's paper (with a pennant in ``colour``)."""
    picture = Image.new("RGB", SWATCH, PAPER)
    draw = Sketch()
    w, h = SWATCH[0] / SWATCH_SCALE, SWATCH[1] / SWATCH_SCALE
    if style:
        OBSTACLE_DRAWERS[style](draw, [(2, MIDDLE + 5), (SWATCH[0] - 2, MIDDLE - 5)])
    else:
        linear = kind in ("river", "stream", "road")
        points = ((0, h * 0.3), (w, h * 0.7)) if linear else ((0, 0), (w, 0), (w, h), (0, h))
        view = View((0.0, 0.0, w, h), SWATCH_SCALE)
        ground = PIECES.get(kind, kind)  # a piece's sample stands on the ground it is taken as
        sample = TerrainFeature("legend", ground, points, "", {PIECE: kind})
        DRAWERS[kind](draw, view, sample, SWATCH_MM)
    if colour is not None:
        draw_pennant(draw, (6, SWATCH[1] - 1), colour)
    paint_marks(ImageDraw.Draw(picture), draw.marks)
    return picture


def terrain_entries(
    terrain: Sequence[TerrainFeature],
    styles: Callable[[TerrainFeature], str],
    owners: Mapping[str, Owner] | None = None,
    words: Mapping[str, str] | None = None,
) -> list[Entry]:
    """One entry per piece (and per obstacle style) on the map, in drawing order; a piece a
    side owns gets one per owner, named there once (``owners``: side id to name and colour);
    ``words`` are the ruleset's own for kinds of ground."""
    known = owners or {}
    pieces = {
        (piece_of(f), owner_of(f) if owner_of(f) in known else None)
        for f in terrain
        if f.kind != "linear_obstacle"
    }
    entries = [
        terrain_entry(
            piece, owner=known[side] if side else None, words=(words or {}).get(piece, "")
        )
        for piece in DRAW_ORDER
        for side in sorted({s or "" for p, s in pieces if p == piece})
    ]
    seen = sorted({styles(f) for f in terrain if f.kind == "linear_obstacle"})
    return entries + [terrain_entry("linear_obstacle", style) for style in seen]


def move_entry() -> Entry:
    """The movement arrow."""

    def paint(image: Image.Image, left: float, top: float) -> None:
        draw = ImageDraw.Draw(image)
        y = top + MIDDLE
        draw.line(((left + 4, y), (left + 26, y)), fill=INK, width=3)
        draw.ellipse((left, y - 4, left + 8, y + 4), fill=INK, outline=WHITE)
        draw.polygon(((left + 36, y), (left + 25, y - 6), (left + 25, y + 6)), fill=INK)

    return Entry(36, paint, "moved this step")


def terrain_change_entry(laid: bool) -> Entry:
    """Terrain the step placed or moved (outlined), or removed or moved away (dashed)."""

    def paint(image: Image.Image, left: float, top: float) -> None:
        draw = ImageDraw.Draw(image)
        box = [
            (left + 3, top + 5),
            (left + 33, top + 5),
            (left + 33, top + 19),
            (left + 3, top + 19),
            (left + 3, top + 5),
        ]
        if laid:
            draw.line(box, fill=INK, width=3, joint="curve")
        else:
            dashed(draw, box, INK_SOFT, 2, dash=6.0, gap=5.0)

    words = "terrain placed or moved this step" if laid else "where terrain was before this step"
    return Entry(36, paint, words)


def shot_entry() -> Entry:
    """The shot line."""

    def paint(image: Image.Image, left: float, top: float) -> None:
        draw = ImageDraw.Draw(image)
        dashed(draw, ((left, top + MIDDLE), (left + 28, top + MIDDLE)), SHOT, 3, dash=7, gap=4)
        draw.ellipse(
            (left + 26, top + MIDDLE - 6, left + 38, top + MIDDLE + 6), outline=SHOT, width=2
        )

    return Entry(38, paint, "shot")


def contact_entry() -> Entry:
    """The combat mark."""

    def paint(image: Image.Image, left: float, top: float) -> None:
        draw = ImageDraw.Draw(image)
        x, y = left + 11, top + MIDDLE
        draw.ellipse((x - 10, y - 10, x + 10, y + 10), fill=CONTACT, outline=WHITE, width=2)
        for sign in (1, -1):
            draw.line(((x - 5, y - 5 * sign), (x + 5, y + 5 * sign)), fill=WHITE, width=3)

    return Entry(22, paint, "in combat")


def reach_entry(words: str) -> Entry:
    """The dashed outline of a unit's move or range."""

    def paint(image: Image.Image, left: float, top: float) -> None:
        draw = ImageDraw.Draw(image)
        dashed(draw, ((left, top + MIDDLE), (left + 36, top + MIDDLE)), REACH, 3, dash=9, gap=5)

    return Entry(36, paint, words)


def zone_entry(side: str, style: SideStyle) -> Entry:
    """The dashed line where a side's deployment zone ends, in the side's colour."""

    def paint(image: Image.Image, left: float, top: float) -> None:
        draw = ImageDraw.Draw(image)
        line = ((left, top + MIDDLE), (left + 36, top + MIDDLE))
        dashed(draw, line, style.fill, 3, dash=14.0, gap=8.0)

    return Entry(36, paint, f"{side} deploys up to this line")


def badge_entry(badge: badges.Badge, value: Json) -> Entry:
    """One status badge with an example value."""

    def paint(image: Image.Image, left: float, top: float) -> None:
        row = badges.row_marks(left, top + MIDDLE - badges.HEIGHT // 2, [(badge, value)])
        paint_marks(ImageDraw.Draw(image), row)

    return Entry(badge.width(value), paint, badge.meaning)


def rows(entries: Sequence[Entry], width: float) -> list[list[Entry]]:
    """The entries flowed into as many rows as they need, none wider than ``width``; words
    too long for a row of their own are cut with "…"."""
    lines: list[list[Entry]] = [[]]
    used = 0.0
    for entry in entries:
        room = width - entry.width - GAP - SPACE
        if text_width(entry.words, TEXT_SIZE) > room:
            entry = replace(entry, words=shortened(entry.words, TEXT_SIZE, room))
        size = _extent(entry)
        if lines[-1] and used + size > width:
            lines.append([])
            used = 0.0
        lines[-1].append(entry)
        used += size
    return [line for line in lines if line]


def _extent(entry: Entry) -> float:
    """The pixels an entry takes in its row: sample, words and the space after them."""
    return entry.width + GAP + text_width(entry.words, TEXT_SIZE) + SPACE


def placed(
    left: float, top: float, lines: Sequence[Sequence[Entry]]
) -> list[tuple[Entry, tuple[float, float, float, float]]]:
    """Each entry with its box (sample and words) when the rows are drawn from (left, top)."""
    found = []
    for index, line in enumerate(lines):
        x, y = left, top + index * ROW
        for entry in line:
            right = x + entry.width + GAP + text_width(entry.words, TEXT_SIZE)
            found.append((entry, (x, y, right, y + ROW - 4)))
            x += _extent(entry)
    return found


def draw_legend(image: Image.Image, left: float, top: float, lines: list[list[Entry]]) -> None:
    """Draw the rows of entries from (left, top)."""
    draw = ImageDraw.Draw(image)
    for entry, (x, y, _, _) in placed(left, top, lines):
        entry.paint(image, x, y)
        write(draw, (x + entry.width + GAP, y + MIDDLE), entry.words, INK, TEXT_SIZE, anchor="lm")
