"""A base refused for crossing its deployment zone's edge is told which part of it is out, by
how much, and where it would fit (#39 item 12)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from rules_core import registry
from rules_core.geometry import Footprint
from rules_core.plugin import Rules
from rules_core.state import BattleState, Side, Unit
from rules_core.zone_fit import overhang

TO = re.compile(r"to \((?P<x>[-\d.]+), (?P<y>[-\d.]+)\)$")


def _rules(ruleset_id: str) -> Rules:
    found = registry.get(ruleset_id).rules
    assert found is not None
    return found


def _small_table(rules: Rules, depth: float = 10.0) -> BattleState:
    """An empty battle on a table ``depth`` deep: its zones are a third of that at most."""
    return rules.new_battle(
        "b", "skirmish", 48.0, depth, [Side("red", "Red"), Side("blue", "Blue")]
    )


def _unit(x: float, y: float, facing: float = 0.0, side: str = "red") -> Unit:
    return Unit("u1", "Spearmen", side, f"{side}_main", "infantry", "B", 4.0, 2.0, x, y, facing)


@pytest.mark.parametrize("ruleset", ["skirmish", "hail_caesar", "pike_and_shot", "heroic_age"])
def test_a_small_table_shrinks_each_zone_to_a_third_of_its_depth(ruleset: str) -> None:
    rules = _rules(ruleset)
    state = _small_table(rules)
    red, blue = (rules.deployment_zone(state, side) for side in ("red", "blue"))
    assert red is not None and blue is not None
    assert max(y for _, y in red) == pytest.approx(10 / 3)
    assert rules.deployment_depth > 10 / 3  # the usual depth would not fit three times
    assert min(y for _, y in blue) == pytest.approx(10 - 10 / 3)


def test_a_base_over_the_zones_edge_names_its_corners_and_where_it_fits() -> None:
    rules = _rules("skirmish")
    state = _small_table(rules)
    edge = max(y for _, y in rules.deployment_zone(state, "red") or ())
    turned = _unit(20.0, 2.0, facing=15.0)  # its front-left corner pokes past y = 3.33
    problem = rules.deployment_problem(state, turned)
    assert problem is not None
    front_left = Footprint.of(turned).corners()[0]
    assert problem.reason.startswith(
        "must deploy inside Red's deployment zone (y from 0 to 3.3 inch, the south edge): its "
        f"front-left corner reaches y={round(front_left[1], 2):g}, past the zone's edge at "
        f"y={round(edge, 2):g}; move it "
    )
    assert " inch south, to (" in problem.reason
    found = TO.search(problem.reason)
    assert found is not None
    moved = replace(turned, x=float(found["x"]), y=float(found["y"]))
    assert moved.x == turned.x and moved.y < turned.y
    assert rules.deployment_problem(state, moved) is None  # the suggested place is accepted


def test_a_base_wholly_out_or_over_the_far_edge_is_told_the_way_back() -> None:
    rules = _rules("skirmish")
    state = _small_table(rules)
    far = rules.deployment_problem(state, _unit(20.0, 7.5, side="blue"))  # Blue's zone is north
    assert far is not None and "its rear edge reaches y=6.5, past the zone's edge at y=6.67" in (
        far.reason
    )
    assert far.reason.endswith("move it 0.17 inch north, to (20, 7.67)")
    lost = rules.deployment_problem(state, _unit(20.0, 8.0))
    assert lost is not None and "its whole base reaches y=9, past the zone's edge at y=3.33" in (
        lost.reason
    )
    found = TO.search(lost.reason)
    assert found is not None
    placed = _unit(float(found["x"]), float(found["y"]))
    assert rules.deployment_problem(state, placed) is None


def test_a_base_deeper_than_the_zone_is_told_to_turn() -> None:
    rules = _rules("skirmish")
    state = _small_table(rules, depth=6.0)  # zones 2 deep; the base is 4 wide and 2 deep
    side_on = rules.deployment_problem(state, _unit(20.0, 3.0, facing=90.0))
    assert side_on is not None
    assert side_on.reason.endswith(
        "its base spans 4 inch of y facing 90°, more than the zone's 2 inch: turn it to fit"
    )
    assert rules.deployment_problem(state, _unit(20.0, 1.0)) is None  # facing north it fits


def test_a_zone_of_another_shape_names_the_corners_out_and_how_far() -> None:
    triangle = ((0.0, 0.0), (20.0, 0.0), (0.0, 20.0))
    pose = Footprint(9.0, 9.0, 0.0, 4.0, 2.0)  # its front-right corner is past the slope
    said = overhang(triangle, pose, "inch")
    assert said.startswith("its front-right corner lies up to ")
    assert said.endswith(" inch outside; move it into the zone")
    assert overhang(triangle, Footprint(4.0, 4.0, 0.0, 4.0, 2.0), "inch") == ""
