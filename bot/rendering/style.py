"""Colours, fonts and sizes of the map, and the fixed palette every PNG is written with."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from PIL import Image, ImageFont

RGB = tuple[int, int, int]

PAPER = (246, 243, 234)  # the page around the table
TABLE = (236, 232, 212)  # open ground
GRID_MINOR = (222, 217, 194)
GRID_MAJOR = (196, 189, 160)
INK = (28, 28, 30)
INK_SOFT = (96, 96, 100)
WHITE = (255, 255, 255)
HALO = WHITE
GHOST = (150, 150, 156)
TITLE_BAR = (40, 44, 52)
SHOT = (170, 20, 60)
CONTACT = (200, 16, 32)
REACH = (120, 40, 160)

# Okabe-Ito colours, which stay distinct for the common forms of colour blindness; the
# first two (blue, orange) are the pair for a two-sided battle.
OKABE_ITO = "blue #0072B2, orange #E69F00, green #009E73, purple #CC79A7, sky #56B4E9, red #D55E00, yellow #F0E442"  # noqa: E501


def hex_rgb(code: str) -> RGB:
    """A colour written ``#RRGGBB`` as a triple."""
    return (int(code[1:3], 16), int(code[3:5], 16), int(code[5:7], 16))


SIDE_COLOURS: dict[str, RGB] = {
    name: hex_rgb(code) for name, code in (pair.split() for pair in OKABE_ITO.split(", "))
}
SIDE_ORDER = ("blue", "orange", "green", "purple", "sky", "yellow")

TERRAIN_COLOURS: dict[str, RGB] = {
    "wood": (176, 212, 150),
    "wood_edge": (86, 140, 70),
    "tree": (98, 158, 78),
    "dense_wood": (110, 160, 96),
    "dense_tree": (44, 100, 48),
    "hill": (226, 208, 160),
    "hill_2": (212, 186, 128),
    "hill_3": (196, 164, 102),
    "contour": (150, 112, 60),
    "rough": (214, 204, 178),
    "rough_mark": (140, 124, 96),
    "marsh": (206, 224, 212),
    "marsh_mark": (66, 122, 130),
    "water": (112, 172, 222),
    "water_edge": (36, 96, 170),
    "road": (222, 196, 150),
    "road_edge": (150, 122, 84),
    "village": (228, 220, 204),
    "roof": (170, 70, 50),
    "hedge": (56, 120, 50),
    "wall": (130, 130, 130),
    "stakes": (120, 80, 40),
    "fort": (184, 180, 172),
    "fort_edge": (70, 70, 74),
}

BADGE_COLOURS: dict[str, RGB] = {
    "bad": (200, 30, 40),
    "worse": (130, 0, 60),
    "warn": (185, 90, 0),  # white words on a badge need 4.5:1 contrast (WCAG AA)
    "calm": (55, 110, 190),
    "good": (30, 130, 60),
    "neutral": (90, 90, 96),
    "pip": (20, 20, 20),
}

LABEL_SIZE = 15  # px: legible on a phone when a 1600 px map is shown full width
SMALL_SIZE = 13
TITLE_SIZE = 22


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans, shipped with the package; basic layout so output does not depend on raqm."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    path = resources.files("bot.rendering") / "fonts" / name
    with resources.as_file(path) as real:
        return ImageFont.truetype(str(real), size, layout_engine=ImageFont.Layout.BASIC)


def shade(colour: RGB, amount: float) -> RGB:
    """The colour mixed towards black (amount > 0) or white (amount < 0)."""
    target = 0 if amount > 0 else 255
    share = abs(amount)
    mixed = (round(c + (target - c) * share) for c in colour)
    r, g, b = mixed
    return (r, g, b)


@dataclass(frozen=True)
class SideStyle:
    """How one side is drawn: fill, outline and the text colour of its labels."""

    fill: RGB
    edge: RGB
    text: RGB
    ghost: RGB


def side_style(colour: RGB) -> SideStyle:
    """The shades of one side colour."""
    return SideStyle(colour, shade(colour, 0.45), shade(colour, 0.55), shade(colour, -0.55))


def _named() -> list[RGB]:
    fixed = [PAPER, TABLE, GRID_MINOR, GRID_MAJOR, INK, INK_SOFT, WHITE, GHOST, TITLE_BAR]
    fixed += [SHOT, CONTACT, REACH]
    fixed += list(TERRAIN_COLOURS.values()) + list(BADGE_COLOURS.values())
    for colour in SIDE_COLOURS.values():
        style = side_style(colour)
        fixed += [style.fill, style.edge, style.text, style.ghost]
    return list(dict.fromkeys(fixed))


def _ramps(colours: Sequence[RGB]) -> list[RGB]:
    """Steps from each colour towards white, where the edges of haloed text land."""
    steps = [shade(c, amount) for c in colours for amount in (-0.66, -0.33)]
    greys = [(v, v, v) for v in range(0, 256, 16)]
    return steps + greys


@cache
def palette_image() -> Image.Image:
    """A 'P' image holding the fixed palette the finished map is quantised to."""
    named = _named()
    colours = list(dict.fromkeys(named + _ramps(named)))[:256]
    flat = [channel for colour in colours for channel in colour]
    image = Image.new("P", (1, 1))
    image.putpalette(flat + flat[-3:] * (256 - len(colours)))
    return image


# The matplotlib comparison's colour (a TERRAIN_COLOURS key) for every terrain kind: areas
# filled, linear kinds drawn as a line of a width in points. Kept with the palette, not
# beside matplotlib, so a test checks every kind has one without matplotlib installed.
COMPARISON_AREAS = {
    "hill": "hill",
    "gentle_hill": "hill",
    "wood": "wood",
    "dense_wood": "dense_wood",
    "rough": "rough",
    "marsh": "marsh",
    "village": "village",
    "fortification": "fort",
    "impassable": "fort_edge",
    "bridge": "road",
    "ford": "water",
}
COMPARISON_LINES = {
    "river": ("water", 5),
    "stream": ("water", 3),
    "road": ("road", 4),
    "linear_obstacle": ("hedge", 3),
}
