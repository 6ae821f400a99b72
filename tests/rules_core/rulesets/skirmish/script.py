"""A scripted skirmish battle: fixed deployment, a simple order policy, scripted answers."""

from __future__ import annotations

from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.rulesets.skirmish import demo
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import BattleState
from tests.rules_core.scripted import Played, play_scripted

SEED = bytes.fromhex("5eed" * 16)
DEPLOYMENT = (
    Order("r2", "place", {"at": [26, 6]}),
    Order("b2", "place", {"at": [22, 30], "facing": 180}),
)
# Who stands and who evades a charge; the winner of a melee always follows up.
EVADERS = {"r2", "b2"}


def orders_for(rules: Rules, state: BattleState, side: str) -> list[Order]:
    """The script's orders: its fixed deployment, then the ruleset's demo policy."""
    if state.cursor.step == "deploy":  # each side places its own units only
        return [order for order in DEPLOYMENT if state.unit(order.actor).side == side]
    return demo.orders_for(rules, state, side)


def scripted_choice(state: BattleState) -> str:
    """The script's answer to the pending question."""
    assert state.pending is not None
    decision = state.pending.decision
    if decision.id.startswith("response:"):
        return "evade" if decision.id.split(":", 1)[1] in EVADERS else "stand"
    if decision.id.startswith("after:"):
        return "follow_up"
    return decision.default


def play(rules: Rules, seed: bytes = SEED, limit: int = 500) -> Played:
    """Play the sample battle to its end with the script."""
    return play_scripted(rules, sample_battle(), seed, orders_for, scripted_choice, limit)
