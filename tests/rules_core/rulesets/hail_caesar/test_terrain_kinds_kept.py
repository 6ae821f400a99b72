"""The kinds of ground a unit stands in, kept per table and spot, answer for the table asked."""

from __future__ import annotations

from dataclasses import replace

from rules_core.rulesets.hail_caesar import measure
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.state import TerrainFeature

VILLAGE = TerrainFeature("v", "village", ((10, 10), (30, 10), (30, 30), (10, 30)), "Gergovia")
WOOD = TerrainFeature("w", "wood", ((10, 10), (30, 10), (30, 30), (10, 30)), "Wood")


def test_each_table_gives_its_own_ground_at_the_same_spot() -> None:
    battle = sample_battle()
    unit = replace(battle.unit("r1"), x=20, y=20)
    village = replace(battle, terrain=(VILLAGE,))
    wood = replace(battle, terrain=(WOOD,))
    bare = replace(battle, terrain=())
    for _ in range(2):  # asked again, each table still gives its own
        assert measure.terrain_kinds_at(village, unit) == {"village"}
        assert measure.terrain_kinds_at(wood, unit) == {"wood"}
        assert measure.terrain_kinds_at(bare, unit) == set()
    assert measure.terrain_kinds_at(village, replace(unit, x=40)) == set()


def test_a_caller_changing_the_answer_changes_no_later_answer() -> None:
    battle = replace(sample_battle(), terrain=(VILLAGE,))
    unit = replace(battle.unit("r1"), x=20, y=20)
    measure.terrain_kinds_at(battle, unit).add("wood")
    assert measure.terrain_kinds_at(battle, unit) == {"village"}
