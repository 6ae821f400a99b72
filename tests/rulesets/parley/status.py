"""Parley's status keys: each side's points (public) and its swaps (a secret of its own)."""

from rules_core.shared_status import DEPLOY_ZONE
from rules_core.status import Count, Scope, sheet

POINTS = Count("points", "tricks won", scope=Scope.SIDE)
SWAPS = Count("swaps", "cards swapped away", scope=Scope.HIDDEN)

STATUSES = sheet(DEPLOY_ZONE, POINTS, SWAPS)
