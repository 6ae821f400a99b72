"""A merged combat keeps each unit's own opponents: two side-by-side units, each facing its
own enemy and touching the neighbour's enemy at a corner, fight as one combat, yet each rolls
against, records and follows up only the enemy it fights face to face."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core.decisions import Answer
from rules_core.geometry import Footprint, contact_edge
from rules_core.rulesets.heroic_age import after, combat, tables
from rules_core.rulesets.heroic_age.status import AFTER_MOVE, COMBAT_ENEMIES, COMBAT_RESULT
from rules_core.rulesets.heroic_age.topics import FOLLOW_UP
from rules_core.state import BattleState, TerrainFeature
from tests.rules_core.rulesets.heroic_age.helpers import RULES, at, context

OWN = {"saxons1": "danes2", "saxons4": "danes4", "danes2": "saxons1", "danes4": "saxons4"}


def _lines(apart: float) -> BattleState:
    """Somerset Fyrd against Ubba's Bondi and, ``apart`` further right, Wessex Fyrd against
    Guthrum's Bondi, front to front (all 4.5" wide): with nothing apart, each Saxon unit's
    front corner touches the neighbour's enemy's corner."""
    right = 14.5 + apart
    return at("combat", saxons1=(10, 5, 0), saxons4=(right, 5, 0), danes2=(10, 7, 180),
              danes4=(right, 7, 180))  # fmt: skip


def _saxons_win(state: BattleState) -> BattleState:
    """Every Saxon die a 6, every Danish one a 1, combat by combat: the Saxons win, the Danes
    fall back."""
    faces: list[int] = []
    for saxons, danes in combat.clusters(state):
        for units, face in ((saxons.units, 6), (danes.units, 1)):
            faces += [face] * sum(combat.combat_roll(state, state.unit(k), False, ()).dice
                                  for k in units)  # fmt: skip
    ctx = context(state, faces)
    combat.resolve(ctx)
    return ctx.state


@pytest.mark.parametrize(("apart", "combats"), [(0.0, 1), (0.5, 2)])
def test_each_unit_records_and_follows_up_only_its_own_enemy(apart: float, combats: int) -> None:
    state = _lines(apart)
    assert len(combat.clusters(state)) == combats  # touching at a corner: fought as one
    fought = _saxons_win(state)
    for key, enemy in OWN.items():
        assert COMBAT_ENEMIES.of(fought.unit(key)) == [enemy]
    saxons = [k for k in OWN if COMBAT_RESULT.of(fought.unit(k)) in ("victory", "success")]
    assert saxons == ["saxons1", "saxons4"]
    assert {AFTER_MOVE.of(fought.unit(k)) for k in ("danes2", "danes4")} == {"fall_back"}
    answers = [Answer(f"{FOLLOW_UP}:{k}", FOLLOW_UP, "saxons") for k in saxons]
    ctx = context(fought, answers=answers)
    after.resolve(ctx)
    for key in saxons:
        unit, enemy = ctx.state.unit(key), ctx.state.unit(OWN[key])
        assert contact_edge(Footprint.of(unit), Footprint.of(enemy)) == "front"
        assert unit.x == fought.unit(key).x  # straight ahead, not across to another enemy


def test_ground_is_judged_against_the_enemy_a_unit_fights_not_one_at_its_corner() -> None:
    state = _lines(0.0)
    hill = RULES.parameter_values({})["high_ground"]
    assert isinstance(hill, list)
    rise = TerrainFeature("t0", str(hill[0]), ((12.5, 6), (17, 6), (17, 9), (12.5, 9)))
    state = replace(state, terrain=(rise,))  # Guthrum's Bondi stand on the hill
    ground = tables.whole(tables.COMBAT_HITS, "advantage_of_ground", "lowest")
    other = tables.whole(tables.COMBAT_HITS, "other", "lowest")
    kinds = tuple(str(k) for k in hill)
    assert combat.hit_score(state, state.unit("saxons4"), kinds)[0] == ground
    assert combat.hit_score(state, state.unit("saxons1"), kinds)[0] == other
