"""Tree of Battles refuses, with its reason, an order it will not carry out (#39 item 4)."""

from __future__ import annotations

from rules_core.orders import Order
from rules_core.rulesets.tree_of_battles.rules import TreeOfBattlesRules
from rules_core.rulesets.tree_of_battles.status import BROKEN
from tests.rules_core.dropped import (
    first_order,
    played_to,
    refused_everywhere,
    rejections,
    uncombined,
    with_status,
)

RULES = TreeOfBattlesRules()


def test_a_second_order_that_does_not_combine_is_refused_with_its_reason() -> None:
    state = played_to(RULES, "tactical")
    move = first_order(RULES, state, "move")
    hold = Order(move.actor, "hold")
    assert RULES.judge(state, move).legal and RULES.judge(state, hold).legal  # each alone stands
    mine = [e for e in rejections(RULES, state, [move, hold]) if e.actor == move.actor]
    assert mine == [uncombined(RULES, move, hold)]


def test_a_routing_contingent_is_refused_a_move_when_given_and_in_the_result() -> None:
    state = played_to(RULES, "tactical")
    move = first_order(RULES, state, "move")
    routing = with_status(state, move.actor, **{BROKEN.key: True})
    assert "is routing" in refused_everywhere(RULES, routing, move)
