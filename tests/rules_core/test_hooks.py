"""The hooks the bot asks instead of knowing a ruleset: deployment, commands, turns, samples."""

from __future__ import annotations

from dataclasses import replace

from rules_core import registry
from rules_core.orders import Illegal, Order
from rules_core.plugin import Misplaced, Rules
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.rulesets.tree_of_battles.sample import sample_battle as agincourt
from rules_core.steps import Cursor


def _rules(ruleset_id: str) -> Rules:
    found = registry.get(ruleset_id).rules
    assert found is not None
    return found


def test_a_placement_off_the_table_outside_the_zone_or_over_a_unit_is_refused() -> None:
    rules, state = _rules("skirmish"), sample_battle()
    spearmen = state.unit("r1")
    assert rules.deployment_problem(state, spearmen) is None
    assert rules.deployment_problem(state, replace(spearmen, x=47.0)) == Misplaced(
        "at (47, 4) would stand off the table (48 by 36 inch)"
    )
    assert rules.deployment_problem(state, replace(spearmen, y=20.0)) == Misplaced(
        "must deploy inside Red's deployment zone (y from 0 to 8 inch, the south edge): its "
        "whole base reaches y=21, past the zone's edge at y=8; move it 13 inch south, to (12, 7)"
    )
    assert rules.deployment_problem(state, replace(spearmen, x=25.0)) == Misplaced(
        "would overlap", state.unit("r2")
    )


def test_the_zone_comes_from_the_side_band_and_a_ruleset_may_replace_it() -> None:
    rules, state = _rules("skirmish"), sample_battle()
    assert rules.deployment_zone(state, "blue") == ((0, 28), (48, 28), (48, 36), (0, 36))

    class Anywhere(type(rules)):  # type: ignore[misc]
        def deployment_zone(self, state, side):  # type: ignore[no-untyped-def]
            return None

    assert Anywhere().deployment_problem(state, replace(state.unit("r1"), y=20.0)) is None


def test_command_actions_are_the_leader_orders_unless_the_ruleset_says_otherwise() -> None:
    tob = _rules("tree_of_battles")
    leaders = {kind.id for kind in tob.order_kinds if kind.actor == "leader"}
    assert leaders and set(tob.command_kinds()) == leaders
    assert _rules("skirmish").command_kinds() == ()


def test_either_side_may_order_in_a_tree_of_battles_phase_but_not_out_of_turn_in_skirmish() -> None:
    tob, skirmish = _rules("tree_of_battles"), _rules("skirmish")
    assert tob.turn_problem(agincourt(), "english") is None
    state = replace(sample_battle(), cursor=Cursor(1, "main", "move", ("red", "blue")))
    assert skirmish.turn_problem(state, "blue") == "it is not blue's turn to give orders"
    verdict = skirmish.judge(state, Order("b1", "move", {"to": [12, 30]}))
    assert verdict == Illegal(verdict.order, "it is not blue's turn to give orders")


def test_each_ruleset_gives_its_sample_battle() -> None:
    fighting = {r.id: r.rules for r in registry.all_rulesets(include_unlisted=True) if r.rules}
    assert set(fighting) >= {
        "tree_of_battles", "pike_and_shot", "hail_caesar", "impetus", "heroic_age", "skirmish"
    }  # fmt: skip
    for ruleset_id, rules in fighting.items():
        battle = rules.sample_battle()
        assert battle is not None and battle.ruleset == ruleset_id


def test_units_deploy_facing_the_far_edge_unless_the_zone_says_nothing() -> None:
    rules, state = _rules("skirmish"), sample_battle()
    assert rules.deployment_facing(state, "red") == 0.0
    assert rules.deployment_facing(state, "blue") == 180.0
    unzoned = state.with_side(replace(state.side("blue"), status={}))
    assert rules.deployment_facing(unzoned, "blue") == 0.0
