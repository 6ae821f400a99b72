"""The skirmish ruleset: a short tutorial game, the worked example of a plugin, and the
ruleset the core's and the bot's tests play."""

from __future__ import annotations

from rules_core.registry import Ruleset
from rules_core.roster import Field, RosterSchema
from rules_core.rulesets.skirmish.rules import SkirmishRules

RULESET = Ruleset(
    "skirmish",
    "Skirmish (tutorial)",
    "inch",
    RosterSchema(
        (
            Field("name", str, required=True, help="the unit's name, unique in the army"),
            Field("type", choices=("infantry", "archers", "skirmishers", "cavalry")),
            Field("move", int, required=True, minimum=1, maximum=24, help="inches a move"),
            Field("stamina", int, required=True, minimum=1, maximum=10, help="wounds it takes"),
        ),
        allow_extra=False,
        example={
            "name": "My Army",
            "units": [{"name": "Spearmen", "type": "infantry", "move": 6, "stamina": 3}],
        },
    ),
    rules=SkirmishRules(),
)
