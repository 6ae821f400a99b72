"""#40 a side with nothing it could order: judged from the step's order kinds, its actors where
they stand, and, for a kind whose parameters are units, the legal targets."""

from __future__ import annotations

from dataclasses import replace

from rules_core import engine, orderable, registry
from rules_core.plugin import Rules
from rules_core.state import RESERVE, BattleState
from rules_core.steps import MAIN, Cursor


def skirmish() -> tuple[Rules, BattleState]:
    """The Skirmish sample battle begun: its Deployment step, armies far apart."""
    rules = registry.get("skirmish").rules
    assert rules is not None
    sample = rules.sample_battle()
    assert sample is not None
    return rules, engine.begin(rules, sample)


def at(state: BattleState, step: str, side: str) -> BattleState:
    """The battle placed at a step of turn 1 in the player turn of ``side``."""
    order = (side, *(s for s in state.cursor.side_order if s != side))
    return replace(state, cursor=Cursor(1, MAIN, step, order))


def test_a_step_s_orders_count_where_some_order_of_its_kinds_is_legal() -> None:
    rules, state = skirmish()
    assert state.cursor.step == "deploy"
    assert orderable.has_orders(rules, state, "red")  # a unit may always be placed again
    assert orderable.has_orders(rules, at(state, "move", "red"), "red")
    assert orderable.has_orders(rules, at(state, "shoot", "red"), "red")  # hold, at least
    shooting = at(state, "shoot", "red")
    archers = shooting.unit("r2")
    # Red's archers alone on the table: no enemy in reach, but a hold is still an order.
    alone = replace(shooting, units=(archers, *shooting.units_of("blue")))
    assert orderable.has_orders(rules, alone, "red")


def test_a_side_with_no_unit_on_the_table_has_nothing_to_order() -> None:
    rules, state = skirmish()
    moving = at(state, "move", "red")
    kept = tuple(
        replace(unit, location=RESERVE) if unit.side == "red" else unit for unit in moving.units
    )
    assert not orderable.has_orders(rules, replace(moving, units=kept), "red")


def test_a_deployment_step_with_every_unit_on_the_table_is_only_for_adjusting() -> None:
    rules, state = skirmish()
    assert orderable.only_adjusting(rules, state)
    first = state.units[0]
    held = state.with_unit(replace(first, location=RESERVE))
    assert not orderable.only_adjusting(rules, held)
    assert not orderable.only_adjusting(rules, at(state, "move", "red"))
