"""Every status key the heroic-age rules keep, with its badge: declared once, read everywhere.

Read a value through its declaration (``AGGRESSION.of(unit)``, ``LPS`` is ``Leader.points``)
and write it through ``ctx.set_status`` / ``set_leader_status`` / ``set_side_status`` /
``set_battle_status``. Helpers that apply the sheet's side effects (the 4-DP rule, levels
shared by a whole combat) live in ``units.py``: call ``units.add_dps`` and
``units.change_aggression`` rather than writing ``dps`` or ``aggression`` directly.

Units (``Scope.UNIT``)
  aggression        level: "shaken" < "present" < "ready for battle" < "blood lust"
                    (``AGGRESSION_ORDER``). The sheet's "Normal" (DP list) is read as Present.
  dps               disorder points (the 4-DP rule: ``units.add_dps``)
  casualties        stands lost (a unit reduced below Shaken loses a stand a level)
  unformed          unformed (difficult terrain, manoeuvres, routs, retires, pursuits)
  broken            broken: moves away each turn until it outdistances pursuit, then is gone
  retiring          retiring (full unformed moves away; may reform next turn or retire again)
  pursuing          pursuing a unit that broke or retired (control test to stop)
  charged           charged this turn (+1 die, charge combat)
  charge_combat     its combat this turn is a charge combat (the * modifiers apply)
  in_combat         in combat (engaged), for the leadership phase and rest
  combat_enemy      ids of the enemies it fought in its last combat: those touching it along
                    an edge, else at a corner (a battle saved before #39 kept one id, shared
                    by the whole side); a pursuer keeps only the unit it pursues
  combat_result     its result in the last combat: victory, success, inconclusive,
                    set_back, defeat (and the losers' move is read from it)
  after_move        its move after the last combat: pursue, follow_up, fall_back, retire,
                    break or "" (losers move first)
  refights          inconclusive rounds fought this turn (the second separates)
  following_up      followed up an opponent that fell back (+1 die next combat)
  stationary        has not moved this turn (rest and reform)
  control           control test result this turn: halt, retire, free, blood_lust (advance
                    and charge), continue (pursuit continues)
  last_move         its last move [dx, dy, facing] (a 5+ control test repeats it)
  advance_signalled its leader has signalled the advance for it (set by leadership.py; the
                    DP for "enemy advancing towards them in 8" before they have signalled the
                    advance" reads it)
  advanced_in_leadership moved in the leadership phase this turn (set by leadership.py)
  skilled_archer    set by the god pack's Five: one stand's dice doubled in this turn's missile
                    exchange (cleared after it)
  aggression_changed_by an id: what raised or lowered it this turn once ("one level only"
                    causes), bookkeeping

Leaders (``Scope.LEADER``; LPs are ``Leader.points``)
  cinc, special_weapon, heroic_champion, holy_person, battle_standard  roster flags (a
                    battle standard or heroic champion is "attached" to the unit its leader
                    stands with, ``Leader.attached_to``)
  wounds            declared for the map's badge; the count is the field ``Leader.wounds``
                    (``units.add_wound``: risk to leader; personal combat: three kill)
  (a killed leader is removed from the state: ``units.kill_leader``; the side's
  ``cinc_killed`` flag records a commander-in-chief's death)
  lps_spent         LPs spent this turn (leadership.py)
  duel_wounds       wounds taken in the current personal combat (duel.py)
  in_duel           fighting a personal combat now (duel.py)
  challenge         the enemy leader he challenged in the Leadership step, fought in the
                    personal combats step (leadership.py, duel.py)

Sides (``Scope.SIDE``)
  initiative_roll   its initiative die this turn (with the +1 for more LPs)
  holy_called       its holy person was called on this turn (both sides: they cancel)
  camp_followers_used bookkeeping for the leadership phase (leadership.py)
  start_units       units it started the battle with (the battle's end reads it)
  cinc_killed       its commander-in-chief has been killed (the battle's end reads it)

Battle (``Scope.BATTLE``)
  rain_until_turn   the first joker: fatigue DPs on 4-6 up to and including this turn
  initiative_winner the side that won the initiative this turn
  god_card          the card the god pack gave this turn (shown)

Retained cards (the Five, the Seven) are not status: the card API keeps them
(``ctx.cards("gods").retained(side)``).
"""

from __future__ import annotations

from rules_core.shared_status import (
    AGGRESSION,
    BATTLE_NAME,
    BROKEN,
    CASUALTIES,
    CHARGED,
    COMBAT_RESULT,
    DEPLOY_ZONE,
    DPS,
    IN_COMBAT,
    LAST_MOVE,
    PURSUING,
    STATIONARY,
    UNFORMED,
)
from rules_core.status import Badge, Count, Flag, Level, LevelValue, Note, Scope, Text, sheet

AGGRESSION_ORDER = ("shaken", "present", "ready for battle", "blood lust")

