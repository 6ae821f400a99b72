"""Ground under the whole base along a move, not under its centre line (#39 item 2)."""

from __future__ import annotations

from dataclasses import replace

from rules_core.orders import Preview
from tests.rules_core.footprints import beside, laid
from tests.rules_core.rulesets.impetus.helpers import rules, unit_named
from tests.rules_core.rulesets.impetus.test_movement import at_caesars_move, move, reason


def test_a_cf_may_not_take_its_base_into_a_marsh_its_centre_line_misses() -> None:
    # "W, Art, CGP/CF ... Diff. NO": 2H forward would take its right front corner 1H into a
    # marsh that begins 1H before it, though its centre never comes near the marsh.
    state = at_caesars_move()
    legio = unit_named(state, "Legio X")
    wagons = replace(legio, type="CF")
    state = laid(state.with_unit(wagons), beside(wagons, "marsh", 1.0))
    assert "may not enter difficult terrain" in reason(state, move(wagons, "forward", 2.0))
    # Its front edge stops exactly at the marsh's edge: touching is not entering.
    assert isinstance(rules().judge(state, move(wagons, "forward", 1.0)), Preview)


def test_foot_whose_base_enters_a_wood_is_held_to_the_difficult_allowance() -> None:
    state = at_caesars_move()
    legio = unit_named(state, "Legio X")
    state = laid(state, beside(legio, "wood", 0.5))
    assert "in difficult ground" in reason(state, move(legio, "forward", 2.0))
