"""Terrain a resolver creates, moves and removes, and the new kinds: impassable ground,
bridges and fords over rivers, gentle hills."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from shapely import Polygon

from rules_core import paths, registry
from rules_core.context import Context
from rules_core.dice import Dice, Roll
from rules_core.events import (
    TerrainAdded,
    TerrainMoved,
    TerrainRemoved,
    event_from_dict,
    event_to_dict,
)
from rules_core.geometry import Footprint
from rules_core.render import Renderer
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import Battlefield, BattleState, Side, TerrainFeature, Unit
from rules_core.steps import Cursor
from rules_core.tables import Band, ScoreTable
from rules_core.terrain import crossing_at, line_of_sight, trace_path
from rules_core.terrain_tables import NOTHING, TerrainPiece, TerrainTable, roll_terrain

POND = TerrainFeature("pond", "impassable", ((30, 4), (34, 4), (34, 8), (30, 8)), "Mill Pond")


def context() -> Context:
    rules = registry.get("skirmish").rules
    assert rules is not None
    return Context(rules, sample_battle(), (), (), random.Random(1))


def test_a_resolver_adds_moves_and_removes_terrain_with_events() -> None:
    ctx = context()
    ctx.add_terrain(POND, "rolled on the terrain table")
    assert ctx.state.terrain_feature("pond") == POND
    with pytest.raises(KeyError, match="already on the table"):
        ctx.add_terrain(POND, "twice")
    moved_to = ((31, 5), (35, 5), (35, 9), (31, 9))
    ctx.move_terrain("pond", moved_to, "the river floods")
    assert ctx.state.terrain_feature("pond").points == moved_to
    assert ctx.state.terrain_feature("pond").kind == "impassable"
    with pytest.raises(ValueError, match="too few points"):
        ctx.move_terrain("pond", ((1, 1), (2, 2)), "a line is no pond")
    ctx.remove_terrain("road1", "the road is washed away")
    assert "road1" not in [f.id for f in ctx.state.terrain]
    with pytest.raises(KeyError, match="no terrain feature 'nothing'"):
        ctx.remove_terrain("nothing", "no such thing")
    added, moved, removed = ctx.events
    assert added == TerrainAdded(POND, "rolled on the terrain table")
    assert isinstance(moved, TerrainMoved) and moved.before == POND.points
    assert moved.points == moved_to
    road = ((36.0, 0.0), (36.0, 36.0))
    assert removed == TerrainRemoved("road1", "road", "North Road", "the road is washed away", road)
    for event in ctx.events:
        assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event
    assert Renderer.for_state(ctx.state).lines(ctx.events) == [
        "Mill Pond (impassable) is placed on the table: rolled on the terrain table",
        "Mill Pond is moved: the river floods",
        "North Road is removed from the table: the road is washed away",
    ]
    state = BattleState.from_dict(json.loads(json.dumps(ctx.state.to_dict())))
    assert state == ctx.state


def test_an_unnamed_feature_is_written_by_its_kind() -> None:
    ctx = context()
    ctx.add_terrain(TerrainFeature("h9", "gentle_hill", ((1, 1), (3, 1), (3, 3))), "placed")
    assert Renderer.for_state(ctx.state).lines(ctx.events) == [
        "Gentle hill is placed on the table: placed"
    ]


MOVER = Unit("m", "Mover", "a", "g", "foot", "B", 2.0, 1.0, 10.0, 2.0, 0.0)
RIVER = TerrainFeature("river", "river", ((0, 10), (40, 10)), "Avon")
BRIDGE = TerrainFeature("bridge", "bridge", ((9, 8), (13, 8), (13, 12), (9, 12)), "Old Bridge")
FORD = TerrainFeature("ford", "ford", ((25, 9), (29, 9), (29, 11), (25, 11)), "Shallows")


def table(*terrain: TerrainFeature, units: tuple[Unit, ...] = (MOVER,)) -> BattleState:
    return BattleState(
        "t",
        "skirmish",
        Battlefield(40.0, 20.0, "inch", 25.4),
        Cursor(1, "main", "move", ("a", "b")),
        (Side("a", "A"), Side("b", "B")),
        units=units,
        terrain=terrain,
    )


def test_impassable_terrain_always_stops_a_sweep() -> None:
    pond = TerrainFeature("pond", "impassable", ((6, 6), (14, 6), (14, 8), (6, 8)))
    move = paths.sweep(table(pond), MOVER, 0.0, 10.0)  # the ruleset lists nothing impassable
    assert move.blocker == paths.Blocker(paths.TERRAIN, "pond")
    assert move.reached == pytest.approx(3.5, abs=1e-3)  # front edge at 2.5 meets it at 6


def test_a_river_the_ruleset_bars_may_be_crossed_at_a_bridge() -> None:
    barred = paths.sweep(table(RIVER), MOVER, 0.0, 12.0, impassable={"river"})
    assert barred.blocker == paths.Blocker(paths.TERRAIN, "river")
    bridged = paths.sweep(table(RIVER, BRIDGE), MOVER, 0.0, 12.0, impassable={"river"})
    assert bridged.clear
    # Told to ignore crossing points, the river bars the way even at the bridge.
    ignored = paths.sweep(
        table(RIVER, BRIDGE), MOVER, 0.0, 12.0, impassable={"river"}, crossings=()
    )
    assert ignored.blocker == paths.Blocker(paths.TERRAIN, "river")
    # Away from the bridge the river still bars the way.
    beside = Unit("m", "Mover", "a", "g", "foot", "B", 2.0, 1.0, 20.0, 2.0, 0.0)
    away = paths.sweep(table(RIVER, BRIDGE), beside, 0.0, 12.0, impassable={"river"})
    assert away.blocker == paths.Blocker(paths.TERRAIN, "river")


def test_a_path_report_says_where_each_river_crossing_is_made() -> None:
    terrain = (RIVER, BRIDGE, FORD)
    over_bridge = trace_path([(11, 2), (11, 18)], terrain)
    assert over_bridge.crossed({"river"}) == 1  # still a crossing, as before
    assert over_bridge.crossed_outside() == 0
    assert over_bridge.crossed_via({"bridge"}) == 1
    (water,) = over_bridge.water
    assert (water.feature, water.via, water.via_kind) == ("river", "bridge", "bridge")
    assert water.at == pytest.approx((11.0, 10.0))
    wading = trace_path([(27, 2), (27, 18)], terrain)
    assert wading.crossed_via({"ford"}) == 1 and wading.crossed_outside() == 0
    assert wading.crossed_outside(via={"bridge"}) == 1  # a ruleset counting bridges only
    swimming = trace_path([(18, 2), (18, 18), (20, 18), (20, 2)], terrain)
    assert swimming.crossed_outside() == 2 and swimming.crossed_via({"bridge", "ford"}) == 0
    assert crossing_at(terrain, (11, 10)) == BRIDGE
    assert crossing_at(terrain, (27, 10)) == FORD
    assert crossing_at(terrain, (27, 10), kinds={"bridge"}) is None
    assert crossing_at(terrain, (18, 10)) is None


def test_impassable_ground_blocks_sight_and_a_gentle_hill_does_not_unless_told() -> None:
    viewer = Footprint(10.0, 2.0, 0.0, 2.0, 1.0)
    target = Footprint(10.0, 18.0, 180.0, 2.0, 1.0)
    cliffs = TerrainFeature("cliffs", "impassable", ((5, 8), (15, 8), (15, 12), (5, 12)))
    assert line_of_sight(viewer, target, (cliffs,)).blocked_by == ("cliffs",)
    rise = TerrainFeature("rise", "gentle_hill", ((5, 8), (15, 8), (15, 12), (5, 12)))
    assert line_of_sight(viewer, target, (rise,)).clear
    crest = TerrainFeature(
        "crest", "gentle_hill", ((5, 8), (15, 8), (15, 12), (5, 12)), "", {"blocks_sight": True}
    )
    assert line_of_sight(viewer, target, (crest,)).blocked_by == ("crest",)
    open_wood = TerrainFeature(
        "glade", "wood", ((5, 8), (15, 8), (15, 12), (5, 12)), "", {"blocks_sight": False}
    )
    assert line_of_sight(viewer, target, (open_wood,)).clear


def _table(count: str = "4", **pieces: TerrainPiece) -> TerrainTable:
    named = [Band(i + 1, i + 1, key) for i, key in enumerate(pieces)]
    bands = (*named, Band(len(pieces) + 1, None, NOTHING))
    return TerrainTable("Terrain", count, f"1d{len(pieces) + 1}", ScoreTable("Piece", bands),
                        dict(pieces))  # fmt: skip


def test_a_terrain_table_lays_pieces_on_the_table_apart_and_clear_of_the_edges() -> None:
    table = _table(
        "2d3",
        wood=TerrainPiece("wood", "Copse", 8.0, 6.0),
        hill=TerrainPiece("hill", "Hill", 10.0, 6.0),
        ford=TerrainPiece("ford", "Shallows", 3.0, 2.0),
    )
    state = replace(sample_battle(), terrain=())
    rolls: list[Roll] = []
    rolled = roll_terrain(table, state, Dice(random.Random(7), rolls.append), first_id=4)
    assert rolls[0].label == "Terrain: how many pieces"
    assert len(rolls) == 1 + rolls[0].total  # the count, then one roll per piece
    ids = [f.id for f in rolled.features]
    assert ids == [f"t{4 + i}" for i in range(len(ids))]
    shapes = [Polygon(f.points) for f in rolled.features]
    for index, shape in enumerate(shapes):
        assert all(not shape.intersects(other) for other in shapes[index + 1 :])
        x0, y0, x1, y1 = shape.bounds
        assert x0 >= 2.0 and y0 >= 2.0 and x1 <= 46.0 and y1 <= 34.0
    again = roll_terrain(table, state, Dice(random.Random(7)), first_id=4)
    assert again == rolled  # the same stream lays the same table


def test_pieces_that_find_no_room_are_left_out_and_rivers_run_edge_to_edge() -> None:
    big = _table("3", lake=TerrainPiece("impassable", "Lake", 40.0, 30.0))
    state = replace(sample_battle(), terrain=())
    rolled = roll_terrain(big, state, Dice(random.Random(1)))
    laid = list(rolled.features)
    assert len(laid) + len(rolled.left_out) <= 3 and len(laid) <= 1
    if len(laid) + len(rolled.left_out) > 1:
        assert "Lake" in rolled.left_out
    river = _table("1", river=TerrainPiece("river", "Avon", 2.0))
    found = roll_terrain(river, state, Dice(random.Random(3)))
    for feature in found.features:
        assert feature.linear and feature.points[0][0] == 0.0 and feature.points[-1][0] == 48.0
        assert feature.properties == {"width": 2.0}


def test_area_pieces_keep_out_of_deployment_zones_when_there_is_room() -> None:
    table = _table("8", wood=TerrainPiece("wood", "Copse", 6.0, 4.0))
    state = replace(sample_battle(), terrain=())
    zones = [((0, 0), (48, 0), (48, 8), (0, 8)), ((0, 28), (48, 28), (48, 36), (0, 36))]
    rolled = roll_terrain(table, state, Dice(random.Random(5)), zones)
    assert rolled.features
    for feature in rolled.features:
        ys = [y for _, y in feature.points]
        assert min(ys) >= 8.0 and max(ys) <= 28.0


def test_a_terrain_table_refuses_bands_naming_no_piece_and_bad_dice() -> None:
    with pytest.raises(ValueError, match="names no piece"):
        TerrainTable("T", "1", "1d6", ScoreTable("P", (Band(1, 6, "castle"),)), {})
    with pytest.raises(ValueError):
        TerrainTable("T", "lots", "1d6", ScoreTable("P", (Band(1, 6, NOTHING),)), {})
    with pytest.raises(ValueError, match="unknown kind"):
        TerrainPiece("volcano", "Etna", 4.0)


def test_a_skirmish_move_crosses_the_river_only_at_a_bridge_or_ford() -> None:
    from rules_core.rulesets.skirmish import measure

    rules = registry.get("skirmish").rules
    assert rules is not None
    params = rules.parameter_values({})
    archers = replace(sample_battle().unit("r2"), x=11.0, y=8.0, facing=0.0)
    base = replace(sample_battle(), units=(archers,), terrain=(RIVER,))
    swim = measure.move_cost(base, archers, (11.0, 12.0), params)
    assert swim.barred_by == "impassable terrain"
    bridged = replace(base, terrain=(RIVER, BRIDGE))
    assert measure.move_cost(bridged, archers, (11.0, 12.0), params).possible
    beside = measure.move_cost(bridged, archers, (16.0, 12.0), params)
    assert beside.barred_by == "impassable terrain"  # the path crosses the river off the bridge
    wading = replace(archers, x=27.0)
    forded = replace(base, units=(wading,), terrain=(RIVER, FORD))
    # 3" (the base is in the ford nearly all the way, so it counts double: within the 6").
    cost = measure.move_cost(forded, wading, (27.0, 11.0), params)
    assert cost.possible and any("difficult" in note for note in cost.notes)
    assert not measure.move_cost(forded, wading, (27.0, 12.0), params).possible  # 4" doubled
