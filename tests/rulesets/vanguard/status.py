"""Vanguard's status keys: a command's moves this activation and whether it passed."""

from rules_core.shared_status import DEPLOY_ZONE
from rules_core.status import Count, Flag, Scope, sheet

MOVES = Count("moves", "moves made this activation", scope=Scope.GROUP)
PASSED = Flag("passed", "passed the initiative this turn", scope=Scope.GROUP)
READY = Flag("ready", "set-up complete", scope=Scope.BATTLE)

STATUSES = sheet(DEPLOY_ZONE, MOVES, PASSED, READY)
