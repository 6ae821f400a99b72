"""Every status key the Hail Caesar rules keep, with its badge: declared once, read everywhere.

Unit values from the army list (clash, sustained, short, long, morale, stamina, elite, shields)
are roster profile, not status: the rules read them with ``rules_core.profile``.
"""

from __future__ import annotations

from rules_core.shared_status import (
    BATTLE_NAME,
    CASUALTIES,
    CHARGED,
    DEPLOY_ZONE,
    DISORDERED,
    FORMATION,
    SHAKEN,
    leader_rank,
)
from rules_core.status import Badge, Count, Flag, Note, Scope, sheet

# -- units: the shared keys come first, in the map's badge order --------------------------------
WON = Flag("won", "won the last round of hand-to-hand", Badge("tag", "WINNING", "good"))
ADVANCED = Flag("advanced", "moved in the General Advance", Badge("tag", "ADVANCED", "calm"))
GRANTED_MOVES = Count(
    "granted_moves", "moves granted by the C-in-C", Badge("count", "{} mv", "calm")
)
FOUGHT = Flag("fought", "fought a round of hand-to-hand this turn")
CLOSING_TEST = Flag("closing_test", "hurt by closing shots: tests when the combat is fought")
NO_FREE_MOVE = Flag("no_free_move", "Follow me! failed: no free move this turn")

# -- leaders ----------------------------------------------------------------------------------
RANK = leader_rank("the army commander", "general", "army", "C-IN-C")

# -- sides: each division's units at the start, losses and breaks, the C-in-C's re-roll ---------
DIVISION_UNITS = Note("division_units", "each division's units as play began", Scope.SIDE)
LOST = Note("lost", "units each division has lost", Scope.SIDE)
BROKEN_DIVISIONS = Note("broken_divisions", "broken divisions", Scope.SIDE, shown=True)
REROLL_TURN = Count(
    "reroll_turn", "turn the C-in-C last gave a re-roll", scope=Scope.SIDE, private=True
)

STATUSES = sheet(
    BATTLE_NAME,
    DEPLOY_ZONE,
    CASUALTIES,
    FORMATION,
    DISORDERED,
    SHAKEN,
    CHARGED,
    WON,
    ADVANCED,
    GRANTED_MOVES,
    RANK,
    FOUGHT,
    CLOSING_TEST,
    NO_FREE_MOVE,
    DIVISION_UNITS,
    LOST,
    BROKEN_DIVISIONS,
    REROLL_TURN,
)

# The shared keys are exported with the ruleset's own: rules import them all from here.
__all__ = [
    "ADVANCED",
    "BATTLE_NAME",
    "BROKEN_DIVISIONS",
    "CASUALTIES",
    "CHARGED",
    "CLOSING_TEST",
    "DEPLOY_ZONE",
    "DISORDERED",
    "DIVISION_UNITS",
    "FORMATION",
    "FOUGHT",
    "GRANTED_MOVES",
    "LOST",
    "NO_FREE_MOVE",
    "RANK",
    "REROLL_TURN",
    "SHAKEN",
    "STATUSES",
    "WON",
]
