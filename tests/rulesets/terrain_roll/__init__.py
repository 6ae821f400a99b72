"""Terrain roll: the skirmish rules with a terrain table, so ``/battle terrain roll`` has
something to roll on (no shipped ruleset has one yet).

It lives in the tests and is found through ``AIDE_RULESETS`` (``tests/conftest.py``'s
``terrain_roll`` fixture), like a ruleset kept outside the repository.
"""

from rules_core.rulesets.terrain_roll.rules import TerrainRollRules

from rules_core.registry import Ruleset
from rules_core.rulesets.skirmish import RULESET as SKIRMISH

# Listed (last) while loaded, so `/campaign create` offers it in the e2e tests.
RULESET = Ruleset(
    "terrain_roll", "Terrain roll (test)", "inch", SKIRMISH.roster_schema,
    rules=TerrainRollRules(), position=98,
)  # fmt: skip
