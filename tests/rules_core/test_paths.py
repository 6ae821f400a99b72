"""Moves checked along their path: the first blocker of each kind and how far the unit got."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from shapely import LineString, MultiPoint

from rules_core import paths
from rules_core.geometry import Footprint
from rules_core.state import Battlefield, BattleState, Side, TerrainFeature, Unit
from rules_core.steps import Cursor
from tests.rules_core import footprints

# A 4 x 1 unit at (10, 10) facing north (+y); it moves south (heading 180) unless told.
MOVER = Unit("m", "Mover", "a", "g", "foot", "B", 4.0, 1.0, 10.0, 10.0, 0.0)


def unit(key: str, side: str, x: float, y: float) -> Unit:
    return Unit(key, key.upper(), side, "g", "foot", "B", 4.0, 1.0, x, y, 0.0)


def table(*units: Unit, terrain: tuple[TerrainFeature, ...] = ()) -> BattleState:
    return BattleState(
        "t",
        "skirmish",
        Battlefield(20.0, 20.0, "SF", 40.0),
        Cursor(1, "main", "move", ("a", "b")),
        (Side("a", "A"), Side("b", "B")),
        units=(MOVER, *units),
        terrain=terrain,
    )


def test_a_clear_path_goes_its_full_length() -> None:
    move = paths.sweep(table(), MOVER, 180.0, 5.0)
    assert move.clear and move.reached == 5.0
    assert (move.end.x, move.end.y) == pytest.approx((10.0, 5.0))


def test_an_enemy_in_the_path_stops_the_move_short_of_it() -> None:
    # The enemy's top edge is at y = 5.5; the mover's rear edge starts at 9.5, so 4 away.
    move = paths.sweep(table(unit("e", "b", 10.0, 5.0)), MOVER, 180.0, 8.0)
    assert move.blocker == paths.Blocker(paths.ENEMY, "e")
    assert move.reached == pytest.approx(4.0)  # touching it, not overlapping


def test_an_enemy_passed_through_blocks_even_when_the_end_is_clear() -> None:
    # Only 1 deep: an 8 SF move would end beyond it, yet the path crosses it.
    move = paths.sweep(table(unit("e", "b", 10.0, 6.0)), MOVER, 180.0, 8.0)
    assert move.blocker == paths.Blocker(paths.ENEMY, "e")
    assert move.reached == pytest.approx(3.0, abs=0.003)


def test_a_friend_blocks_unless_friends_may_be_passed() -> None:
    state = table(unit("f", "a", 10.0, 6.0))
    assert paths.sweep(state, MOVER, 180.0, 8.0).blocker == paths.Blocker(paths.FRIEND, "f")
    passed = paths.sweep(state, MOVER, 180.0, 8.0, friends_pass=True)
    assert passed.clear and passed.passed == ("f",) and passed.reached == 8.0


def test_a_unit_passing_friends_never_ends_on_one() -> None:
    # An 4.5 SF move would end on the friend at y 6; it stops short of it instead.
    move = paths.sweep(table(unit("f", "a", 10.0, 6.0)), MOVER, 180.0, 4.5, friends_pass=True)
    assert move.blocker == paths.Blocker(paths.FRIEND, "f") and move.passed == ()
    assert move.reached == pytest.approx(3.0, abs=0.003)


def test_units_merely_touching_the_path_do_not_block() -> None:
    # Side by side, edges touching at x = 12: moving straight back slides past it.
    move = paths.sweep(table(unit("e", "b", 14.0, 8.0)), MOVER, 180.0, 5.0)
    assert move.clear


def test_a_unit_in_contact_behind_blocks_at_once() -> None:
    move = paths.sweep(table(unit("e", "b", 10.0, 9.0)), MOVER, 180.0, 5.0)
    assert move.blocker == paths.Blocker(paths.ENEMY, "e") and move.reached == 0.0


def test_impassable_terrain_stops_the_move_where_it_enters() -> None:
    wood = TerrainFeature("w", "dense_wood", ((6, 2), (14, 2), (14, 6), (6, 6)))
    state = table(terrain=(wood,))
    move = paths.sweep(state, MOVER, 180.0, 8.0, impassable={"dense_wood"})
    assert move.blocker == paths.Blocker(paths.TERRAIN, "w")
    assert move.reached == pytest.approx(3.5, abs=0.003)
    assert paths.sweep(state, MOVER, 180.0, 8.0).clear  # passable for others


def test_a_unit_already_in_impassable_terrain_may_leave_it() -> None:
    wood = TerrainFeature("w", "dense_wood", ((6, 8), (14, 8), (14, 12), (6, 12)))
    assert paths.sweep(table(terrain=(wood,)), MOVER, 180.0, 5.0, impassable={"dense_wood"}).clear


def test_barred_ground_is_the_impassable_terrain_a_chosen_path_sweeps_through() -> None:
    lake = TerrainFeature("l", "impassable", ((6, 6), (14, 6), (14, 7), (6, 7)), "Lake")
    cliff = TerrainFeature("c", "impassable", ((6, 2), (14, 2), (14, 3), (6, 3)), "Cliff")
    state = table(terrain=(cliff, lake))
    here = Footprint.of(MOVER)
    # Ending clear beyond both, the path still crosses both: the nearer one is named.
    assert paths.barred_ground(state, [here, here.moved_to((10.0, 1.0))]) == lake
    assert paths.barred_ground(state, [here, here.moved_to((10.0, 8.0))]) is None
    assert paths.barred_ground(state, [here, here.moved_to((17.0, 8.0))]) is None  # beside
    wood = TerrainFeature("w", "dense_wood", ((6, 6), (14, 6), (14, 7), (6, 7)))
    through = [here, here.moved_to((10.0, 4.0))]
    assert paths.barred_ground(table(terrain=(wood,)), through) is None
    assert paths.barred_ground(table(terrain=(wood,)), through, impassable={"dense_wood"}) == wood


def test_barred_water_is_crossed_at_a_bridge_but_not_elsewhere() -> None:
    river = TerrainFeature("r", "river", ((0, 6), (20, 6)))
    bridge = TerrainFeature("b", "bridge", ((7, 5), (13, 5), (13, 7), (7, 7)))
    state = table(terrain=(river, bridge))
    here = Footprint.of(MOVER)
    at_bridge = [here, here.moved_to((10.0, 3.0))]
    assert paths.barred_ground(state, at_bridge, impassable={"river"}) is None
    elsewhere = [here.moved_to((3.0, 10.0)), here.moved_to((3.0, 3.0))]
    assert paths.barred_ground(state, elsewhere, impassable={"river"}) == river
    assert paths.barred_ground(state, elsewhere) is None  # rivers barred only when listed


def test_the_table_edge_stops_the_move_unless_it_may_leave() -> None:
    move = paths.sweep(table(), MOVER, 180.0, 12.0)
    assert move.blocker == paths.Blocker(paths.EDGE, "")
    assert move.reached == pytest.approx(9.5, abs=0.003)
    gone = paths.sweep(table(), MOVER, 180.0, 12.0, leaves_table=True)
    assert gone.clear and gone.end.y == pytest.approx(-2.0)


def test_the_first_blocker_along_the_path_is_reported() -> None:
    state = table(unit("f", "a", 10.0, 3.0), unit("e", "b", 10.0, 6.0))
    move = paths.sweep(state, MOVER, 180.0, 12.0)
    assert move.blocker == paths.Blocker(paths.ENEMY, "e")


def test_a_turned_start_leaves_behind_units_it_overlaps() -> None:
    # Turning 90° in place pokes into the enemy touching its front; moving away is still free.
    state = table(unit("e", "b", 10.0, 11.0))
    move = paths.sweep(state, MOVER, 180.0, 3.0, facing=90.0)
    assert move.clear and move.end.facing == 90.0


def test_a_unit_already_overlapping_the_mover_still_holds_it() -> None:
    # Overlapping before any turn (a bad placement) is not a way out: it blocks at once.
    move = paths.sweep(table(unit("f", "a", 10.0, 9.5)), MOVER, 180.0, 3.0)
    assert move.blocker == paths.Blocker(paths.FRIEND, "f") and move.reached == 0.0


def test_ground_under_one_corner_stops_the_move_exactly_where_the_front_reaches_it() -> None:
    # The centre line of MOVER's move misses the wood; its right rear corner (moving south,
    # backs first) goes in after 1.25 (#39 item 2). Not stepped: the stop is closed form.
    backwards = replace(MOVER, facing=180.0)
    wood = footprints.beside(backwards, "dense_wood", 1.25)
    move = paths.sweep(table(terrain=(wood,)), MOVER, 180.0, 8.0, impassable={"dense_wood"})
    assert move.blocker == paths.Blocker(paths.TERRAIN, "brush")
    assert move.reached == pytest.approx(1.25, abs=paths.STEP)
    assert paths.ground_stop(table(terrain=(wood,)), Footprint.of(MOVER), 180.0, 8.0,
                             impassable={"dense_wood"}) == pytest.approx(1.25)  # fmt: skip


def test_meeting_span_s_obstacle_is_the_hull_of_every_corner_difference() -> None:
    """The Minkowski difference built as one array (#37) is the hull of the corner differences
    listed pair by pair, point for point: the same spans, so the same battles."""
    rng = random.Random(37)
    for _ in range(300):
        moving = [(rng.uniform(-5, 5), rng.uniform(-5, 5)) for _ in range(4)]
        other = [(rng.uniform(-9, 9), rng.uniform(-9, 9)) for _ in range(rng.choice((3, 4, 5)))]
        listed = MultiPoint([(bx - ax, by - ay) for bx, by in other for ax, ay in moving])
        heading, length = rng.uniform(0, 360), rng.uniform(0, 20)
        fx, fy = paths._unit_vector(heading)
        hull = listed.convex_hull
        path = LineString([(0.0, 0.0), (fx * length, fy * length)])
        span = paths.meeting_span(moving, heading, length, other)
        assert (span is None) == path.intersection(hull).is_empty
        if span is not None:
            beyond = length + hull.length
            line = LineString([(0.0, 0.0), (fx * beyond, fy * beyond)])
            crossed = line.intersection(hull)
            along = [px * fx + py * fy for px, py in paths._coords(crossed)]
            assert span == (min(along), max(along))
