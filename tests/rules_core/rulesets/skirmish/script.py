"""A scripted skirmish battle: fixed deployment, a simple order policy, scripted answers."""

from __future__ import annotations

from dataclasses import dataclass

from rules_core import engine
from rules_core.decisions import Answer
from rules_core.engine import Resolution
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.rulesets.skirmish import demo
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import BattleState

SEED = bytes.fromhex("5eed" * 16)
DEPLOYMENT = (
    Order("r2", "place", {"at": [26, 6]}),
    Order("b2", "place", {"at": [22, 30], "facing": 180}),
)
# Who stands and who evades a charge; the winner of a melee always follows up.
EVADERS = {"r2", "b2"}


@dataclass
class Played:
    """A finished scripted battle: the first state, the last, and every resolution in order."""

    first: BattleState
    result: Resolution


def orders_for(rules: Rules, state: BattleState, side: str) -> list[Order]:
    """The script's orders: its fixed deployment, then the ruleset's demo policy."""
    if state.cursor.step == "deploy":
        return list(DEPLOYMENT)
    return demo.orders_for(rules, state, side)


def scripted_answer(state: BattleState) -> Answer:
    """The script's answer to the pending question."""
    assert state.pending is not None
    decision = state.pending.decision
    if decision.id.startswith("response:"):
        unit = decision.id.split(":", 1)[1]
        return Answer(decision.id, "evade" if unit in EVADERS else "stand", decision.who)
    if decision.id.startswith("after:"):
        return Answer(decision.id, "follow_up", decision.who)
    return Answer(decision.id, decision.default, decision.who)


def play(rules: Rules, seed: bytes = SEED, limit: int = 500) -> Played:
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
