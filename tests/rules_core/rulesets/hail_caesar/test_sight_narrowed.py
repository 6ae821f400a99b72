"""Hail Caesar's sight hands on only the units near the sight lines: it sees as the toolkit does."""

from __future__ import annotations

from dataclasses import replace

from rules_core import toolkit
from rules_core.rulesets.hail_caesar import measure
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.state import TerrainFeature

WOOD = TerrainFeature("w", "wood", ((16, 18), (24, 18), (24, 22), (16, 22)), "Wood")


def test_every_unit_sees_every_other_as_the_toolkit_sees_it() -> None:
    battle = replace(sample_battle(), terrain=(WOOD,))
    units = battle.units_on_table
    blocked_by_units = 0
    for viewer in units:
        for target in units:
            if target.id == viewer.id:
                continue
            found = measure.sight(battle, viewer, target)
            whole = toolkit.sight(battle, viewer, target, measure.SIGHT_BLOCKERS)
            assert found == whole, (viewer.id, target.id)
            blocked_by_units += any(key != "w" for key in found.blocked_by)
    assert blocked_by_units  # some sight lines are blocked by units: those were compared too
