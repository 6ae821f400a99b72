"""Tree of Battles refuses, with its reason, an order it will not carry out (#39 item 4)."""

from __future__ import annotations

from rules_core.rulesets.tree_of_battles.rules import TreeOfBattlesRules
from rules_core.rulesets.tree_of_battles.status import BROKEN
from tests.rules_core.dropped import (
    first_order,
    played_to,
    refused_everywhere,
    with_status,
)

RULES = TreeOfBattlesRules()


def test_a_routing_contingent_is_refused_a_move_when_given_and_in_the_result() -> None:
    state = played_to(RULES, "tactical")
    move = first_order(RULES, state, "move")
    routing = with_status(state, move.actor, **{BROKEN.key: True})
    assert "is routing" in refused_everywhere(RULES, routing, move)
