"""#37's second round gives what the plain ways give: a move's search stops once more poses
cannot change its rounded answer, and a state's shots are planned once."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from rules_core import geometry, registry, toolkit
from rules_core.geometry import Footprint
from rules_core.rulesets.tree_of_battles import charges, control, measure, shooting, sweep
from rules_core.rulesets.tree_of_battles.sample import sample_battle

PARAMS = registry.get("tob").rules.parameter_values({})  # type: ignore[union-attr]


def _every_pose(
    start: Footprint, heading: float, length: float, ok: Callable[[Footprint], bool]
) -> float:
    """``measure.farthest`` as it was: all 25 halvings, then rounded down."""
    low, high = 0.0, 1.0
    for _ in range(25):
        middle = (low + high) / 2
        moved = start.moved_to((start.x, start.y), heading).advanced(length * middle)
        pose = moved.moved_to((moved.x, moved.y), start.facing)
        low, high = (middle, high) if ok(pose) else (low, middle)
    return math.floor(length * low * 1000) / 1000


@pytest.mark.parametrize("seed", range(40))
def test_the_search_stops_early_with_the_same_answer(seed: int) -> None:
    pick = random.Random(seed)
    start = Footprint.of(sample_battle().units[0])
    heading, length = pick.uniform(0, 360), pick.uniform(0.2, 12.0)
    bar = pick.uniform(0.0, 0.999) * length  # how far along the heading a pose may be
    if seed % 4 == 0:  # right at a thousandth: the rounding's edge
        bar = math.floor(bar * 1000) / 1000

    def ok(pose: Footprint) -> bool:
        asked.append(pose)
        return math.dist((start.x, start.y), (pose.x, pose.y)) <= bar

    asked: list[Footprint] = []
    found = measure.farthest(start, heading, length, ok)
    tried = len(asked)
    assert found == _every_pose(start, heading, length, ok)
    if seed % 4:  # (a bar on a thousandth itself may need every halving to round down to it)
        assert tried <= 1 + math.ceil(math.log2(length * 1000)) + 8 < 1 + 25


def test_a_state_plans_each_shot_once(monkeypatch: pytest.MonkeyPatch) -> None:
    state = sample_battle()
    # Bring the armies within missile range of each other, face to face.
    lines = tuple(
        replace(x, y=x.y + (4.0 if x.side == state.units[0].side else -4.0)) for x in state.units
    )
    state = replace(state, units=lines)
    looked: list[tuple[str, str]] = []
    real = measure.sight
    monkeypatch.setattr(
        measure, "sight", lambda s, a, b: looked.append((a.id, b.id)) or real(s, a, b)
    )
    first = [
        (a.id, b.id, shooting.plan(state, a, b, PARAMS)) for a in state.units for b in state.units
    ]
    seen = len(looked)
    again = [
        (a.id, b.id, shooting.plan(state, a, b, PARAMS)) for a in state.units for b in state.units
    ]
    assert again == first and len(looked) == seen > 0
    # A unit changed (a new units tuple) is asked afresh, and answers as the plain plan does.
    moved = replace(state, units=tuple(replace(x, x=x.x + 0.5) for x in state.units))
    fresh = [
        (a.id, b.id, shooting.plan(moved, a, b, PARAMS)) for a in moved.units for b in moved.units
    ]
    plain = [
        (a.id, b.id, shooting._plan(moved, a, b, PARAMS)) for a in moved.units for b in moved.units
    ]
    assert fresh == plain and len(looked) > seen


def test_command_is_measured_only_where_boxes_meet(monkeypatch: pytest.MonkeyPatch) -> None:
    state = sample_battle()
    plain = {x.id: control.in_command(state, x) for x in state.units}
    measured = _count_distances(monkeypatch, control)
    assert {x.id: control.in_command(state, x) for x in state.units} == plain
    assert any(plain.values())
    # Only bases whose boxes come within the reach are measured, and all measured are near.
    assert measured and all(d <= 2.0 + 1e-6 for d in measured)


@pytest.mark.parametrize("closer", [0.0, 3.0, 5.5])
def test_may_charge_answers_as_the_refusals_do(
    closer: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = sample_battle()
    first = state.units[0].side
    shift = tuple(replace(x, y=x.y + (closer if x.side == first else -closer)) for x in state.units)
    state = replace(state, units=shift)
    plain = {(a.id, b.id): charges.problem(state, a, b) is None for a in shift for b in shift}
    room: list[str] = []
    real = charges._room
    monkeypatch.setattr(
        charges, "_room", lambda s, a, b, end: room.append(b.id) or real(s, a, b, end)
    )
    assert {(a.id, b.id): charges.may_charge(state, a, b) for a in shift for b in shift} == plain
    # Targets beyond any charge's reach are refused before the way is searched.
    assert len(room) < sum(1 for a in shift for b in shift if a.side != b.side)


@pytest.mark.parametrize("seed", range(12))
def test_the_nearest_is_the_plain_nearest_measuring_fewer(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    pick = random.Random(seed)
    state = sample_battle()
    spread = [
        replace(x, x=pick.uniform(0, 24), y=pick.uniform(0, 20), facing=pick.choice([0, 45, 90]))
        for x in state.units
    ]
    if seed % 3 == 0:  # two at the very same gap: the first of them is the nearest
        spread[5] = replace(spread[4], id=spread[5].id)
    mover, others = spread[0], spread[1:]
    plain = toolkit.nearest(others, mover)
    measured = _count_distances(monkeypatch, toolkit)
    assert measure.nearest(others, mover) is plain
    assert 0 < len(measured) < len(others)
    assert measure.nearest([], mover) is None


@pytest.mark.parametrize("seed", range(30))
def test_passing_through_is_found_as_the_swept_ground_finds_it(seed: int) -> None:
    pick = random.Random(seed)
    start = Footprint(10.0, 10.0, pick.choice([0.0, 30.0, 90.0]), 4.0, 1.0)
    end = start.moved_to((10.0 + pick.uniform(-3, 3), 10.0 + pick.uniform(-3, 3)))
    end = end.moved_to((end.x, end.y), pick.choice([start.facing, 45.0]))
    others = []
    for i in range(8):  # some apart, some touching edge to edge, some crossed
        facing = pick.choice([0.0, 90.0, 30.0])
        spot = (pick.uniform(4, 16), pick.uniform(4, 16))
        others.append((f"u{i}", Footprint(spot[0], spot[1], facing, 4.0, 1.0)))
    others.append(("beside", Footprint(14.0, 10.0, start.facing, 4.0, 1.0)))
    plain = geometry.interpenetrated([start, end], others)
    assert sweep.passed_through([start, end], others) == plain
    assert sweep.passed_through([start, end], []) == ()


def test_a_neighbour_side_by_side_is_not_swept_for(monkeypatch: pytest.MonkeyPatch) -> None:
    start = Footprint(10.0, 10.0, 0.0, 4.0, 1.0)
    ahead = start.moved_to((10.0, 13.0))
    beside = [("left", Footprint(6.0, 10.0, 0.0, 4.0, 1.0)), ("in_way", Footprint(10, 12, 0, 4, 1))]
    built: list[int] = []
    real = geometry.swept_area
    monkeypatch.setattr(geometry, "swept_area", lambda poses: built.append(1) or real(poses))
    assert geometry.interpenetrated([start, ahead], beside[:1]) == () and built == [1]
    assert sweep.passed_through([start, ahead], beside[:1]) == () and built == [1]
    assert sweep.passed_through([start, ahead], beside) == ("in_way",) and built == [1, 1]


def _count_distances(monkeypatch: pytest.MonkeyPatch, module: object) -> list[float]:
    """The distances a module measures from now on (its ``edge_distance``, counted)."""
    measured: list[float] = []
    real = module.edge_distance

    def counted(a: Footprint, b: Footprint) -> float:
        measured.append(real(a, b))
        return measured[-1]

    monkeypatch.setattr(module, "edge_distance", counted)
    return measured


@pytest.mark.parametrize("reach", [0.5, 6.0, 11.75, 12.0])
def test_enemy_within_looks_only_at_the_near(reach: float, monkeypatch: pytest.MonkeyPatch) -> None:
    state = sample_battle()
    unit = state.units[0]
    plain = any(
        geometry.within(measure.gap(unit, e), reach)
        for e in state.enemies_of(unit.side, on_table=True)
    )
    looked: list[str] = []
    real = measure.boxes_apart
    monkeypatch.setattr(measure, "boxes_apart", lambda a, b, g: looked.append("") or real(a, b, g))
    assert measure.enemy_within(state, unit, reach) is plain is (reach >= 11.75)
    assert len(looked) < len(state.enemies_of(unit.side, on_table=True))