# -- units: the shared keys first, in the map's badge order -------------------------------------
RETIRING = Flag("retiring", "retiring", Badge("tag", "RETIRING", "warn"))
CHARGE_COMBAT = Flag("charge_combat", "in a charge combat this turn")
COMBAT_ENEMIES = Note("combat_enemy", "the enemies it fought in the last combat")
AFTER_MOVE = Text("after_move", "its move after combat")
REFIGHTS = Count("refights", "inconclusive rounds this turn", private=True)
FOLLOWING_UP = Flag("following_up", "followed up an opponent that fell back")
CONTROL = Level(
    "control",
    "control test result",
    (
        LevelValue("free", quiet=True),
        LevelValue("continue", "PURSUE", "warn"),
        LevelValue("halt", "HALT", "warn"),
        LevelValue("retire", "RETIRE", "bad"),
        LevelValue("blood_lust", "ADVANCE!", "worse"),
    ),
)
ADVANCE_SIGNALLED = Flag("advance_signalled", "has signalled the advance")
ADVANCED_IN_LEADERSHIP = Flag("advanced_in_leadership", "moved on the signal to advance")
SKILLED_ARCHER = Flag("skilled_archer", "skilled archer revealed", Badge("tag", "ARCHER", "good"))
AGGRESSION_CHANGED_BY = Note("aggression_changed_by", "one-level-only causes this turn")

# -- leaders ----------------------------------------------------------------------------------
CINC = Flag("cinc", "commander-in-chief", Badge("tag", "CinC", "calm"), Scope.LEADER)
SPECIAL_WEAPON = Flag("special_weapon", "special weapon", scope=Scope.LEADER)
HEROIC_CHAMPION = Flag("heroic_champion", "heroic champion", scope=Scope.LEADER)
HOLY_PERSON = Flag("holy_person", "holy person", scope=Scope.LEADER)
BATTLE_STANDARD = Flag("battle_standard", "battle standard", scope=Scope.LEADER)
WOUNDS = Count("wounds", "wounds", Badge("count", "{} wd", "bad"), Scope.LEADER)
LPS_SPENT = Count("lps_spent", "LPs spent this turn", scope=Scope.LEADER, private=True)
DUEL_WOUNDS = Count("duel_wounds", "wounds in this personal combat", scope=Scope.LEADER)
IN_DUEL = Flag("in_duel", "fighting a personal combat", scope=Scope.LEADER)
CHALLENGE = Text("challenge", "the enemy leader he challenged this turn", Scope.LEADER)

# -- sides -------------------------------------------------------------------------------------
INITIATIVE_ROLL = Count("initiative_roll", "initiative roll this turn", scope=Scope.SIDE)
HOLY_CALLED = Flag("holy_called", "called on a holy person this turn", scope=Scope.SIDE)
CAMP_FOLLOWERS_USED = Note("camp_followers_used", "camp followers this turn", Scope.SIDE)
START_UNITS = Count("start_units", "units at the start", scope=Scope.SIDE, private=True)
CINC_KILLED = Flag("cinc_killed", "commander-in-chief killed", scope=Scope.SIDE)

# -- the battle --------------------------------------------------------------------------------
RAIN_UNTIL_TURN = Count("rain_until_turn", "heavy rain until turn", scope=Scope.BATTLE)
INITIATIVE_WINNER = Text("initiative_winner", "won the initiative", Scope.BATTLE)
GOD_CARD = Text("god_card", "the god pack's card this turn", Scope.BATTLE)

STATUSES = sheet(
    BATTLE_NAME,
    DEPLOY_ZONE,  # where each side deploys (the map's dashed line)
    DPS,
    CASUALTIES,
    AGGRESSION,
    UNFORMED,
    BROKEN,
    RETIRING,
    PURSUING,
    CHARGED,
    CONTROL,
    SKILLED_ARCHER,
    CHARGE_COMBAT,
    IN_COMBAT,
    COMBAT_ENEMIES,
    COMBAT_RESULT,
    AFTER_MOVE,
    REFIGHTS,
    FOLLOWING_UP,
    STATIONARY,
    LAST_MOVE,
    ADVANCE_SIGNALLED,
    ADVANCED_IN_LEADERSHIP,
    AGGRESSION_CHANGED_BY,
    CINC,
    SPECIAL_WEAPON,
    HEROIC_CHAMPION,
    HOLY_PERSON,
    BATTLE_STANDARD,
    WOUNDS,
    LPS_SPENT,
    DUEL_WOUNDS,
    IN_DUEL,
    CHALLENGE,
    INITIATIVE_ROLL,
    HOLY_CALLED,
    CAMP_FOLLOWERS_USED,
    CINC_KILLED,
    START_UNITS,
    RAIN_UNTIL_TURN,
    INITIATIVE_WINNER,
    GOD_CARD,
)

__all__ = [
    "ADVANCED_IN_LEADERSHIP",
    "ADVANCE_SIGNALLED",
    "AFTER_MOVE",
    "AGGRESSION",
    "AGGRESSION_CHANGED_BY",
    "AGGRESSION_ORDER",
    "BATTLE_NAME",
    "BATTLE_STANDARD",
    "BROKEN",
    "CAMP_FOLLOWERS_USED",
    "CASUALTIES",
    "CHARGED",
    "CHARGE_COMBAT",
    "CINC",
    "CINC_KILLED",
    "COMBAT_ENEMIES",
    "COMBAT_RESULT",
    "CONTROL",
    "DEPLOY_ZONE",
    "DPS",
    "DUEL_WOUNDS",
    "FOLLOWING_UP",
    "GOD_CARD",
    "HEROIC_CHAMPION",
    "HOLY_CALLED",
    "HOLY_PERSON",
    "INITIATIVE_ROLL",
    "INITIATIVE_WINNER",
    "IN_COMBAT",
    "IN_DUEL",
    "LAST_MOVE",
    "LPS_SPENT",
    "PURSUING",
    "RAIN_UNTIL_TURN",
    "REFIGHTS",
    "RETIRING",
    "SKILLED_ARCHER",
    "SPECIAL_WEAPON",
    "START_UNITS",
    "STATIONARY",
    "STATUSES",
    "UNFORMED",
    "WOUNDS",
]
