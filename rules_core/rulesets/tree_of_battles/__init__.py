"""The Tree of Battles (Simon MacDowall, Legio Wargames): medieval battles, 1300-1500."""

from __future__ import annotations

from rules_core.registry import Ruleset
from rules_core.rulesets.tree_of_battles.profiles import SCHEMA
from rules_core.rulesets.tree_of_battles.rules import TreeOfBattlesRules

RULESET = Ruleset(
    "tree_of_battles",
    "The Tree of Battles",
    "SF",
    SCHEMA,
    aliases=("tob",),
    rules=TreeOfBattlesRules(),
    position=1,
)
