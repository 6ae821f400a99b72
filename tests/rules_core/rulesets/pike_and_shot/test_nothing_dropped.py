"""Pike and shot refuses, with its reason, an order it will not carry out (#39 item 4)."""

from __future__ import annotations

from rules_core.rulesets.pike_and_shot.rules import PikeAndShotRules
from rules_core.rulesets.pike_and_shot.status import COHESION
from tests.rules_core.dropped import (
    first_order,
    played_to,
    refused_everywhere,
    with_status,
)

RULES = PikeAndShotRules()


def test_a_routed_unit_is_refused_a_move_when_given_and_in_the_result() -> None:
    state = played_to(RULES, "movement")
    move = first_order(RULES, state, "move")
    routed = with_status(state, move.actor, **{COHESION.key: "routed"})
    name = state.unit(move.actor).name
    assert refused_everywhere(RULES, routed, move) == f"{name} is routed: it cannot be ordered"
