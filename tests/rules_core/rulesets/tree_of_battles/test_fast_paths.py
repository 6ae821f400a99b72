"""The faster ways of #37 give what the plain ways give: marking every contingent at once,
and judging a move's poses from its corridor rather than the whole table."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules_core import registry
from rules_core.context import Context
from rules_core.geometry import Footprint
from rules_core.rulesets.tree_of_battles import measure
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.sample import sample_battle
from rules_core.state import BattleState
from rules_core.status import UndeclaredStatus


def _context(state: BattleState) -> Context:
    rules = registry.get("tob").rules
    assert rules is not None
    return Context(rules, state, (), (), random.Random(0))


def test_marking_all_at_once_is_marking_each_in_turn() -> None:
    state = sample_battle()
    marks = {
        unit.id: {"stationary": i % 2 == 0, "shooting_dps": i, "charged": False}
        for i, unit in enumerate(state.units)
    }
    one_by_one, together = _context(state), _context(state)
    for key, changes in marks.items():
        u.mark(one_by_one, key, **changes)
    u.mark_all(together, marks)
    assert together.state == one_by_one.state
    assert [x.status for x in together.state.units] == [x.status for x in one_by_one.state.units]
    assert together.state.units[1].status["shooting_dps"] == 1


def test_marking_all_refuses_an_undeclared_mark_and_changes_nothing() -> None:
    state = sample_battle()
    ctx = _context(state)
    first = state.units[0].id
    with pytest.raises(UndeclaredStatus):
        u.mark_all(ctx, {first: {"stationary": False}, state.units[1].id: {"no_such_mark": 1}})
    assert ctx.state is state


@pytest.mark.parametrize("heading", [0.0, 45.0, 90.0, 180.0, 270.0])
def test_a_corridor_finds_whom_each_pose_on_the_way_passes_through(heading: float) -> None:
    state = sample_battle()
    mover = state.units[0]
    # Crowd the way: the others stand ahead along the heading, to either side of its line.
    ahead = Footprint.of(mover).moved_to((mover.x, mover.y), heading)
    spots = [ahead.at(1.5 + 0.7 * i, (-1) ** i * (0.5 + 0.4 * i)) for i in range(11)]
    others = tuple(
        replace(x, x=spot[0], y=spot[1], facing=30.0 * i)
        for i, (x, spot) in enumerate(zip(state.units[1:], spots, strict=True))
    )
    state = replace(state, units=(mover, *others))
    start = Footprint.of(mover)
    spare = {mover.id}
    corridor = measure.Corridor.of(state, start, heading, 8.0, 1.0, spare)
    hits = 0
    for step in range(41):
        pose = start.moved_to((start.x, start.y), heading).advanced(8.0 * step / 40)
        pose = pose.moved_to((pose.x, pose.y), start.facing)
        plain = measure.blockers(state, mover, [start, pose], spare)
        assert corridor.passes_through(start, pose) == bool(plain)
        hits += bool(plain)
    assert hits  # the crowd is in the way somewhere along every heading
