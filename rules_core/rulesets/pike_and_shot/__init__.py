"""Pike and Shot at brigade level (title unknown): wings under orders, brigades and tercios."""

from __future__ import annotations

from rules_core.registry import Ruleset
from rules_core.rulesets.pike_and_shot.profiles import SCHEMA
from rules_core.rulesets.pike_and_shot.rules import PikeAndShotRules

RULESET = Ruleset(
    "pike_and_shot",
    "Pike and Shot (brigade level)",
    "inch",
    SCHEMA,
    rules=PikeAndShotRules(),
    position=2,
)
