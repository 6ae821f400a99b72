"""Hail Caesar keeps a sight line once worked out: asked again while nobody moved it is the same
answer, and a unit stepping into the line (or out of it) is seen at once."""

from __future__ import annotations

from dataclasses import replace

from rules_core.geometry import Footprint
from rules_core.rulesets.hail_caesar import measure
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.terrain import line_of_sight


def test_a_kept_sight_follows_a_unit_stepping_into_the_line() -> None:
    battle = sample_battle()
    viewer, target = battle.unit("r5"), battle.unit("g4")  # cavalry facing each other at x 40
    clear = measure.sight(battle, viewer, target)
    assert clear.lines_clear == clear.lines_total
    assert measure.sight(battle, viewer, target) == clear  # asked again: the kept answer
    between = replace(battle.unit("r6"), x=40.0, y=24.0, facing=90.0)  # across the line
    blocked_battle = battle.with_unit(between)
    blocked = measure.sight(blocked_battle, blocked_battle.unit("r5"), blocked_battle.unit("g4"))
    assert blocked.lines_clear < blocked.lines_total and "r6" in blocked.blocked_by
    # a status change alone (no one moved) keeps the answer, and it is the one worked out afresh
    shaken = blocked_battle.with_unit(replace(between, status={"disordered": True}))
    again = measure.sight(shaken, shaken.unit("r5"), shaken.unit("g4"))
    others = [(u.id, Footprint.of(u)) for u in shaken.units if u.id not in ("r5", "g4")]
    here, there = Footprint.of(viewer), Footprint.of(target)
    assert (
        again
        == blocked
        == line_of_sight(here, there, shaken.terrain, others, measure.SIGHT_BLOCKERS)
    )
    assert measure.sight(battle, viewer, target) == clear  # stepped out again: clear
