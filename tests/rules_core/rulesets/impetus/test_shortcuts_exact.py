"""The engine's shortcuts (#37) answer exactly as the full tests they skip: a point in a
terrain feature only past its box (``spots``), and a moved unit's reactions skipped for
enemies beyond every range and charge (``actions._beyond_reactions``)."""

from __future__ import annotations

from dataclasses import replace

from shapely.geometry import Point as ShapelyPoint

from rules_core.rulesets.impetus import actions, reactions, spots
from rules_core.state import TerrainFeature
from rules_core.terrain import feature_shape
from tests.rules_core.rulesets.impetus.combat_helpers import PARAMS, context
from tests.rules_core.rulesets.impetus.helpers import stopped_at


def test_a_point_is_in_a_feature_exactly_when_its_shape_says_so() -> None:
    wood = TerrainFeature("w", "wood", ((2.0, 2.0), (6.0, 2.0), (6.0, 5.0), (3.0, 7.0)))
    river = TerrainFeature("r", "river", ((0.0, 1.0), (10.0, 1.0)))
    for feature in (wood, river):
        shape = feature_shape(feature)
        for x in (0.0, 1.99, 2.0, 3.0, 4.5, 6.0, 6.01, 10.0, 11.0):
            for y in (0.0, 1.0, 2.0, 4.0, 6.5, 7.0, 8.0):
                expected = bool(shape.intersects(ShapelyPoint(x, y)))
                assert spots.holds(feature, x, y) is expected, (feature.id, x, y)


def test_no_reaction_is_skipped_that_the_rules_would_offer() -> None:
    state = stopped_at("move")
    ctx = context(state)
    skipped = 0
    for unit in state.units_on_table:
        for mover in state.units_on_table:
            if mover.side == unit.side or not actions._beyond_reactions(ctx, unit, mover):
                continue
            skipped += 1
            # the same unit and mover, but with a charge reach and range as the rules read them
            assert reactions.allowed(state, "moved", unit, mover, PARAMS) == [reactions.NONE]
            near = replace(mover, x=unit.x, y=unit.y + (unit.depth + mover.depth) / 2 + 3.0)
            assert not actions._beyond_reactions(ctx, unit, near)
    assert skipped > 0  # the battle is wide enough for some to stand beyond reach
