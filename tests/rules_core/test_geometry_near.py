"""``geometry.near`` finds, through its kept arrays or its plain scan, exactly what a plain
scan of every box finds, in the tuple's order."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from rules_core import geometry
from rules_core.geometry import EPSILON, Footprint, near


@dataclass(frozen=True)
class Piece:
    x: float
    y: float
    facing: float
    frontage: float
    depth: float


def _scan(placed: tuple[Piece, ...], area: geometry.Box, gap: float) -> list[Piece]:
    reach = gap + 2 * EPSILON
    grown = (area[0] - reach, area[1] - reach, area[2] + reach, area[3] + reach)
    return [p for p in placed if geometry._box_meets(Footprint.of(p).bounds, grown)]


@pytest.mark.parametrize("seed", range(4))
def test_near_answers_as_a_plain_scan_whatever_the_area(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        count = rng.choice([24, 60, 120, 240])
        pieces = tuple(
            Piece(
                round(rng.uniform(0, 200), 3),
                round(rng.uniform(0, 60), 3),
                rng.choice([0.0, 90.0, 180.0, 37.5, round(rng.uniform(0, 360), 1)]),
                rng.choice([0.0, 0.5, 4.0, 6.0]),  # points (leaders) as well as bases
                rng.choice([0.0, 1.0, 2.0, 4.0]),
            )
            for _ in range(count)
        )
        for _ in range(30):
            x, y = rng.uniform(-10, 210), rng.uniform(-10, 70)
            w, h = rng.choice([0.0, 0.5, 3.0, 80.0]), rng.choice([0.0, 0.5, 3.0, 80.0])
            gap = rng.choice([0.0, 1.0, 12.0])
            area = (x, y, x + w, y + h)
            if rng.random() < 0.3:  # an area starting exactly where a box ends
                b = Footprint.of(rng.choice(pieces)).bounds
                area, gap = (b[2], b[1], b[2] + w, b[3]), 0.0
            assert near(pieces, area, gap) == _scan(pieces, area, gap)
