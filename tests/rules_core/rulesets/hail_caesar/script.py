"""A scripted Hail Caesar battle: the sample armies, the package's demo policy, its answers."""

from __future__ import annotations

from rules_core.plugin import Rules
from rules_core.rulesets.hail_caesar.demo import answer, orders_for
from rules_core.rulesets.hail_caesar.sample import sample_battle
from tests.rules_core.scripted import Played, play_scripted

SEED = bytes.fromhex("abba" * 16)


def play(rules: Rules, seed: bytes = SEED, limit: int = 2000) -> Played:
    """Play the sample battle to its end with the script."""
    return play_scripted(rules, sample_battle(), seed, orders_for, answer, limit)
