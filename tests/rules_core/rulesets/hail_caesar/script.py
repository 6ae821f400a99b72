"""A scripted Hail Caesar battle: the sample armies, the package's demo policy, its answers."""

from __future__ import annotations

from dataclasses import dataclass

from rules_core import engine
from rules_core.decisions import Answer
from rules_core.engine import Resolution
from rules_core.plugin import Rules
from rules_core.rulesets.hail_caesar.demo import answer, orders_for
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.state import BattleState

SEED = bytes.fromhex("abba" * 16)


@dataclass
class Played:
    """A finished scripted battle: the first state and every resolution in order."""

    first: BattleState
    result: Resolution


def scripted_answer(state: BattleState) -> Answer:
    """The demo policy's answer to the pending question."""
    assert state.pending is not None
    decision = state.pending.decision
    return Answer(decision.id, answer(state), decision.who)


def play(rules: Rules, seed: bytes = SEED, limit: int = 2000) -> Played:
    """Play the sample battle to its end with the script."""
    first = engine.begin(rules, sample_battle())
    result = Resolution(first, (), ())
    for _ in range(limit):
        state = result.state
        if state.outcome is not None:
            return Played(first, result)
        if state.pending is not None:
            result = result.then(engine.answer(rules, seed, state, scripted_answer(state)))
            continue
        sides = engine.waiting(rules, state).sides
        orders = [order for side in sides for order in orders_for(rules, state, side)]
        result = result.then(engine.run(rules, seed, state, orders))
    raise AssertionError("the scripted battle did not end")
