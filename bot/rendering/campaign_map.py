"""The campaign map as a PNG: regions coloured by who holds them, adjacency lines between their
centres, armies as markers in their side's colour with the units they have left, a legend
explaining every kind of mark drawn."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from PIL import Image, ImageDraw

from bot.rendering.style import (
    CONTACT,
    INK,
    INK_SOFT,
    LABEL_SIZE,
    PAPER,
    RGB,
    SIDE_COLOURS,
    SIDE_ORDER,
    SMALL_SIZE,
    TITLE_BAR,
    TITLE_SIZE,
    WHITE,
    SideStyle,
    shade,
    side_style,
)
from bot.rendering.text import width as text_width
from bot.rendering.text import write
from bot.services.campaign_map import MapPicture

MAX_SIDE = 1200  # px: the longer side of the drawing area
MARGIN = 60
TITLE_HEIGHT = 44
LEGEND_ROW = 24
UNHELD: RGB = (226, 222, 208)
REGION_RADIUS = 46  # px: a region given only by its centre is drawn as a circle this size
MARKER_RADIUS = 13
SWORDS_RADIUS = 11
MARKER_STEP = 36  # px between the markers of armies in one region
LINK: RGB = (150, 140, 120)
BACKDROP_TINT = 120  # the opacity of a region's colour over a background picture


# The kinds of mark the map draws; a side's colour is the kind f"{SIDE}{name}".
SIDE, UNHELD_MARK, ARMY, LINK_MARK, CENTRE = "side:", "unheld", "army", "link", "centre"
BATTLE, MEETING = "battle", "meeting"
BATTLE_WORDS = "a battle of the campaign being fought here"
MEETING_WORDS = "armies of different sides meet: a battle to come"
ARMY_WORDS = "an army, in its side's colour: name, units left / units"
LINK_WORDS = "neighbours: an army marches along a link, one a campaign turn"
CENTRE_WORDS = "a region's centre, under its name"


@dataclass
class MapLayout:
    """What a drawing of the map holds, for tests that read the layout rather than the pixels:
    each kind of mark drawn on the map, and each legend entry (kind -> its words)."""

    drawn: set[str] = field(default_factory=set)
    legend: dict[str, str] = field(default_factory=dict)


def colours(picture: MapPicture) -> dict[str, RGB]:
    """Each side's colour, in the order the picture lists the sides."""
    ordered = [SIDE_COLOURS[name] for name in SIDE_ORDER]
    return {side: ordered[i % len(ordered)] for i, side in enumerate(picture.sides)}


def render_map(picture: MapPicture) -> bytes:
    """The PNG bytes of the map."""
    image, _layout = draw_map(picture)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def draw_map(picture: MapPicture) -> tuple[Image.Image, MapLayout]:
    """The map drawn, with what it holds."""
    points = [r.at for r in picture.regions] + [p for r in picture.regions for p in r.polygon]
    backdrop = Image.open(io.BytesIO(picture.background)) if picture.background else None
    if backdrop is not None:
        points += [(0.0, 0.0), (float(backdrop.width), float(backdrop.height))]
    low_x, low_y = min(p[0] for p in points), min(p[1] for p in points)
    high_x, high_y = max(p[0] for p in points), max(p[1] for p in points)
    span = max(high_x - low_x, high_y - low_y, 1.0)
    scale = MAX_SIDE / span if span > MAX_SIDE else max(1.0, min(3.0, 600 / span))

    def px(point: tuple[float, float]) -> tuple[float, float]:
        return (
            MARGIN + (point[0] - low_x) * scale,
            TITLE_HEIGHT + MARGIN + (point[1] - low_y) * scale,
        )

    width = round((high_x - low_x) * scale + 2 * MARGIN)
    side_colour = colours(picture)
    words = [*(f"held by {side}" for side in side_colour), ARMY_WORDS, LINK_WORDS, BATTLE_WORDS]
    words.append(MEETING_WORDS)
    widest = max(text_width(w, SMALL_SIZE) for w in words)
    width = max(width, 480, round(MARGIN / 2 + 34 + widest + 12))  # the legend shows whole
    # The sides, nobody, the army, link, centre, battle and meeting.
    legend_rows = len(side_colour) + 6
    height = round(
        TITLE_HEIGHT + (high_y - low_y) * scale + 2 * MARGIN + legend_rows * LEGEND_ROW + 12
    )
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)

    draw.rectangle((0, 0, width, TITLE_HEIGHT), fill=TITLE_BAR)
    title = f"{picture.name} · campaign turn {picture.turn}"
    write(draw, (12, TITLE_HEIGHT / 2), title, WHITE, TITLE_SIZE, bold=True, anchor="lm")

    centres = {r.name: px(r.at) for r in picture.regions}
    layout = MapLayout()
    _draw_regions(image, draw, picture, backdrop, scale, px, centres, side_colour, layout.drawn)
    _draw_armies(draw, picture, centres, side_colour, layout.drawn)
    _draw_battles(draw, picture, centres, layout.drawn)
    layout.legend = _draw_legend(draw, height, legend_rows, side_colour)
    return image, layout


