"""A scripted Agincourt: the French advance and attack, the English stand and shoot.

The orders and answers are the ruleset's demo player (``tree_of_battles.demo``).
"""

from __future__ import annotations

from rules_core.plugin import Rules
from rules_core.rulesets.tree_of_battles.demo import answer_for, orders_for
from rules_core.rulesets.tree_of_battles.sample import sample_battle
from tests.rules_core.scripted import Played, play_scripted

SEED = bytes.fromhex("70b5" * 16)


def play(rules: Rules, seed: bytes = SEED, limit: int = 800) -> Played:
    """Play the sample battle to its end with the script."""
    return play_scripted(rules, sample_battle(), seed, orders_for, answer_for, limit)
