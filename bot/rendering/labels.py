"""Label placement: each label takes the first spot around its item that nothing else covers.

Boxes are (left, top, right, bottom) in pixels. Taken boxes are filed in buckets of a
coarse grid, so a test looks only at the few boxes near it however full the map is.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from functools import cache

Box = tuple[float, float, float, float]
CELL = 96  # px per bucket: about one label wide
GOOD_ENOUGH = 0.1  # share of a label that may be covered when no spot is wholly free
INSIDE_SLACK = 12.0  # px a label may overhang its unit's sides and still sit on it


class Occupied:
    """The parts of the map already taken by units, marks and labels."""

    def __init__(self, bounds: Box) -> None:
        self.bounds = bounds
        self._cells: defaultdict[tuple[int, int], list[Box]] = defaultdict(list)

    def _keys(self, box: Box) -> list[tuple[int, int]]:
        rows = range(int(box[1] // CELL), int(box[3] // CELL) + 1)
        return [
            (cx, cy) for cx in range(int(box[0] // CELL), int(box[2] // CELL) + 1) for cy in rows
        ]

    def add(self, box: Box) -> None:
        """Mark a box as taken."""
        for key in self._keys(box):
            self._cells[key].append(box)

    # free() and overlap() run thousands of times a map: their comparisons are written out,
    # as calls to helpers, min() and max() would cost more than the tests themselves.

    def free(self, box: Box, ignore: Box | None = None, also: tuple[Box, ...] = ()) -> bool:
        """True if the box is on the map and meets no taken box (``ignore`` and ``also``
        excepted)."""
        left, top, right, bottom = box
        bounds = self.bounds
        if left < bounds[0] or top < bounds[1] or right > bounds[2] or bottom > bounds[3]:
            return False
        cells = self._cells
        rows = range(int(top // CELL), int(bottom // CELL) + 1)
        for cx in range(int(left // CELL), int(right // CELL) + 1):
            for cy in rows:
                for other in cells.get((cx, cy), ()):
                    meets = left < other[2] and other[0] < right and top < other[3]
                    if meets and other[1] < bottom and other != ignore and other not in also:
                        return False
        return True

    def meeting(self, box: Box) -> list[Box]:
        """The taken boxes that meet ``box``, each once."""
        left, top, right, bottom = box
        found: list[Box] = []
        for key in self._keys(box):
            for other in self._cells.get(key, ()):
                meets = left < other[2] and other[0] < right and top < other[3]
                if meets and other[1] < bottom and other not in found:
                    found.append(other)
        return found

    def overlap(self, box: Box, ignore: Box | None = None) -> float:
        """The area of ``box`` covered by taken boxes (``ignore`` excepted), counted per box."""
        left, top, right, bottom = box
        total = 0.0
        for cx, cy in self._keys(box):
            for other in self._cells.get((cx, cy), ()):
                low_x = left if left > other[0] else other[0]
                low_y = top if top > other[1] else other[1]
                width = (right if right < other[2] else other[2]) - low_x
                height = (bottom if bottom < other[3] else other[3]) - low_y
                if width <= 0 or height <= 0:
                    continue
                # A pair met in several buckets counts once: in the bucket of the shared corner.
                if low_x // CELL == cx and low_y // CELL == cy and other != ignore:
                    total += width * height
        return total

    def on_map(self, box: Box) -> bool:
        """True if the box lies wholly on the map."""
        bounds = self.bounds
        return (
            box[0] >= bounds[0]
            and box[1] >= bounds[1]
            and box[2] <= bounds[2]
            and box[3] <= bounds[3]
        )

    def kept_on(self, box: Box) -> Box:
        """The box slid the least way that puts it wholly on the map (where it fits), so a
        label next to the map's edge is not cut."""
        left, top, right, bottom = box
        bounds = self.bounds
        dx = max(bounds[0] - left, 0.0) - max(right - bounds[2], 0.0)
        dy = max(bounds[1] - top, 0.0) - max(bottom - bounds[3], 0.0)
        if right - left > bounds[2] - bounds[0]:
            dx = 0.0
        if bottom - top > bounds[3] - bounds[1]:
            dy = 0.0
        return (left + dx, top + dy, right + dx, bottom + dy)

    def outside(self, box: Box) -> float:
        """The area of ``box`` lying off the map."""
        return _area(box) - _shared(box, self.bounds)


def _area(box: Box) -> float:
    return max(box[2] - box[0], 0.0) * max(box[3] - box[1], 0.0)


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _shared(a: Box, b: Box) -> float:
    # Plain comparisons: min() and max() calls would dominate this hot function.
    width = (a[2] if a[2] < b[2] else b[2]) - (a[0] if a[0] > b[0] else b[0])
    height = (a[3] if a[3] < b[3] else b[3]) - (a[1] if a[1] > b[1] else b[1])
    return width * height if width > 0 and height > 0 else 0.0


_DIRECTIONS = (
    (0.0, 1.0),
    (0.0, -1.0),
    (1.0, 0.0),
    (-1.0, 0.0),
    (0.7, 0.7),
    (-0.7, 0.7),
    (0.7, -0.7),
    (-0.7, -0.7),
)


@cache
def ranked(ax: float, ay: float) -> list[tuple[float, float]]:
    """The eight directions, the one closest to (ax, ay) first."""
    return sorted(_DIRECTIONS, key=lambda d: (-(d[0] * ax + d[1] * ay), d))


def spots(item: Box, size: tuple[float, float], away: tuple[float, float]) -> list[Box]:
    """Candidate boxes of ``size`` around an item, the side facing ``away`` first.

    ``away`` is a pixel direction (for a unit, towards its rear) so labels keep clear of the
    ground a unit faces. A label about as wide as the item or narrower is tried on it first.
    """
    w, h = size
    left, top, right, bottom = item
    cx, cy = (left + right) / 2, (top + bottom) / 2
    pad = 3.0
    boxes = []
    if w <= right - left + INSIDE_SLACK and h <= bottom - top:
        boxes.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
    for dx, dy in ranked(round(away[0], 2), round(away[1], 2)):
        x = cx - w / 2 if dx == 0 else (right + pad if dx > 0 else left - pad - w)
        y = cy - h / 2 if dy == 0 else (bottom + pad if dy > 0 else top - pad - h)
        boxes.append((x, y, x + w, y + h))
    return boxes


def first_free(occupied: Occupied, candidates: Sequence[Box], own: Box | None = None) -> Box | None:
    """The first candidate that is on the map and meets nothing taken, or None."""
    return next((box for box in candidates if occupied.free(box, own)), None)


def least_covered(occupied: Occupied, candidates: Sequence[Box], own: Box | None = None) -> Box:
    """The candidate least covered by taken boxes, counting what lies off the map double;
    the first one less than a tenth covered will do."""
    best, best_cost = candidates[0], float("inf")
    for box in candidates:
        cost = occupied.overlap(box, own) + occupied.outside(box) * 2
        if cost < best_cost:
            best, best_cost = box, cost
        if cost <= _area(box) * GOOD_ENOUGH:
            break
    return occupied.kept_on(best)


def place(occupied: Occupied, candidates: Sequence[Box], own: Box | None = None) -> Box:
    """The first free candidate, else the least covered; marks it taken."""
    best = first_free(occupied, candidates, own) or least_covered(occupied, candidates, own)
    occupied.add(best)
    return best


def add_all(occupied: Occupied, boxes: Iterable[Box]) -> None:
    """Mark several boxes as taken."""
    for box in boxes:
        occupied.add(box)