def _draw_regions(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    picture: MapPicture,
    backdrop: Image.Image | None,
    scale: float,
    px: Callable[[tuple[float, float]], tuple[float, float]],
    centres: dict[str, tuple[float, float]],
    side_colour: dict[str, RGB],
    drawn: set[str],
) -> None:
    """The background, each region tinted by its holder, the links between neighbours and
    the regions' names."""
    # Over a background picture the regions are tinted, not painted over.
    alpha = 255 if backdrop is None else BACKDROP_TINT
    if backdrop is not None:
        size = (round(backdrop.width * scale), round(backdrop.height * scale))
        corner = px((0.0, 0.0))
        image.paste(backdrop.convert("RGB").resize(size), (round(corner[0]), round(corner[1])))
    tint = Image.new("RGBA", image.size, (0, 0, 0, 0))
    tinted = ImageDraw.Draw(tint)
    for region in picture.regions:
        holder = picture.holders.get(region.name)
        drawn.add(SIDE + holder if holder in side_colour else UNHELD_MARK)
        fill = shade(side_colour[holder], -0.55) if holder in side_colour else UNHELD
        edge = side_style(side_colour[holder]).edge if holder in side_colour else INK_SOFT
        if region.polygon:
            tinted.polygon(
                [px(p) for p in region.polygon], fill=(*fill, alpha), outline=(*edge, 255), width=3
            )
        else:
            x, y = centres[region.name]
            r = REGION_RADIUS
            tinted.ellipse(
                (x - r, y - r, x + r, y + r), fill=(*fill, alpha), outline=(*edge, 255), width=3
            )
    image.paste(tint, (0, 0), tint)
    linked: set[frozenset[str]] = set()
    for region in picture.regions:
        for other in region.adjacent:
            pair = frozenset((region.name, other))
            if pair in linked:
                continue
            linked.add(pair)
            drawn.add(LINK_MARK)
            _dashed(draw, centres[region.name], centres[other], LINK)
    for region in picture.regions:
        x, y = centres[region.name]
        drawn.add(CENTRE)
        _centre(draw, x, y)
        write(draw, (x, y - 8), region.name, INK, LABEL_SIZE, bold=True, anchor="md", halo=2)


def _draw_armies(
    draw: ImageDraw.ImageDraw,
    picture: MapPicture,
    centres: dict[str, tuple[float, float]],
    side_colour: dict[str, RGB],
    drawn: set[str],
) -> None:
    """Each army's marker, in a column under its region's name."""
    by_region: dict[str, list[int]] = {}
    for i, marker in enumerate(picture.armies):
        by_region.setdefault(marker.region, []).append(i)
    for region_name, indices in by_region.items():
        cx, cy = centres.get(region_name, (0.0, 0.0))
        for k, i in enumerate(indices):
            marker = picture.armies[i]
            x, y = cx, cy + 22 + k * MARKER_STEP  # a column under the region's name
            drawn.update((ARMY, SIDE + marker.side))
            style = side_style(side_colour.get(marker.side, (90, 90, 96)))
            _marker(draw, x, y, style)
            label = f"{marker.name} {marker.units_left}/{marker.units}"
            write(draw, (x, y + MARKER_RADIUS), label, style.text, SMALL_SIZE, anchor="ma", halo=2)


