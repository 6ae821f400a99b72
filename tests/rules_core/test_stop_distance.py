"""The core's closed-form stops and its one "within d" (#39 item 1): a footprint moved by
``paths.gap_reached`` ends exactly the gap from the other, one moved by ``paths.front_reached``
has the other exactly the reach to its front, and ``geometry.within`` counts exactly d."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from rules_core.geometry import EPSILON, Footprint, edge_distance, within, within_to_front
from rules_core.paths import front_reached, gap_reached
from tests.rules_core.stop_then_act import EXAMPLES, gaps, turns

MOVER = Footprint(10.0, 10.0, 0.0, 4.0, 1.0)


def _ahead(gap: float, across: float, turn: float) -> Footprint:
    """A 3 x 2 footprint ``gap`` beyond the mover's front edge, turned ``turn`` degrees."""
    centre = MOVER.at(MOVER.depth / 2 + gap + 1.0, across)
    return Footprint(centre[0], centre[1], 180.0 + turn, 3.0, 2.0)


def _moved(distance: float, heading: float) -> Footprint:
    angle = math.radians(heading)
    x, y = MOVER.x + math.sin(angle) * distance, MOVER.y + math.cos(angle) * distance
    return MOVER.moved_to((x, y))


@EXAMPLES
@given(
    gap=gaps(1.0, 6.0), keep=gaps(0.2, 0.9), across=turns(3.0), turn=turns(60.0),
    heading=turns(30.0),
)  # fmt: skip
def test_gap_reached_stops_exactly_the_gap_off(
    gap: float, keep: float, across: float, turn: float, heading: float
) -> None:
    other = _ahead(gap, across, turn)
    stop = gap_reached(MOVER, heading % 360, 20.0, other, keep)
    if stop is None:  # already that near (the caller's rule), or never on the way
        near = edge_distance(MOVER, other) <= keep + EPSILON
        assert near or all(edge_distance(_moved(s / 4, heading), other) > keep for s in range(81))
        return
    assert math.isclose(edge_distance(_moved(stop, heading), other), keep, abs_tol=1e-9)
    assert edge_distance(_moved(stop * 0.99, heading), other) > keep


@EXAMPLES
@given(gap=gaps(1.0, 6.0), reach=gaps(0.2, 0.9), across=turns(3.0), turn=turns(60.0))
def test_front_reached_stops_with_the_other_exactly_at_reach(
    gap: float, reach: float, across: float, turn: float
) -> None:
    other = _ahead(gap, across, turn)
    stop = front_reached(MOVER, 0.0, 20.0, [other], reach)
    if stop is None:  # a turned corner already that near: the caller's rule
        assert within_to_front(MOVER, other, reach)
        return
    assert within_to_front(_moved(stop, 0.0), other, reach)
    assert not within_to_front(_moved(stop - 1e-4, 0.0), other, reach)


@given(st.floats(0.0, 100.0))
def test_within_counts_exactly_the_distance_up_to_the_shared_tolerance(reach: float) -> None:
    assert within(reach, reach) and within(reach + EPSILON / 2, reach)
    assert not within(reach + 2 * EPSILON, reach)
