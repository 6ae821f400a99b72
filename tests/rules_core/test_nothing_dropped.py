"""Every ruleset refuses, with its reason, a second order to a unit that does not combine
with its first (#39 item 4); each ruleset's own ``test_nothing_dropped`` checks the orders to
units that can no longer act."""

from __future__ import annotations

import pytest

from rules_core import registry
from rules_core.orders import Order
from tests.rules_core.dropped import first_order, played_to, rejections, uncombined

# The step of each ruleset where a unit takes a move (and a hold would be its other order).
MOVE_STEPS = {
    "heroic_age": "movement",
    "impetus": "move",
    "pike_and_shot": "movement",
    "skirmish": "move",
    "tree_of_battles": "tactical",
}


@pytest.mark.parametrize("ruleset", sorted(MOVE_STEPS))
def test_a_second_order_that_does_not_combine_is_refused_with_its_reason(ruleset: str) -> None:
    rules = registry.get(ruleset).rules
    assert rules is not None
    state = played_to(rules, MOVE_STEPS[ruleset])
    move = first_order(rules, state, "move")
    hold = Order(move.actor, "hold")
    assert rules.judge(state, move).legal and rules.judge(state, hold).legal  # each alone stands
    mine = [e for e in rejections(rules, state, [move, hold]) if e.actor == move.actor]
    assert mine == [uncombined(rules, move, hold)]
