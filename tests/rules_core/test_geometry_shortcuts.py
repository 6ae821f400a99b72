"""The box tests that skip shapely never change an answer shapely would give."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.geometry import (
    EPSILON,
    Footprint,
    boxes_apart,
    contact_edge,
    in_contact,
    overlap_area,
    within_to_front,
    zone,
)
from rules_core.rulesets.skirmish.sample import sample_battle

coords = st.floats(0, 20, allow_nan=False).map(lambda v: round(v, 1))
facings = st.sampled_from([0.0, 45.0, 90.0, 180.0, 270.0, 30.0])
sizes = st.sampled_from([0.5, 1.0, 2.0, 4.0])
footprints = st.builds(Footprint, coords, coords, facings, sizes, sizes)


@settings(max_examples=300, deadline=None)
@given(footprints, footprints, st.sampled_from([0.0, 1.0, 3.0]))
def test_box_shortcuts_agree_with_shapely(a: Footprint, b: Footprint, reach: float) -> None:
    shapely_distance = float(a.polygon.distance(b.polygon))
    if boxes_apart(a, b, reach):
        assert shapely_distance > reach
    touching = shapely_distance <= EPSILON
    overlap = float(a.polygon.intersection(b.polygon).area)
    assert overlap_area(a, b) == overlap
    assert in_contact(a, b) == (touching and overlap <= EPSILON)
    strip = zone(a, "front", reach + EPSILON)
    assert within_to_front(a, b, reach) == bool(strip.intersects(b.polygon))
    if not touching:
        assert contact_edge(a, b) is None


def test_touching_footprints_side_by_side_are_in_contact() -> None:
    a = Footprint(0.0, 0.0, 0.0, 2.0, 1.0)
    b = Footprint(2.0, 0.0, 0.0, 2.0, 1.0)
    assert not boxes_apart(a, b, EPSILON)
    assert in_contact(a, b)
    assert contact_edge(a, b) == "right"
    assert boxes_apart(a, Footprint(2.1, 0.0, 0.0, 2.0, 1.0), EPSILON)


def test_a_unit_keeps_one_footprint_and_so_one_polygon() -> None:
    state = sample_battle()
    unit = state.units[0]
    assert Footprint.of(unit) is Footprint.of(unit)
    assert Footprint.of(unit).polygon is Footprint.of(unit).polygon
    moved = replace(unit, x=unit.x + 1)
    assert Footprint.of(moved).x == unit.x + 1
    assert state.with_unit(moved).unit(unit.id) == moved
    assert Footprint.of(state.with_unit(moved).unit(unit.id)).x == unit.x + 1
