"""The skirmish rules refuse, with the reason, an order they will not carry out (#39 item 4)."""

from __future__ import annotations

from rules_core.rulesets.skirmish.rules import SkirmishRules
from tests.rules_core.dropped import (
    first_order,
    played_to,
    refused_everywhere,
)

RULES = SkirmishRules()


def test_a_destroyed_unit_is_refused_an_order_when_given_and_in_the_result() -> None:
    state = played_to(RULES, "move")
    move = first_order(RULES, state, "move")
    gone = state.without_unit(move.actor)
    assert refused_everywhere(RULES, gone, move) == f"no unit {move.actor!r} on the table"
