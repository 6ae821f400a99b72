"""The odds as a small bar chart: one panel per table of chances, one bar per result."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from bot.rendering.style import INK, INK_SOFT, PAPER, TITLE_BAR, WHITE, font
from bot.rendering.text import drawable, shortened
from rules_core.odds import Odds, OddsTable

WIDTH = 640
ROW = 22  # px per bar
LABEL_ROOM = 230  # px for a result's words
PERCENT_ROOM = 64
BAR = (70, 110, 170)
LIKELIEST = (196, 120, 40)
TRACK = (226, 222, 208)
TITLE, HEADING, TEXT = 17, 14, 13


def chart(odds: Odds) -> bytes:
    """A PNG of every table of an answer, its likeliest result in each drawn in amber."""
    height = 40 + sum(_panel_height(table) for table in odds.tables) + 8
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 32), fill=TITLE_BAR)
    title = shortened(drawable(odds.title), TITLE, WIDTH - 20, bold=True)
    draw.text((10, 7), title, font=font(TITLE, bold=True), fill=WHITE)
    top = 40
    for table in odds.tables:
        _panel(draw, table, top)
        top += _panel_height(table)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _panel_height(table: OddsTable) -> int:
    return 24 + ROW * len(table.chances) + 10


def _panel(draw: ImageDraw.ImageDraw, table: OddsTable, top: int) -> None:
    """One table: its title, then a labelled bar for each result."""
    heading = shortened(drawable(table.title), HEADING, WIDTH - 20, bold=True)
    draw.text((10, top), heading, font=font(HEADING, bold=True), fill=INK)
    best = max((c.chance for c in table.chances), default=0)
    left = 10 + LABEL_ROOM
    room = WIDTH - left - PERCENT_ROOM - 10
    for index, chance in enumerate(table.chances):
        y = top + 24 + index * ROW
        label = shortened(drawable(chance.label), TEXT, LABEL_ROOM - 8)
        draw.text((14, y + 3), label, font=font(TEXT), fill=INK)
        draw.rectangle((left, y + 3, left + room, y + ROW - 4), fill=TRACK)
        length = round(room * float(chance.chance))
        colour = LIKELIEST if chance.chance == best else BAR
        if length:
            draw.rectangle((left, y + 3, left + length, y + ROW - 4), fill=colour)
        words = percent(chance.percent)
        draw.text((left + room + 8, y + 3), words, font=font(TEXT), fill=INK_SOFT)


def percent(value: float) -> str:
    """A chance in percent as the chart and the table show it: "<0.1%" for a sliver."""
    if 0 < value < 0.05:
        return "<0.1%"
    if 99.95 <= value < 100:
        return ">99.9%"
    return f"{value:.1f}%"
