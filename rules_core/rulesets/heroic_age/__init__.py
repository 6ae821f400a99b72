"""Heroic Age (Dark-Age warbands): its roster schema; campaigns and armies work, battles not yet."""

from __future__ import annotations

from rules_core.registry import Ruleset
from rules_core.roster import Field, RosterSchema

SCHEMA = RosterSchema(
    (
        Field("name", str, required=True),
        Field("type"),
        Field("grade", choices=("A", "B", "C", "D")),
        Field("stands", int, minimum=1, maximum=50),
    )
)

RULESET = Ruleset("heroic_age", "Heroic Age (Dark-Age warbands)", "inch", SCHEMA, position=5)
