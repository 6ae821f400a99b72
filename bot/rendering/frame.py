"""The frame around the table: grid, labelled edges, deployment edges, scale bar, compass, title."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from bot.rendering.style import (
    GRID_MAJOR,
    GRID_MINOR,
    INK,
    INK_SOFT,
    SMALL_SIZE,
    TITLE_BAR,
    TITLE_SIZE,
    WHITE,
    SideStyle,
)
from bot.rendering.text import shortened, width, write
from bot.rendering.view import View
from bot.rendering.wrap import wrapped
from rules_core.state import BattleState, Point

STEPS = (0.25, 0.5, 1.0, 2.0, 3.0, 6.0, 12.0, 24.0, 48.0, 96.0)
MIN_MINOR_PX = 16.0  # closer grid lines turn into a grey wash
MIN_MAJOR_PX = 110.0  # labelled lines far enough apart to count squares between them
SCALE_BAR_PX = 160.0
EDGE_TEXT = 14
UNIT_WORDS = {"inch": ("in", "inches"), "SF": ("SF", "SF"), "H": ("H", "H")}
COMPASS = {"N": (0.0, -1.0), "E": (1.0, 0.0), "S": (0.0, 1.0), "W": (-1.0, 0.0)}
COMPASS_WORDS = 108  # px from the compass's left to the words naming each side's edge
EDGE_NAMES = {"N": "north", "S": "south", "E": "east", "W": "west"}
TITLE_GAP = 14  # px between the title bar's edge and its words, and between its halves
TITLE_LINE = 28  # px from one title line to the next


@dataclass(frozen=True)
class Grid:
    """Grid spacing: light lines every ``minor``, darker and labelled every ``major``."""

    minor: float
    major: float


def grid_for(scale: float) -> Grid:
    """The finest readable grid at this many pixels per measure."""
    minor = next((s for s in STEPS if s * scale >= MIN_MINOR_PX), STEPS[-1])
    major = next((s for s in STEPS if s * scale >= MIN_MAJOR_PX and _multiple(s, minor)), minor * 8)
    return Grid(minor, major)


def _multiple(value: float, step: float) -> bool:
    ratio = value / step
    return abs(ratio - round(ratio)) < 1e-9


def _ticks(low: float, high: float, step: float) -> list[float]:
    first = math.ceil(low / step - 1e-9)
    return [i * step for i in range(first, math.floor(high / step + 1e-9) + 1)]


def draw_grid(
    draw: ImageDraw.ImageDraw, view: View, step: float, colour: tuple[int, int, int]
) -> None:
    """Grid lines every ``step`` across the view."""
    x0, y0, x1, y1 = view.area
    for x in _ticks(x0, x1, step):
        px = round(view.px((x, 0))[0])
        draw.line(((px, 0), (px, view.height)), fill=colour)
    for y in _ticks(y0, y1, step):
        py = round(view.px((0, y))[1])
        draw.line(((0, py), (view.width, py)), fill=colour)


def draw_minor_grid(draw: ImageDraw.ImageDraw, view: View, grid: Grid) -> None:
    """The light grid, under the terrain."""
    draw_grid(draw, view, grid.minor, GRID_MINOR)


def draw_major_grid(draw: ImageDraw.ImageDraw, view: View, grid: Grid) -> None:
    """The labelled lines, over the terrain so distances read across a wood."""
    draw_grid(draw, view, grid.major, GRID_MAJOR)


def draw_edges(draw: ImageDraw.ImageDraw, view: View, grid: Grid, origin: tuple[int, int]) -> None:
    """Numbers at the labelled lines on all four edges, so either player reads from his side."""
    left, top = origin
    right, bottom = left + view.width, top + view.height
    x0, y0, x1, y1 = view.area
    for x in _ticks(x0, x1, grid.major):
        px = left + view.px((x, 0))[0]
        for row, anchor in ((top - 4, "ms"), (bottom + 4, "mt")):
            write(draw, (px, row), f"{x:g}", INK_SOFT, EDGE_TEXT, anchor=anchor)
    for y in _ticks(y0, y1, grid.major):
        py = top + view.px((0, y))[1]
        write(draw, (left - 5, py), f"{y:g}", INK_SOFT, EDGE_TEXT, anchor="rm")
        write(draw, (right + 5, py), f"{y:g}", INK_SOFT, EDGE_TEXT, anchor="lm")
    draw.rectangle((left - 1, top - 1, right, bottom), outline=INK, width=1)


def side_edge(state: BattleState, side: str, zone: Sequence[Point] | None = None) -> str | None:
    """The table edge a side deploys on: N, E, S or W, or None if nothing says.

    Read from the side's ``edge`` status, else its deployment ``zone`` (nearer the south or
    the north edge), else the edge nearest the middle of its units.
    """
    status = state.side(side).status
    table = state.battlefield
    edge = str(status.get("edge", "")).upper()[:1]
    if edge in COMPASS:
        return edge
    if zone:
        middle = sum(y for _, y in zone) / len(zone)
        return "S" if middle < table.depth / 2 else "N"
    units = state.units_of(side, on_table=True)
    if not units:
        return None
    x = sum(u.x for u in units) / len(units)
    y = sum(u.y for u in units) / len(units)
    gaps = {"W": x, "E": table.width - x, "S": y, "N": table.depth - y}
    return min(gaps, key=lambda key: gaps[key])


def draw_deploy_edges(
    draw: ImageDraw.ImageDraw, view: View, origin: tuple[int, int], edges: Mapping[str, SideStyle]
) -> None:
    """A band in the side's colour just outside the table edge it deploys on."""
    left, top = origin
    right, bottom = left + view.width, top + view.height
    bands = {
        "N": (left, top - 7, right, top - 3),
        "S": (left, bottom + 3, right, bottom + 7),
        "W": (left - 7, top, left - 3, bottom),
        "E": (right + 3, top, right + 7, bottom),
    }
    for edge, style in edges.items():
        draw.rectangle(bands[edge], fill=style.fill)


