"""Geometry of the table, checked against numbers worked out by hand."""

from __future__ import annotations

import math

import pytest

from rules_core.geometry import (
    Footprint,
    contact_edge,
    edge_distance,
    facing_towards,
    in_contact,
    interpenetrated,
    overlap_area,
    quarter,
    range_from_front,
    swept_area,
    within_to_front,
    zone,
)


def box(x: float, y: float, facing: float = 0, frontage: float = 4, depth: float = 2) -> Footprint:
    return Footprint(x, y, facing, frontage, depth)


def test_edge_distance_between_two_40_by_20_bases_100_apart_is_80() -> None:
    # Facing each other along y: 100 between centres less 10 of depth each side.
    assert edge_distance(box(0, 0, 0, 40, 20), box(0, 100, 180, 40, 20)) == pytest.approx(80)


def test_edge_distance_side_by_side_uses_frontage() -> None:
    # Centres 50 apart along x; each base 40 wide: 50 - 20 - 20 = 10.
    assert edge_distance(box(0, 0, 0, 40, 20), box(50, 0, 0, 40, 20)) == pytest.approx(10)


def test_corners_of_a_base_facing_east() -> None:
    # Facing 90: forward is +x, right is -y; depth 2 and frontage 4 about (10, 10).
    corners = box(10, 10, 90).corners()
    assert corners == ((11, 12), (11, 8), (9, 8), (9, 12))
    assert box(10, 10, 90).front_centre == (11, 10)


def test_a_rotated_square_keeps_its_area_and_diagonal() -> None:
    diamond = box(0, 0, 45, 2, 2)
    assert diamond.polygon.area == pytest.approx(4)
    front_left, _, rear_right, _ = diamond.corners()
    assert math.dist(front_left, rear_right) == pytest.approx(2 * math.sqrt(2))


def test_facing_towards_is_compass_bearing() -> None:
    assert facing_towards((0, 0), (0, 5)) == 0
    assert facing_towards((0, 0), (3, 3)) == pytest.approx(45)
    assert facing_towards((0, 0), (0, -1)) == 180
    assert facing_towards((0, 0), (-2, 0)) == 270


def test_advancing_moves_along_the_facing() -> None:
    moved = box(0, 0, 90).advanced(5)
    assert (moved.x, moved.y) == (5, 0)


@pytest.mark.parametrize(
    ("point", "expected"),
    [
        ((0, 5), "front"),
        ((0, -5), "rear"),
        ((5, 0), "right"),
        ((-5, 0), "left"),
        ((4, 2), "front"),  # on the diagonal through the front-right corner (2, 1)
        ((4.1, 2), "right"),
        ((-4, -2), "rear"),
    ],
)
def test_quarters_are_split_by_the_diagonals(point: tuple[float, float], expected: str) -> None:
    assert quarter(box(0, 0), point) == expected


def test_quarter_follows_the_facing() -> None:
    # Facing east, a point to the north is on the left.
    assert quarter(box(0, 0, 90), (0, 10)) == "left"


def test_front_zone_is_as_wide_as_the_front_and_as_deep_as_the_reach() -> None:
    strip = zone(box(0, 0), "front", 3)
    assert strip.area == pytest.approx(12)
    assert strip.bounds == pytest.approx((-2, 1, 2, 4))
    assert zone(box(0, 0), "left", 1).bounds == pytest.approx((-3, -1, -2, 1))
    assert zone(box(0, 0), "rear", 2).bounds == pytest.approx((-2, -3, 2, -1))


def test_within_distance_to_the_front() -> None:
    me = box(0, 0)  # front edge at y = 1
    assert within_to_front(me, box(0, 5, 180), 3)  # enemy rear... its near edge at y = 4: 3 away
    assert not within_to_front(me, box(0, 5.01, 180), 3)
    # Beside the front strip, however close, is not "to its front".
    assert not within_to_front(me, box(6.5, 3), 3)


def test_contact_and_the_edge_touched() -> None:
    me = box(0, 0)
    facing_me = box(0, 2, 180)
    beside = box(4, 0)
    assert in_contact(me, facing_me) and contact_edge(me, facing_me) == "front"
    assert in_contact(me, beside) and contact_edge(me, beside) == "right"
    assert contact_edge(me, box(0, -2)) == "rear"
    assert not in_contact(me, box(0, 2.5))
    assert contact_edge(me, box(0, 2.5)) is None


def test_corner_to_corner_is_contact_but_touches_no_edge_along_its_length() -> None:
    me, diagonal = box(0, 0), box(4, 2)
    assert in_contact(me, diagonal)
    assert contact_edge(me, diagonal) is None


def test_range_is_measured_from_the_front_edge() -> None:
    shooter = box(0, 0)  # front edge y = 1
    assert range_from_front(shooter, box(0, 10, 180)) == pytest.approx(8)  # near edge y = 9
    # Offset target: from front corner (2, 1) to target corner (5, 5) = 5.
    assert range_from_front(shooter, box(7, 6)) == pytest.approx(5)
    # Behind the shooter, the range is still from its front edge: from y = 1 to y = -6.
    assert range_from_front(shooter, box(0, -7)) == pytest.approx(7)


def test_overlap_area() -> None:
    assert overlap_area(box(0, 0), box(1, 0)) == pytest.approx(6)  # 3 wide by 2 deep
    assert overlap_area(box(0, 0), box(4, 0)) == 0


def test_swept_area_of_a_straight_move() -> None:
    # 4 wide, from y = -1 to y = 11: 48 square units.
    assert swept_area([box(0, 0), box(0, 10)]).area == pytest.approx(48)


def test_interpenetration_needs_more_than_a_touch() -> None:
    path = [box(0, 0), box(0, 10)]
    others = [("in_the_way", box(0, 5)), ("far", box(10, 5)), ("grazed", box(4, 5))]
    assert interpenetrated(path, others) == ("in_the_way",)


def test_overlapping_is_deeper_than_a_touch_whatever_the_turn() -> None:
    from rules_core.geometry import TOUCH, overlapping, penetration

    base = Footprint(0, 0, 0, 6, 2)
    assert penetration(base, Footprint(6, 0, 0, 6, 2)) == 0.0  # side by side, touching
    assert penetration(base, Footprint(5.5, 0, 0, 6, 2)) == pytest.approx(0.5)
    assert not overlapping(base, Footprint(6 - TOUCH, 0, 0, 6, 2))  # rounded to 0.001
    assert overlapping(base, Footprint(6 - 2 * TOUCH, 0, 0, 6, 2))
    assert penetration(base, Footprint(0, 0, 45, 1, 1)) == pytest.approx(1.0)