def _draw_battles(
    draw: ImageDraw.ImageDraw,
    picture: MapPicture,
    centres: dict[str, tuple[float, float]],
    drawn: set[str],
) -> None:
    """Crossed swords over each region with a battle being fought, and hollow ones where
    armies of different sides meet and their battle is still to come."""
    sides: dict[str, set[str]] = {}
    for marker in picture.armies:
        sides.setdefault(marker.region, set()).add(marker.side)
    meetings = [r for r, met in sides.items() if len(met) > 1 and r not in picture.battles]
    for regions, fought in ((picture.battles, True), (meetings, False)):
        for region in regions:
            if region in centres:
                x, y = centres[region]
                drawn.add(BATTLE if fought else MEETING)
                _swords(draw, x, y - 38, fought=fought)


def _swords(draw: ImageDraw.ImageDraw, x: float, y: float, *, fought: bool) -> None:
    """Crossed swords in a disc, centred at (x, y): filled for a battle being fought."""
    r = SWORDS_RADIUS
    fill, blade = (CONTACT, WHITE) if fought else (WHITE, CONTACT)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=CONTACT, width=2)
    s = r * 0.55
    draw.line((x - s, y - s, x + s, y + s), fill=blade, width=3)
    draw.line((x - s, y + s, x + s, y - s), fill=blade, width=3)


def _draw_legend(
    draw: ImageDraw.ImageDraw,
    height: int,
    legend_rows: int,
    side_colour: dict[str, RGB],
) -> dict[str, str]:
    """Under the map, a sample of every kind of mark with its words: which colour holds for
    which side, then the army marker, the link between neighbours, a region's centre, a battle
    and a meeting; the kind and words of each entry."""
    left, top = MARGIN / 2, height - legend_rows * LEGEND_ROW - 8
    write(draw, (left, top), "Key:", INK, SMALL_SIZE, bold=True, anchor="lm")
    rows: list[tuple[str, str, Callable[[float], None]]] = [
        (
            SIDE + side,
            f"held by {side}",
            partial(_swatch, draw, left, shade(c, -0.55), side_style(c).edge),
        )
        for side, c in side_colour.items()
    ]
    rows += [
        (UNHELD_MARK, "held by nobody", partial(_swatch, draw, left, UNHELD, INK_SOFT)),
        (ARMY, ARMY_WORDS, lambda y: _marker(draw, left + 13, y, side_style(INK_SOFT))),
        (LINK_MARK, LINK_WORDS, lambda y: _dashed(draw, (left, y), (left + 26, y), LINK)),
        (CENTRE, CENTRE_WORDS, lambda y: _centre(draw, left + 13, y)),
        (BATTLE, BATTLE_WORDS, lambda y: _swords(draw, left + 13, y, fought=True)),
        (MEETING, MEETING_WORDS, lambda y: _swords(draw, left + 13, y, fought=False)),
    ]
    legend: dict[str, str] = {}
    for i, (kind, words, sample) in enumerate(rows):
        y = top + (i + 1) * LEGEND_ROW - 4
        sample(y)
        write(draw, (left + 34, y), words, INK, SMALL_SIZE, anchor="lm")
        legend[kind] = words
    return legend


def _swatch(draw: ImageDraw.ImageDraw, left: float, fill: RGB, edge: RGB, y: float) -> None:
    """A region's colour in the legend."""
    draw.rectangle((left, y - 8, left + 26, y + 8), fill=fill, outline=edge, width=2)


def _marker(draw: ImageDraw.ImageDraw, x: float, y: float, style: SideStyle) -> None:
    """An army: a crossed box in its side's colours, centred at (x, y)."""
    r = MARKER_RADIUS
    box = (x - r, y - r * 0.75, x + r, y + r * 0.75)
    draw.rectangle(box, fill=style.fill, outline=style.edge, width=2)
    draw.line((x - r, y - r * 0.75, x + r, y + r * 0.75), fill=WHITE, width=2)
    draw.line((x - r, y + r * 0.75, x + r, y - r * 0.75), fill=WHITE, width=2)


def _centre(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    """A region's centre: a dot under its name."""
    draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=INK_SOFT)


def _dashed(
    draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float], colour: RGB
) -> None:
    """A dashed line between two points."""
    length = math.dist(start, end)
    if length == 0:
        return
    dash, gap = 10.0, 7.0
    done = 0.0
    while done < length:
        a = done / length
        b = min(done + dash, length) / length
        draw.line(
            (
                start[0] + (end[0] - start[0]) * a,
                start[1] + (end[1] - start[1]) * a,
                start[0] + (end[0] - start[0]) * b,
                start[1] + (end[1] - start[1]) * b,
            ),
            fill=colour,
            width=3,
        )
        done += dash + gap
