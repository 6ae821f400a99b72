"""Every status key the skirmish rules keep, with its badge: declared once, read everywhere."""

from __future__ import annotations

from rules_core.shared_status import (
    BATTLE_NAME,
    CHARGED,
    DEPLOY_ZONE,
    DISORDERED,
    FORMATION,
    WOUNDS,
)
from rules_core.status import Count, Scope, sheet

START_UNITS = Count("units", "units at the start", scope=Scope.SIDE, private=True)

STATUSES = sheet(BATTLE_NAME, DEPLOY_ZONE, START_UNITS, WOUNDS, FORMATION, DISORDERED, CHARGED)

# The shared keys are exported with the ruleset's own: rules import them all from here.
__all__ = [
    "BATTLE_NAME",
    "CHARGED",
    "DEPLOY_ZONE",
    "DISORDERED",
    "FORMATION",
    "START_UNITS",
    "STATUSES",
    "WOUNDS",
]
