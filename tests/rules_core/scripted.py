"""Playing a sample battle to its end with a ruleset's scripted policy (for golden logs)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules_core import engine
from rules_core.decisions import Answer
from rules_core.engine import Resolution
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.state import BattleState

OrdersFor = Callable[[Rules, BattleState, str], list[Order]]
ChoiceFor = Callable[[BattleState], str]


@dataclass
class Played:
    """A finished scripted battle: the first state and every resolution in order."""

    first: BattleState
    result: Resolution


def play_scripted(
    rules: Rules,
    start: BattleState,
    seed: bytes,
    orders_for: OrdersFor,
    choice_for: ChoiceFor,
    limit: int,
) -> Played:
    """Begin the battle, then give the script's orders and answers until it ends."""
    first = engine.begin(rules, start)
    result = Resolution(first, (), ())
    for _ in range(limit):
        state = result.state
        if state.outcome is not None:
            return Played(first, result)
        if state.pending is not None:
            decision = state.pending.decision
            given = Answer(decision.id, choice_for(state), decision.who)
            result = result.then(engine.answer(rules, seed, state, given))
            continue
        sides = engine.waiting(rules, state).sides
        orders = [order for side in sides for order in orders_for(rules, state, side)]
        result = result.then(engine.run(rules, seed, state, orders))
    raise AssertionError("the scripted battle did not end")
