"""Heroic Age (Dark-Age warbands, title unknown): god pack, leadership, warbands and duels."""

from __future__ import annotations

from rules_core.registry import Ruleset
from rules_core.rulesets.heroic_age.profiles import SCHEMA
from rules_core.rulesets.heroic_age.rules import HeroicAgeRules

RULESET = Ruleset(
    "heroic_age",
    "Heroic Age (Dark-Age warbands)",
    "inch",
    SCHEMA,
    rules=HeroicAgeRules(),
    position=5,
)
