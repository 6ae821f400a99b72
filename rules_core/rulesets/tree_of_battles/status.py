"""Every status key the Tree of Battles rules keep, with its badge: declared once, read everywhere.

Contingent values from the army list (missile, armour, chivalrous, combat factor, mercenary) are
roster profile, not status: the rules read them with ``rules_core.profile``. ``mounted`` and
``ranks`` start in the profile and are changed in play (dismount, change frontage), so they are
declared here and read through their declarations, which fall back to the profile.
"""

from __future__ import annotations

from rules_core.shared_status import (
    ARRAY,
    BATTLE_NAME,
    BROKEN,
    CASUALTIES,
    CHARGED,
    COMBAT_RESULT,
    DPS,
    IN_COMBAT,
    LAST_MOVE,
    LOOTING,
    PURSUING,
    STATIONARY,
    leader_rank,
)
from rules_core.status import Badge, Count, Flag, Level, LevelValue, Note, Scope, Text, sheet

# -- contingents: the shared keys come first, in the map's badge order --------------------------
CONTROL = Level(
    "control",
    "control test result",
    (
        LevelValue("free", quiet=True),
        LevelValue("continue", quiet=True),
        LevelValue("halt", "HALT", "warn"),
        LevelValue("retire", "RETIRE", "bad"),
        LevelValue("advance", "ADVANCE", "warn"),
        LevelValue("repeat", "REPEAT", "warn"),
        LevelValue("charge_a", "CHARGE A", "worse"),
        LevelValue("charge_a_max", "CHARGE A!", "worse"),
        LevelValue("full_speed", "FULL SPEED", "warn"),
    ),
)
RETIRING = Flag("retiring", "retired this turn", Badge("tag", "RETIRING", "warn"))
SHOT_AT = Flag("shot_at", "was shot at this turn")
SHOOTING_DPS = Count("shooting_dps", "DPs from shooting this turn", private=True)
SHOT_BY_ARTILLERY = Flag("shot_by_artillery", "was shot at by artillery this turn")
SHOT_BY_HANDGUNS = Flag("shot_by_handguns", "was shot at by handguns this turn")
FOUGHT_MELEE = Flag("fought_melee", "has fought a melee (not only a charge)")
COUNTER_CHARGED = Flag("counter_charged", "was met by a counter-charge")
RANKS_EXCHANGED = Flag("ranks_exchanged", "exchanged ranks this turn")
MOUNTED = Flag("mounted", "mounted")  # the roster's value until a mount or dismount
RANKS = Count("ranks", "ranks of stands", default=1)  # the roster's value until changed
RESPONSE = Text("response", "its response to a charge")
CHARGED_BY = Text("charged_by", "the contingent charging it")
COMBAT_ENEMY = Text("combat_enemy", "its enemy in the last combat")
MELEE_WITH = Text("melee_with", "the enemy it is in melee with")
CONTROLLED_BY = Text("controlled_by", "the leader exerting control over it")
LAST_TARGET = Text("last_target", "the artillery's last target")
LAST_RANGE = Note("last_range", "the artillery's last range")

# -- leaders ----------------------------------------------------------------------------------
RANK = leader_rank("leader's rank", "captain", "marshal", "MARSHAL", default="captain")
NOBLE = Flag("noble", "a noble", scope=Scope.LEADER)
SPENT = Count("spent", "command points spent this turn", scope=Scope.LEADER, private=True)
ORDERS = Text("orders", "orders", Scope.LEADER)

# -- sides ------------------------------------------------------------------------------------
# The fighting contingents (not baggage) a side began with: a destroyed one leaves the state,
# and the AI general reads how near an army is to its break against this (#36).
START_CONTINGENTS = Count(
    "start_contingents", "fighting contingents at the start", scope=Scope.SIDE, private=True
)

STATUSES = sheet(
    BATTLE_NAME,
    DPS,
    CASUALTIES,
    ARRAY,
    BROKEN,
    PURSUING,
    LOOTING,
    CHARGED,
    CONTROL,
    RETIRING,
    RANK,
    STATIONARY,
    SHOT_AT,
    SHOOTING_DPS,
    SHOT_BY_ARTILLERY,
    SHOT_BY_HANDGUNS,
    IN_COMBAT,
    FOUGHT_MELEE,
    COUNTER_CHARGED,
    RANKS_EXCHANGED,
    MOUNTED,
    RANKS,
    RESPONSE,
    CHARGED_BY,
    COMBAT_ENEMY,
    COMBAT_RESULT,
    MELEE_WITH,
    CONTROLLED_BY,
    LAST_TARGET,
    LAST_RANGE,
    LAST_MOVE,
    NOBLE,
    SPENT,
    ORDERS,
    START_CONTINGENTS,
)

# The shared keys are exported with the ruleset's own: rules import them all from here.
__all__ = [
    "ARRAY",
    "BATTLE_NAME",
    "BROKEN",
    "CASUALTIES",
    "CHARGED",
    "CHARGED_BY",
    "COMBAT_ENEMY",
    "COMBAT_RESULT",
    "CONTROL",
    "CONTROLLED_BY",
    "COUNTER_CHARGED",
    "DPS",
    "FOUGHT_MELEE",
    "IN_COMBAT",
    "LAST_MOVE",
    "LAST_RANGE",
    "LAST_TARGET",
    "LOOTING",
    "MELEE_WITH",
    "MOUNTED",
    "NOBLE",
    "ORDERS",
    "PURSUING",
    "RANK",
    "RANKS",
    "RANKS_EXCHANGED",
    "RESPONSE",
    "RETIRING",
    "SHOOTING_DPS",
    "SHOT_AT",
    "SHOT_BY_ARTILLERY",
    "SHOT_BY_HANDGUNS",
    "SPENT",
    "START_CONTINGENTS",
    "STATIONARY",
    "STATUSES",
]
