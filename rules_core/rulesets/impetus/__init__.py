"""Impetus 2 (Lorenzo Sartori, Dadi & Piombo): commands activated by initiative, H measures."""

from __future__ import annotations

from rules_core.registry import Ruleset
from rules_core.rulesets.impetus.profiles import SCHEMA
from rules_core.rulesets.impetus.rules import ImpetusRules

RULESET = Ruleset("impetus", "Impetus 2", "H", SCHEMA, rules=ImpetusRules(), position=4)