def draw_scale_bar(
    draw: ImageDraw.ImageDraw,
    left: float,
    top: float,
    view: View,
    grid: Grid,
    measure: str,
    mm: float,
) -> float:
    """A bar of whole labelled grid steps, at least ``SCALE_BAR_PX`` long; returns its width."""
    short = UNIT_WORDS.get(measure, (measure, measure))[0]
    length = grid.major * max(1, math.ceil(SCALE_BAR_PX / view.length(grid.major)))
    piece = grid.minor if length / grid.minor <= 12 else grid.major
    segments = round(length / piece)
    step = view.length(piece)
    for index in range(segments):
        colour = INK if index % 2 == 0 else WHITE
        box = (left + index * step, top, left + (index + 1) * step, top + 9)
        draw.rectangle(box, fill=colour, outline=INK)
    end = left + segments * step
    write(draw, (left, top + 12), "0", INK, EDGE_TEXT, anchor="mt")
    write(draw, (end, top + 12), f"{length:g} {short}", INK, EDGE_TEXT, anchor="mt")
    note = f"grid {grid.minor:g} {short} · 1 {short} = {mm:g} mm"
    write(draw, (left, top + 32), note, INK_SOFT, SMALL_SIZE)
    return max(end - left, width(note, SMALL_SIZE))


def draw_compass(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    deploys: Sequence[tuple[str, str, SideStyle]],
    room: float = 1000.0,
) -> None:
    """A compass rose with north up, and beside it which side deploys on which edge, the
    words cut to ``room`` pixels."""
    cx, cy = centre
    r = 24.0
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=INK_SOFT, width=1)
    draw.polygon(((cx, cy - r + 2), (cx - 7, cy + 4), (cx, cy), (cx + 7, cy + 4)), fill=INK)
    draw.polygon(((cx, cy + r - 2), (cx - 7, cy - 4), (cx, cy), (cx + 7, cy - 4)), outline=INK)
    for letter, (dx, dy) in COMPASS.items():
        write(
            draw,
            (cx + dx * (r + 10), cy + dy * (r + 10)),
            letter,
            INK,
            EDGE_TEXT,
            bold=True,
            anchor="mm",
        )
    line = cy - 10 * len(deploys) + 2
    for edge, name, style in deploys:
        draw.rectangle(
            (cx + r + 26, line - 6, cx + r + 38, line + 6), fill=style.fill, outline=style.edge
        )
        text = shortened(edge_words(name, edge), EDGE_TEXT, room)
        write(draw, (cx + r + 44, line), text, style.text, EDGE_TEXT, anchor="lm")
        line += 20


def edge_words(name: str, edge: str) -> str:
    """Which edge a side deploys on, as the compass says it: "Red: south edge"."""
    return f"{name}: {EDGE_NAMES[edge]} edge"


def title_lines(left: str, right: str, size: int) -> tuple[str, ...]:
    """The title's left half in lines beside the right half: two at most, then "…"."""
    right = shortened(right, EDGE_TEXT + 2, size / 3)
    room = size - TITLE_GAP * 3 - width(right, EDGE_TEXT + 2)
    return tuple(wrapped(left, TITLE_SIZE, room, bold=True, most=2))


def draw_title(
    draw: ImageDraw.ImageDraw, size: int, height: int, lines: Sequence[str], right: str
) -> None:
    """The title bar: battle, turn and step on the left (in ``lines``), ruleset and view on
    the right of the first line."""
    draw.rectangle((0, 0, size, height), fill=TITLE_BAR)
    first = (height - TITLE_LINE * (len(lines) - 1)) / 2
    for number, line in enumerate(lines):
        at = (TITLE_GAP, first + number * TITLE_LINE)
        write(draw, at, line, WHITE, TITLE_SIZE, bold=True, anchor="lm")
    right = shortened(right, EDGE_TEXT + 2, size / 3)
    write(draw, (size - TITLE_GAP, first), right, WHITE, EDGE_TEXT + 2, anchor="rm")
