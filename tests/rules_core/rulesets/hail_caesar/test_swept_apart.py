"""The cheap test that a move cannot pass through a unit never contradicts shapely's ground."""

from __future__ import annotations

import random

from rules_core.geometry import EPSILON, Footprint, swept_area
from rules_core.rulesets.hail_caesar.apart import swept_apart


def _pose(rng: random.Random, near: tuple[float, float] = (0.0, 0.0)) -> Footprint:
    """A unit-sized footprint a few inches from ``near``, at any facing (often a square one)."""
    facing = rng.choice([0.0, 90.0, 180.0, 270.0, rng.uniform(0, 360)])
    x, y = near[0] + rng.uniform(-6, 6), near[1] + rng.uniform(-6, 6)
    return Footprint(x, y, facing, rng.choice([4.0, 6.0, 8.0]), rng.choice([1.0, 2.0, 3.0]))


def test_a_unit_found_apart_shares_no_ground_with_the_move() -> None:
    rng = random.Random(37)
    apart = 0
    for _ in range(3000):
        start = _pose(rng)
        end = start.moved_to(
            (start.x + rng.uniform(-8, 8), start.y + rng.uniform(-8, 8)), start.facing
        )
        if rng.random() < 0.3:  # a turn on the way: the hull of two differently turned bases
            end = end.moved_to((end.x, end.y), rng.uniform(0, 360))
        other = _pose(rng, (start.x, start.y))
        shared = swept_area([start, end]).intersection(other.polygon).area
        if swept_apart(start, end, other):
            apart += 1
            assert shared <= EPSILON, (start, end, other, shared)
    assert apart > 300  # it does find units apart (else it saves nothing)
