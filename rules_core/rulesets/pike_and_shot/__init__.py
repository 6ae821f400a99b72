"""Pike and Shot at brigade level: its roster schema; campaigns and armies work, battles not yet."""

from __future__ import annotations

from rules_core.registry import Ruleset
from rules_core.roster import Field, RosterSchema

SCHEMA = RosterSchema(
    (
        Field("name", str, required=True),
        Field("type"),
        Field("quality", choices=("raw", "trained", "veteran")),
    )
)

RULESET = Ruleset("pike_and_shot", "Pike and Shot (brigade level)", "inch", SCHEMA, position=2)
