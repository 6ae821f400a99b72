"""Impetus 2 (Lorenzo Sartori): its roster schema; campaigns and armies work, battles not yet."""

from __future__ import annotations

from rules_core.registry import Ruleset
from rules_core.roster import Field, RosterSchema

TYPES = ("FP", "FL", "S", "T", "CP1", "CP2", "CM", "CL", "CGP", "CGL", "CF", "EL", "W", "ART")
SCHEMA = RosterSchema((Field("name", str, required=True), Field("type", choices=TYPES)))

RULESET = Ruleset("impetus", "Impetus 2", "H", SCHEMA, position=4)
