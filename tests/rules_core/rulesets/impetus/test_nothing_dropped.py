"""Impetus refuses, with its reason, an order it will not carry out (#39 item 4)."""

from __future__ import annotations

from rules_core.rulesets.impetus.rules import ImpetusRules
from rules_core.rulesets.impetus.status import RALLIED
from tests.rules_core.dropped import (
    first_order,
    played_to,
    refused_everywhere,
    with_status,
)

RULES = ImpetusRules()


def test_a_spent_or_routed_unit_is_refused_a_move_when_given_and_in_the_result() -> None:
    state = played_to(RULES, "move")
    move = first_order(RULES, state, "move")
    name = state.unit(move.actor).name
    rallied = with_status(state, move.actor, **{RALLIED.key: True})
    assert refused_everywhere(RULES, rallied, move) == (
        f"{name} rallied in this activation and does nothing else"
    )
    routed = state.without_unit(move.actor)  # a routed unit is taken from the battle
    assert refused_everywhere(RULES, routed, move) == f"no unit {move.actor!r} on the table"
