"""Heroic age refuses, with its reason, an order it will not carry out (#39 item 4)."""

from __future__ import annotations

from rules_core.rulesets.heroic_age.rules import HeroicAgeRules
from rules_core.rulesets.heroic_age.status import BROKEN, RETIRING
from tests.rules_core.dropped import (
    first_order,
    played_to,
    refused_everywhere,
    with_status,
)

RULES = HeroicAgeRules()


def test_a_broken_or_retiring_unit_is_refused_a_move_when_given_and_in_the_result() -> None:
    state = played_to(RULES, "movement")
    move = first_order(RULES, state, "move")
    name = state.unit(move.actor).name
    for flag in (BROKEN, RETIRING):
        unable = with_status(state, move.actor, **{flag.key: True})
        assert refused_everywhere(RULES, unable, move) == f"{name} is broken or retiring"
