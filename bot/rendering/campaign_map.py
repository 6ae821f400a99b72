"""The campaign map as a PNG: regions coloured by who holds them, adjacency lines between their
centres, armies as markers in their side's colour with the units they have left, a legend."""

from __future__ import annotations

import io
import math
from collections.abc import Callable

from PIL import Image, ImageDraw

from bot.rendering.style import (
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
    shade,
    side_style,
)
from bot.rendering.text import write
from bot.services.campaign_map import MapPicture

MAX_SIDE = 1200  # px: the longer side of the drawing area
MARGIN = 60
TITLE_HEIGHT = 44
LEGEND_ROW = 24
UNHELD: RGB = (226, 222, 208)
REGION_RADIUS = 46  # px: a region given only by its centre is drawn as a circle this size
MARKER_RADIUS = 13
MARKER_STEP = 36  # px between the markers of armies in one region
LINK: RGB = (150, 140, 120)
BACKDROP_TINT = 120  # the opacity of a region's colour over a background picture


def colours(picture: MapPicture) -> dict[str, RGB]:
    """Each side's colour, in the order the picture lists the sides."""
    ordered = [SIDE_COLOURS[name] for name in SIDE_ORDER]
    return {side: ordered[i % len(ordered)] for i, side in enumerate(picture.sides)}


def render_map(picture: MapPicture) -> bytes:
    """The PNG bytes of the map."""
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
    width = max(width, 480)
    side_colour = colours(picture)
    legend_rows = len(side_colour) + 1
    height = round(
        TITLE_HEIGHT + (high_y - low_y) * scale + 2 * MARGIN + legend_rows * LEGEND_ROW + 12
    )
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)

    draw.rectangle((0, 0, width, TITLE_HEIGHT), fill=TITLE_BAR)
    title = f"{picture.name} · campaign turn {picture.turn}"
    write(draw, (12, TITLE_HEIGHT / 2), title, WHITE, TITLE_SIZE, bold=True, anchor="lm")

    centres = {r.name: px(r.at) for r in picture.regions}
    _draw_regions(image, draw, picture, backdrop, scale, px, centres, side_colour)
    _draw_armies(draw, picture, centres, side_colour)
    _draw_legend(draw, height, legend_rows, side_colour)

    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _draw_regions(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    picture: MapPicture,
    backdrop: Image.Image | None,
    scale: float,
    px: Callable[[tuple[float, float]], tuple[float, float]],
    centres: dict[str, tuple[float, float]],
    side_colour: dict[str, RGB],
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
    drawn: set[frozenset[str]] = set()
    for region in picture.regions:
        for other in region.adjacent:
            pair = frozenset((region.name, other))
            if pair in drawn:
                continue
            drawn.add(pair)
            _dashed(draw, centres[region.name], centres[other], LINK)
    for region in picture.regions:
        x, y = centres[region.name]
        draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=INK_SOFT)
        write(draw, (x, y - 8), region.name, INK, LABEL_SIZE, bold=True, anchor="md", halo=2)


def _draw_armies(
    draw: ImageDraw.ImageDraw,
    picture: MapPicture,
    centres: dict[str, tuple[float, float]],
    side_colour: dict[str, RGB],
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
            style = side_style(side_colour.get(marker.side, (90, 90, 96)))
            r = MARKER_RADIUS
            draw.rectangle(
                (x - r, y - r * 0.75, x + r, y + r * 0.75),
                fill=style.fill,
                outline=style.edge,
                width=2,
            )
            draw.line((x - r, y - r * 0.75, x + r, y + r * 0.75), fill=WHITE, width=2)
            draw.line((x - r, y + r * 0.75, x + r, y - r * 0.75), fill=WHITE, width=2)
            label = f"{marker.name} {marker.units_left}/{marker.units}"
            write(draw, (x, y + r), label, style.text, SMALL_SIZE, anchor="ma", halo=2)


def _draw_legend(
    draw: ImageDraw.ImageDraw,
    height: int,
    legend_rows: int,
    side_colour: dict[str, RGB],
) -> None:
    """Which colour holds for which side, under the map."""
    top = height - legend_rows * LEGEND_ROW - 8
    write(draw, (MARGIN / 2, top), "Held by:", INK, SMALL_SIZE, bold=True, anchor="lm")
    for i, (side, colour) in enumerate([*side_colour.items(), ("nobody", UNHELD)]):
        y = top + (i + 1) * LEGEND_ROW - 4
        fill = shade(colour, -0.55) if side != "nobody" else colour
        edge = side_style(colour).edge if side != "nobody" else INK_SOFT
        draw.rectangle(
            (MARGIN / 2, y - 8, MARGIN / 2 + 26, y + 8), fill=fill, outline=edge, width=2
        )
        write(draw, (MARGIN / 2 + 34, y), side, INK, SMALL_SIZE, anchor="lm")


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
