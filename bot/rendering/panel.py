"""The side panel under the map: each side's own state and its units gone from the table,
one item a line in the side's colour, wrapped to its column so no line leaves the picture."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from bot.rendering.style import INK, RGB, SideStyle
from bot.rendering.text import width, write
from bot.rendering.wrap import wrapped

TEXT_SIZE = 14
LINE = 19  # px from one line's top to the next
GAP = 28  # px between columns
NARROWEST = 300  # px: a column is never narrower, so columns go under each other instead
FLAG = 22  # px left of a column's title for its flag
INDENT = 12  # px: items under a heading, and a wrapped item's further lines

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Column:
    """One side's (or the battle's) part: a title, then items, each under a heading ("" for
    none): ``("Lost", "Warband: destroyed, broken (Turn 3 · Melee)")``."""

    title: str
    colour: RGB
    flag: SideStyle | None
    items: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Line:
    """One line of text where the panel puts it, its top-left relative to the panel's."""

    at: tuple[float, float]
    words: str
    colour: RGB
    bold: bool = False

    def box(self, top: float = 0.0) -> Box:
        """The line's box on the picture when the panel starts ``top`` pixels down."""
        x, y = self.at
        return (x, top + y, x + width(self.words, TEXT_SIZE, self.bold), top + y + LINE)


@dataclass(frozen=True)
class Panel:
    """The panel laid out: its lines, its flags (top-left, style) and its height."""

    lines: tuple[Line, ...]
    flags: tuple[tuple[tuple[float, float], SideStyle], ...]
    height: int


def lay_out(columns: Sequence[Column], left: float, room: float) -> Panel:
    """Columns side by side across ``room`` pixels from ``left`` (as many as fit, then a new
    row of them), each item on its own line, wrapped to the column's width."""
    across = max(1, min(len(columns), int((room + GAP) // (NARROWEST + GAP))))
    wide = (room - GAP * (across - 1)) / across
    lines: list[Line] = []
    flags: list[tuple[tuple[float, float], SideStyle]] = []
    top = 0.0
    for start in range(0, len(columns), across):
        tallest = 0.0
        for index, column in enumerate(columns[start : start + across]):
            x = left + index * (wide + GAP)
            placed = _column(column, x, top, wide)
            lines += placed
            if column.flag is not None:
                flags.append(((x, top), column.flag))
            tallest = max(tallest, len(placed) * LINE)
        top += tallest + LINE // 2
    return Panel(tuple(lines), tuple(flags), round(top) if columns else 0)


def _column(column: Column, left: float, top: float, wide: float) -> list[Line]:
    """A column's lines: its title (after the flag), then each heading and item."""
    inset = FLAG if column.flag is not None else 0
    title = wrapped(column.title, TEXT_SIZE, wide - inset, bold=True, most=1)[0]
    lines = [Line((left + inset, top), title, column.colour, bold=True)]
    heading = ""
    for head, words in column.items:
        if head and head != heading:
            lines.append(Line((left, top + len(lines) * LINE), f"{head}:", column.colour, True))
        heading = head
        step = INDENT if head else 0
        for number, part in enumerate(wrapped(words, TEXT_SIZE, wide - step - INDENT)):
            x = left + step + (INDENT if number else 0)
            lines.append(Line((x, top + len(lines) * LINE), part, column.colour))
    return lines


def draw_panel(draw: ImageDraw.ImageDraw, panel: Panel, top: float) -> None:
    """Draw the panel with its top ``top`` pixels down the picture."""
    for (x, y), style in panel.flags:
        draw.rectangle((x + 2, top + y + 2, x + 5, top + y + 17), fill=style.edge)
        draw.rectangle(
            (x + 5, top + y + 2, x + 17, top + y + 10), fill=style.fill, outline=style.edge
        )
    for line in panel.lines:
        write(
            draw, (line.at[0], top + line.at[1]), line.words, line.colour, TEXT_SIZE, bold=line.bold
        )


def battle_column(items: Sequence[str]) -> Column:
    """The battle's own state (not a side's), in ink."""
    return Column("The battle", INK, None, tuple(("", words) for words in items))
