"""Hail Caesar (Rick Priestley, Warlord Games): ancients to medieval, in inches."""

from __future__ import annotations

from rules_core.registry import Ruleset
from rules_core.rulesets.hail_caesar.profiles import SCHEMA
from rules_core.rulesets.hail_caesar.rules import HailCaesarRules

RULESET = Ruleset(
    "hail_caesar",
    "Hail Caesar",
    "inch",
    SCHEMA,
    aliases=("hc",),
    rules=HailCaesarRules(),
    position=3,
)
