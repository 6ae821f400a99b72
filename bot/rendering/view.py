"""The map's projection: an area of the table, in the ruleset's measure, onto pixels.

The table's y axis grows northwards (compass facing 0 faces +y, 90 faces +x, see
``rules_core.geometry``), so north is drawn at the top and pixel rows run the other way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

Point = tuple[float, float]
Area = tuple[float, float, float, float]  # x0, y0, x1, y1 in the table's measure


@dataclass(frozen=True)
class View:
    """A uniform scale from an area of the table to an image of ``width`` by ``height`` px."""

    area: Area
    scale: float  # pixels per unit of the ruleset's measure

    @property
    def width(self) -> int:
        """Width of the map image in pixels."""
        return round((self.area[2] - self.area[0]) * self.scale)

    @property
    def height(self) -> int:
        """Height of the map image in pixels."""
        return round((self.area[3] - self.area[1]) * self.scale)

    def px(self, point: Point) -> Point:
        """The pixel position of a table point."""
        return ((point[0] - self.area[0]) * self.scale, (self.area[3] - point[1]) * self.scale)

    def pxs(self, points: Iterable[Point]) -> list[Point]:
        """Pixel positions of several table points."""
        x0, top, s = self.area[0], self.area[3], self.scale
        return [((x - x0) * s, (top - y) * s) for x, y in points]

    def table(self, pixel: Point) -> Point:
        """The table point under a pixel."""
        return (self.area[0] + pixel[0] / self.scale, self.area[3] - pixel[1] / self.scale)

    def length(self, measure: float) -> float:
        """A length on the table in pixels."""
        return measure * self.scale

    def sees(self, box: tuple[float, float, float, float], slack: float = 0.0) -> bool:
        """True if a pixel box (left, top, right, bottom) overlaps the image."""
        left, top, right, bottom = box
        w, h = self.width, self.height
        return right >= -slack and bottom >= -slack and left <= w + slack and top <= h + slack


def fit(area: Area, width: float, height: float | None) -> float:
    """The largest scale at which the area fits the given pixel box."""
    scale = width / (area[2] - area[0])
    if height is not None:
        scale = min(scale, height / (area[3] - area[1]))
    return scale
