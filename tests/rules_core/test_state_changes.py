"""A state changed one unit at a time carries its lookups (slots, units by id, units on the
table, ``geometry.near``'s boxes) forward: every answer is the one a fresh state gives."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from rules_core import geometry, registry
from rules_core.big_battles import big_battle
from rules_core.geometry import EPSILON, Footprint, near
from rules_core.orders import ACTOR_KINDS
from rules_core.state import OFF_TABLE, ON_TABLE, RESERVE, BattleState, Unit


def _battle(units: int = 60) -> BattleState:
    rules = registry.get("skirmish").rules
    assert rules is not None
    return big_battle(rules, units)


def _scan(placed: tuple[Unit, ...], area: geometry.Box, gap: float) -> list[Unit]:
    reach = gap + 2 * EPSILON
    grown = (area[0] - reach, area[1] - reach, area[2] + reach, area[3] + reach)
    return [p for p in placed if geometry._box_meets(Footprint.of(p).bounds, grown)]


def _changed(rng: random.Random, unit: Unit) -> Unit:
    """The unit moved, turned, given a status or taken off the table and back."""
    pick = rng.random()
    if pick < 0.5:
        return replace(unit, x=round(unit.x + rng.uniform(-20, 20), 3), y=round(unit.y + 3, 3))
    if pick < 0.7:
        return unit.with_status(shaken=rng.random() < 0.5)
    if pick < 0.85 and unit.on_table:
        return unit.taken_off(2)
    return unit.placed((rng.uniform(0, 60), rng.uniform(0, 40)), rng.uniform(0, 360))


def _agrees(state: BattleState, rng: random.Random, *around: Unit) -> None:
    assert state == replace(state, units=tuple(state.units))
    for unit in state.units:  # answers as a scan of the units would
        assert state.unit(unit.id) is next(u for u in state.units if u.id == unit.id)
        assert state.owner("unit", unit.id) == unit.side
    assert state.units_on_table == tuple(u for u in state.units if u.location == ON_TABLE)
    keys = [(kind, a.id) for kind in ACTOR_KINDS for a in state.actors(kind)]
    assert state.roster_positions() == {key: index for index, key in enumerate(keys)}
    for side in state.sides:
        for units, on_table in ((state.units, False), (state.units_on_table, True)):
            mine = tuple(u for u in units if u.side == side.id)
            assert state.units_of(side.id, on_table=on_table) == mine
            assert state.enemies_of(side.id, on_table=on_table) == tuple(
                u for u in units if u.side != side.id
            )
    for _ in range(3):
        x, y = rng.uniform(-5, 70), rng.uniform(-5, 50)
        area, gap = (x, y, x + rng.choice([0.0, 4.0, 30.0]), y + 2.0), rng.choice([0.0, 3.0])
        on_table = state.units_on_table
        assert near(on_table, area, gap) == _scan(on_table, area, gap)
    for unit in around:  # where a changed unit was, and is: the row that changed
        area = Footprint.of(unit).bounds
        assert near(state.units_on_table, area) == _scan(state.units_on_table, area, 0.0)


@pytest.mark.parametrize("seed", range(3))
def test_a_chain_of_changes_answers_as_fresh_states_do(seed: int) -> None:
    rng = random.Random(seed)
    state = _battle()
    _agrees(state, rng)
    _agrees(state, rng)  # asked twice: its boxes are kept, and later states derive theirs
    for _ in range(120):
        unit = rng.choice(state.units)
        changed = _changed(rng, unit)
        state = state.with_unit(changed)
        _agrees(state, rng, unit, changed)
        if rng.random() < 0.2:  # a copy with other fields changed shares the lookups
            state = rng.choice(
                [
                    state.with_status(turned=True),
                    replace(state, status={}),
                    replace(state, groups=state.groups[::-1]),  # other places, same units
                ]
            )
            _agrees(state, rng)
        assert state.unit(unit.id) is not unit


def test_moves_in_a_kept_chain_are_found_where_they_went() -> None:
    state = _battle()
    on_table = state.units_on_table
    near(on_table, (0, 0, 1, 1))
    near(on_table, (0, 0, 1, 1))  # the boxes are kept now
    first = state.units[0]
    moved = state.with_unit(replace(first, x=500.0, y=500.0))
    assert moved.units_on_table is moved.units
    assert near(moved.units_on_table, (499, 499, 501, 501)) == [moved.units[0]]
    assert first not in near(moved.units_on_table, Footprint.of(first).bounds)


def test_an_id_held_twice_changes_everywhere_it_is() -> None:
    state = _battle(24)
    twin = replace(state.units[5], id=state.units[0].id, name="twin")
    doubled = replace(state, units=(*state.units, twin))
    doubled.unit(twin.id)  # its lookups are built
    changed = doubled.with_unit(state.units[0].with_status(shaken=True))
    found = [u for u in changed.units if u.id == twin.id]
    assert len(found) == 2 and all(u.status.get("shaken") is True for u in found)
    assert changed.unit(twin.id).status.get("shaken") is True
    assert doubled.unit(twin.id) is doubled.units[0]  # the first of the id
    assert replace(doubled, units=doubled.units[::-1]).unit(twin.id).name == "twin"


def test_an_unknown_unit_is_refused() -> None:
    state = _battle(24)
    state.unit(state.units[0].id)
    with pytest.raises(KeyError, match="no unit 'nobody'"):
        state.with_unit(replace(state.units[0], id="nobody"))


def test_quick_copies_equal_the_dataclass_copies() -> None:
    state = _battle(24)
    unit = state.units[3]
    assert unit.with_status(shaken=True) == replace(unit, status={**unit.status, "shaken": True})
    changed = unit.with_status(x=1)
    assert changed.status["x"] == 1 and "x" not in unit.status
    swapped = state.with_unit(changed)
    expected = tuple(changed if u.id == unit.id else u for u in state.units)
    assert swapped == replace(state, units=expected)
    for where in (RESERVE, OFF_TABLE):
        moved = state.with_unit(replace(unit, location=where))
        assert unit.id not in {u.id for u in moved.units_on_table}


def _first(items: tuple[Any, ...], key: str) -> Any:
    return next(item for item in items if item.id == key)


@pytest.mark.parametrize("seed", range(2))
def test_leaders_groups_and_sides_changed_answer_as_a_scan(seed: int) -> None:
    rng = random.Random(seed)
    state = _battle()
    for _ in range(150):
        kind = rng.choice(["leader", "group", "side", "status"])
        if kind == "leader" and state.leaders:
            leader = rng.choice(state.leaders)
            state = state.with_leader(replace(leader, status={"n": rng.random()}))
        elif kind == "group" and state.groups:
            group = rng.choice(state.groups)
            state = state.with_group(replace(group, status={"n": rng.random()}))
        elif kind == "side":
            side = rng.choice(state.sides)
            state = state.with_side(replace(side, status={"n": rng.random()}))
        else:
            state = rng.choice([state.with_status(n=1), replace(state, status={})])
        for leader in state.leaders:
            assert state.leader(leader.id) is _first(state.leaders, leader.id)
        for group in state.groups:
            assert state.group(group.id) is _first(state.groups, group.id)
        for side in state.sides:
            assert state.side(side.id) is _first(state.sides, side.id)


def test_unknown_or_twice_held_leaders_groups_and_sides() -> None:
    state = _battle(24)
    side = state.sides[0]
    state.side(side.id)
    with pytest.raises(KeyError, match="no side 'nobody'"):
        state.with_side(replace(side, id="nobody"))
    with pytest.raises(KeyError, match="no group 'nobody'"):
        state.group("nobody")
    doubled = replace(state, sides=(*state.sides, replace(side, name="twin")))
    doubled.side(side.id)
    changed = doubled.with_side(replace(side, name="both"))
    assert [s.name for s in changed.sides if s.id == side.id] == ["both", "both"]
