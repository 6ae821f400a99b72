"""Units off the table: in reserve before deployment, off the table after leaving it, and
what geometry, sight, contact and paths make of them."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from rules_core import paths, registry, toolkit
from rules_core.context import Context
from rules_core.events import (
    UnitDeployed,
    UnitLeftTable,
    UnitReturned,
    event_from_dict,
    event_to_dict,
)
from rules_core.orders import Illegal, Order
from rules_core.render import Renderer
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import OFF_TABLE, ON_TABLE, RESERVE, BattleState, Unit


def context(state: BattleState | None = None) -> Context:
    rules = registry.get("skirmish").rules
    assert rules is not None
    return Context(rules, state or sample_battle(), (), (), random.Random(1))


def with_location(state: BattleState, unit_id: str, location: str) -> BattleState:
    return state.with_unit(replace(state.unit(unit_id), location=location))


def test_old_state_json_is_unchanged_and_still_loads() -> None:
    state = sample_battle()
    data = state.to_dict()
    assert all(
        key not in unit for unit in data["units"] for key in ("location", "left_at", "left_turn")
    )
    loaded = BattleState.from_dict(json.loads(json.dumps(data)))
    assert loaded == state and all(unit.on_table for unit in loaded.units)
    assert loaded.units_on_table == loaded.units


def test_a_unit_off_the_table_round_trips_through_json() -> None:
    state = sample_battle()
    gone = replace(state.unit("r1"), location=OFF_TABLE, left_at=(12.0, 0.0), left_turn=2)
    state = state.with_unit(gone)
    loaded = BattleState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert loaded == state
    assert loaded.unit("r1").left_at == (12.0, 0.0) and loaded.unit("r1").left_turn == 2
    assert "r1" not in [u.id for u in loaded.units_on_table]
    assert [u.id for u in loaded.units_at(OFF_TABLE)] == ["r1"]


def test_an_unknown_location_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown location 'lost'"):
        replace(sample_battle().unit("r1"), location="lost")


def test_take_off_table_remembers_where_and_when_and_return_clears_it() -> None:
    ctx = context()
    before = ctx.state.unit("r1")
    ctx.take_off_table("r1", "pursues off the table")
    gone = ctx.state.unit("r1")
    turn = ctx.state.cursor.turn
    assert (gone.location, gone.left_at, gone.left_turn) == (
        OFF_TABLE,
        (before.x, before.y),
        turn,
    )
    assert not gone.on_table and "r1" not in [u.id for u in ctx.state.units_on_table]
    assert toolkit.off_table_for(ctx.state, gone) == 0
    assert toolkit.within_of_exit(gone, (before.x + 6, before.y), 6.0)
    assert not toolkit.within_of_exit(gone, (before.x + 6.1, before.y), 6.0)
    with pytest.raises(ValueError, match="not on the table"):
        ctx.take_off_table("r1", "twice")
    with pytest.raises(ValueError, match="not on the table"):
        ctx.move("r1", [(1, 1), (2, 2)], 0)
    ctx.return_to_table("r1", (before.x + 3, before.y + 1), 90.0, "returns from the pursuit")
    back = ctx.state.unit("r1")
    assert (back.location, back.x, back.y, back.facing) == (
        ON_TABLE,
        before.x + 3,
        before.y + 1,
        90.0,
    )
    assert back.left_at is None and back.left_turn is None
    assert not toolkit.within_of_exit(back, (before.x, before.y), 6.0)
    with pytest.raises(ValueError, match="not off the table"):
        ctx.return_to_table("r1", (1, 1), 0, "again")
    left, returned = ctx.events
    assert left == UnitLeftTable("r1", (before.x, before.y), turn, "pursues off the table")
    assert isinstance(returned, UnitReturned)
    for event in ctx.events:
        assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event
    lines = Renderer.for_state(ctx.state).lines(ctx.events)
    name = before.name
    x, y = toolkit.g(before.x), toolkit.g(before.y)
    assert lines[0] == f"{name} leaves the table near ({x}, {y}): pursues off the table"
    assert lines[1].startswith(f"{name} comes back onto the table at (")


def test_place_from_reserve_deploys_only_a_unit_in_reserve() -> None:
    ctx = context(with_location(sample_battle(), "b2", RESERVE))
    assert [u.id for u in ctx.state.units_at(RESERVE)] == ["b2"]
    with pytest.raises(ValueError, match="not in reserve"):
        ctx.place_from_reserve("b1", (10, 30), 180, "deployment")
    with pytest.raises(ValueError, match="not off the table"):
        ctx.return_to_table("b2", (10, 30), 180, "not gone")
    ctx.place_from_reserve("b2", (10, 30), 180, "deployment")
    assert ctx.state.unit("b2").on_table and (ctx.state.unit("b2").x, ctx.state.unit("b2").y) == (
        10.0,
        30.0,
    )
    assert ctx.events == [UnitDeployed("b2", (10.0, 30.0), 180.0, "deployment")]
    name = ctx.state.unit("b2").name
    assert Renderer.for_state(ctx.state).lines(ctx.events) == [
        f"{name} is deployed at (10, 30): deployment"
    ]


def _pair(state: BattleState) -> tuple[BattleState, Unit, Unit]:
    """A red unit and a blue unit in base contact in the middle of the table."""
    red, blue = state.unit("r1"), state.unit("b1")
    red = replace(red, x=24.0, y=17.0, facing=0.0)
    blue = replace(blue, x=24.0, y=17.0 + (red.depth + blue.depth) / 2, facing=180.0)
    state = state.with_unit(red).with_unit(blue)
    return state, red, blue


def test_contact_sight_paths_and_finding_ignore_units_off_the_table() -> None:
    state, red, blue = _pair(sample_battle())
    assert [e.id for e in toolkit.enemies_in_contact(state, red)] == ["b1"]
    assert ("r1", "b1") in toolkit.contact_pairs(state)
    assert toolkit.nearest_enemy(state, red) == blue
    assert isinstance(toolkit.enemy_target(state, red, _order("b1")), Unit)
    blocked = paths.sweep(state, red, 0.0, 5.0)
    assert blocked.blocker == paths.Blocker(paths.ENEMY, "b1")

    gone = with_location(state, "b1", OFF_TABLE)
    red = gone.unit("r1")
    assert toolkit.enemies_in_contact(gone, red) == []
    assert not toolkit.engaged(gone, red)
    assert ("r1", "b1") not in toolkit.contact_pairs(gone)
    assert toolkit.nearest_enemy(gone, red) != gone.unit("b1")
    assert toolkit.enemy_target(gone, red, _order("b1")) == "no unit 'b1' on the table"
    assert paths.sweep(gone, red, 0.0, 5.0).blocker != paths.Blocker(paths.ENEMY, "b1")
    assert "b1" not in [u.id for u in gone.enemies_of("red", on_table=True)]
    assert "b1" in [u.id for u in gone.enemies_of("red")]  # still counted for army totals


def test_a_unit_off_the_table_no_longer_blocks_sight() -> None:
    state = sample_battle()
    viewer = replace(state.unit("r1"), x=10.0, y=10.0, facing=0.0)
    screen = replace(state.unit("r2"), x=10.0, y=16.0, facing=0.0, frontage=12.0)
    target = replace(state.unit("b1"), x=10.0, y=24.0, facing=180.0)
    state = state.with_unit(viewer).with_unit(screen).with_unit(target)
    assert "r2" in toolkit.sight(state, viewer, target, frozenset()).blocked_by
    gone = with_location(state, "r2", OFF_TABLE)
    assert toolkit.sight(gone, viewer, target, frozenset()).clear
    assert toolkit.sight(gone, viewer, target, frozenset()).blocked_by == ()


def _order(target: str) -> Order:
    return Order("r1", "shoot", {"target": target})


def test_a_unit_not_on_the_table_is_refused_orders_unless_the_ruleset_allows_the_kind() -> None:
    rules = registry.get("skirmish").rules
    assert rules is not None
    state = sample_battle()
    state = replace(state, cursor=replace(state.cursor, turn=1, segment="main", step="move"))
    hold = Order("r1", "hold")
    assert not isinstance(rules.judge(state, hold), Illegal)
    gone = with_location(state, "r1", OFF_TABLE)
    refused = rules.judge(gone, hold)
    assert isinstance(refused, Illegal) and refused.reason == "Red Spearmen is off the table"
    held = rules.judge(with_location(state, "r1", RESERVE), hold)
    assert (
        isinstance(held, Illegal) and held.reason == "Red Spearmen is in reserve, not on the table"
    )

    class Returning(type(rules)):  # type: ignore[misc]
        off_table_orders = frozenset({"hold"})

    assert not isinstance(Returning().judge(gone, hold), Illegal)
