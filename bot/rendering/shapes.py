"""Drawing helpers Pillow lacks or makes slow."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

RGB = tuple[int, int, int]
PixelPoint = tuple[float, float]


def outlined(
    draw: ImageDraw.ImageDraw,
    points: Sequence[PixelPoint],
    fill: RGB | None,
    edge: RGB,
    width: int = 1,
) -> None:
    """A polygon with an outline ``width`` pixels wide, centred on its edges.

    ``ImageDraw.polygon`` builds a mask the size of the whole image for any outline wider
    than one pixel, which costs milliseconds per polygon on a full map; a closed line does not.
    """
    draw.polygon(points, fill=fill, outline=edge)
    if width > 1:
        ring = [*points, points[0]]
        draw.line(ring, fill=edge, width=width, joint="curve" if width > 2 else None)
