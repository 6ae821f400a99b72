"""Paths through terrain and line of sight, against numbers worked out by hand."""

from __future__ import annotations

import math

import pytest

from rules_core.geometry import Footprint
from rules_core.state import TerrainFeature
from rules_core.terrain import line_of_sight, poses_along, trace_footprint, trace_path
from tests.rules_core import footprints

WOOD = TerrainFeature("wood1", "wood", ((2, -1), (5, -1), (5, 1), (2, 1)))
STREAM = TerrainFeature("stream1", "stream", ((7, -5), (7, 5)))
ROAD = TerrainFeature("road1", "road", ((0, 0), (20, 0)), properties={"width": 2})
RIVER = TerrainFeature("river1", "river", ((0, 3), (4, 7), (8, 3), (12, 7)))


def test_a_path_reports_length_inside_areas_crossings_and_road() -> None:
    report = trace_path([(0, 0), (10, 0)], [WOOD, STREAM, ROAD])
    assert report.length == 10
    assert report.length_in({"wood"}) == pytest.approx(3)  # x 2 to 5
    assert report.length_in({"marsh"}) == 0
    assert report.crossed({"stream"}) == 1
    assert report.road_length == pytest.approx(10)
    assert report.all_on_road


def test_leaving_the_road_is_not_following_it() -> None:
    # From (10, 0) to (10, 4): the road is 2 wide, so the first 1 is on it.
    report = trace_path([(10, 0), (10, 4)], [ROAD])
    assert report.road_length == pytest.approx(1)
    assert not report.all_on_road


def test_a_zigzag_river_is_crossed_as_often_as_the_path_meets_it() -> None:
    # The straight line y = 5 meets each of the river's three legs once.
    assert trace_path([(0, 5), (12, 5)], [RIVER]).crossed({"river"}) == 3


def test_a_diagonal_path_inside_a_wood() -> None:
    # From (0, -3) to (8, 3): y = -3 + 3x/4 enters the wood (y = -1) at x = 8/3 and leaves
    # by its east side at x = 5: 7/3 across, times 5/4 along the path = 2.9167.
    report = trace_path([(0, -3), (8, 3)], [WOOD])
    assert report.length == pytest.approx(10)
    assert report.length_in({"wood"}) == pytest.approx(35 / 12)


def viewer() -> Footprint:
    return Footprint(0, 0, 0, 4, 2)  # eye at the front centre (0, 1)


def target() -> Footprint:
    return Footprint(0, 20, 180, 4, 2)  # centre (0, 20), corners (+-2, 19) and (+-2, 21)


def test_open_ground_gives_five_clear_sight_lines() -> None:
    sight = line_of_sight(viewer(), target())
    assert (sight.lines_clear, sight.lines_total, sight.blocked_by) == (5, 5, ())
    assert sight.clear and not sight.partial


def test_a_wood_between_blocks_sight() -> None:
    wood = TerrainFeature("w", "wood", ((-10, 8), (10, 8), (10, 12), (-10, 12)))
    sight = line_of_sight(viewer(), target(), [wood])
    assert (sight.lines_clear, sight.blocked_by) == (0, ("w",))
    assert not sight.clear


def test_rough_ground_does_not_block_sight() -> None:
    rough = TerrainFeature("r", "rough", ((-10, 8), (10, 8), (10, 12), (-10, 12)))
    assert line_of_sight(viewer(), target(), [rough]).lines_clear == 5


def test_a_unit_in_the_way_hides_part_of_the_target() -> None:
    # The blocker covers x 0.5 to 2.5 at y 9 to 11: the sight lines to (2, 19) and (2, 21)
    # pass x = 0.89-1.11 and x = 0.8-1.0 there; the other three stay clear.
    blocker = Footprint(1.5, 10, 0, 2, 2)
    sight = line_of_sight(viewer(), target(), others=[("u9", blocker)])
    assert (sight.lines_clear, sight.blocked_by) == (3, ("u9",))
    assert sight.partial


def test_a_unit_grazed_along_its_edge_does_not_block() -> None:
    # The sight line to the centre runs along x = 0, the blocker's left edge.
    blocker = Footprint(1, 10, 0, 2, 2)
    sight = line_of_sight(viewer(), target(), others=[("u9", blocker)])
    # Hidden: the corners (2, 19) and (2, 21). Clear: the centre line and the two left ones.
    assert (sight.lines_clear, sight.blocked_by) == (3, ("u9",))


def test_a_viewer_on_a_hill_sees_over_it() -> None:
    hill = TerrainFeature("h", "hill", ((-10, -5), (10, -5), (10, 12), (-10, 12)))
    assert line_of_sight(viewer(), target(), [hill]).lines_clear == 5
    hill_between = TerrainFeature("h", "hill", ((-10, 5), (10, 5), (10, 12), (-10, 12)))
    assert line_of_sight(viewer(), target(), [hill_between]).lines_clear == 0


def test_seeing_into_a_wood_up_to_an_allowance() -> None:
    # Wood from y = 18: the lines run inside it 2.0 (centre), 1.006 (near corners) and
    # 3 * sqrt(1 + 0.1**2) = 3.015 (far corners). Allowing 2.5, three lines are clear.
    wood = TerrainFeature("w", "wood", ((-10, 18), (10, 18), (10, 30), (-10, 30)))
    assert line_of_sight(viewer(), target(), [wood]).lines_clear == 0
    sight = line_of_sight(viewer(), target(), [wood], see_into=2.5)
    assert sight.lines_clear == 3
    assert 3 * math.sqrt(1.01) > 2.5


def test_a_footprint_path_reports_the_ground_its_base_goes_over() -> None:
    # A 4 x 1 base facing north; a wood under its right quarter from 1 before its front, a
    # hedge across that quarter 1 before it: the centre line meets neither (#39 item 2).
    base = Footprint(10.0, 10.0, 0.0, 4.0, 1.0)
    wood = footprints.beside(base, "wood", 1.0)
    hedge = footprints.beside(base, "linear_obstacle", 1.0, key="hedge")
    assert trace_path([(10.0, 10.0), (10.0, 13.0)], (wood, hedge)).inside == ()
    report = trace_footprint(poses_along(base, [(10.0, 13.0)]), (wood, hedge))
    assert report.length_in({"wood"}) == pytest.approx(2.0)  # from 1 on, while the base is in
    assert report.crossed({"linear_obstacle"}) == 1
    touching = trace_footprint(poses_along(base, [(10.0, 11.0)]), (wood, hedge))
    assert touching.inside == () and touching.crossings == ()  # reaching it is not entering
