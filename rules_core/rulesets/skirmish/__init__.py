"""The skirmish ruleset: the worked example of a plugin, used by the core's tests."""

from __future__ import annotations

from rules_core.registry import Ruleset
from rules_core.roster import Field, RosterSchema
from rules_core.rulesets.skirmish.rules import SkirmishRules

RULESET = Ruleset(
    "skirmish",
    "Skirmish (test ruleset)",
    "inch",
    RosterSchema(
        (
            Field("name", str, required=True),
            Field("type", choices=("infantry", "archers", "skirmishers", "cavalry")),
            Field("move", int, required=True, minimum=1, maximum=24),
            Field("stamina", int, required=True, minimum=1, maximum=10),
        )
    ),
    rules=SkirmishRules(),
    listed=False,
)
