"""A scripted Ethandun: both hosts advance with the extra D6, shoot, charge and fight.

The orders and answers are the ruleset's demo player (``heroic_age.demo``).
"""

from __future__ import annotations

from rules_core.plugin import Rules
from rules_core.rulesets.heroic_age.demo import orders_for
from rules_core.rulesets.heroic_age.sample import sample_battle
from rules_core.state import BattleState
from tests.rules_core.scripted import Played, play_scripted

SEED = bytes.fromhex("4e7a" * 16)


def _default(state: BattleState) -> str:
    assert state.pending is not None
    return state.pending.decision.default


def play(rules: Rules, seed: bytes = SEED, limit: int = 800, max_turns: int = 6) -> Played:
    """Play the sample battle to its end with the script."""
    return play_scripted(
        rules, sample_battle(max_turns=max_turns), seed, orders_for, _default, limit
    )
