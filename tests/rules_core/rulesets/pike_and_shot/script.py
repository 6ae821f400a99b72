"""A scripted Edgehill: both armies attack, advance straight ahead, shoot the nearest, fight.

The orders and answers are the ruleset's demo player (``pike_and_shot.demo``); questions take
their defaults (the GM's too).
"""

from __future__ import annotations

from rules_core.plugin import Rules
from rules_core.rulesets.pike_and_shot.demo import orders_for
from rules_core.rulesets.pike_and_shot.sample import sample_battle
from rules_core.state import BattleState
from tests.rules_core.scripted import Played, play_scripted

SEED = bytes.fromhex("1c2d" * 16)


def _default(state: BattleState) -> str:
    assert state.pending is not None
    return state.pending.decision.default


def play(rules: Rules, seed: bytes = SEED, limit: int = 800, max_turns: int = 6) -> Played:
    """Play the sample battle to its end with the script."""
    return play_scripted(
        rules, sample_battle(max_turns=max_turns), seed, orders_for, _default, limit
    )
