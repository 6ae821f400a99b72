"""The heroic-age quick-reference sheet, table by table, in the order the sheet prints them.

Each table reads row for row like the sheet; the quoted words are the sheet's own. The rules
read every number from here at the time of use (``tests/.../test_tables_drive_play.py``).
Numbers the sheet does not print live in ``rules.PARAMETERS``. The god pack, leader actions
and personal combat tables are in ``gods_tables.py`` and ``duel_tables.py``.
"""

from __future__ import annotations

from rules_core.tables import Band, GridTable, ScoreTable

# The cell readers live in the core; the rules read them here beside the tables.
from rules_core.tables import number as number
from rules_core.tables import whole as whole

# -- "Movement" --------------------------------------------------------------------------------
# "1 AvD + 1 optional D6 x inches."
MOVE = GridTable(
    "Movement",
    ("avd", "optional_d6", "sheet"),
    {
        "move": (1, 1, "1 AvD + 1 optional D6 x inches"),
        # "Rout, retire, pursue: Unformed. Roll max dice."
        "fast": (1, 1, "Rout, retire, pursue: Unformed. Roll max dice."),
    },
)
ENEMY_STOP = 2.0  # "Move full distance except stop at 2" from enemy to front."
LEADER_GROUP = 2.0  # "Units within 2" of leader and moving in the same direction move on same dice"

# "Fatigue: Formed units 1 DP each time 5 or 6 is thrown" (the first joker: "on 4-6").
FATIGUE = ScoreTable("Fatigue", (Band(1, 4, "none", "no DP"), Band(5, 6, "dp", "1 DP")))
FATIGUE_RAIN = ScoreTable(
    "Fatigue in heavy rain", (Band(1, 3, "none", "no DP"), Band(4, 6, "dp", "1 DP"))
)
FATIGUE_DPS = 1  # "1 DP each time"

# -- "Manoeuvre" -------------------------------------------------------------------------------
# Columns: share of a move it takes, unformed afterwards, grades allowed, shift in inches, sheet.
MANOEUVRES = GridTable(
    "Manoeuvre",
    ("moves", "unformed", "grades", "shift", "sheet"),
    {
        "change_direction": (1.0, True, "ABCD", None, "Change Direction: become unformed. Move stands independently into new position. May re-form next turn"),
        "about_face": (0.5, False, "ABCD", None, "About Face: ½ move. Turns to the flank are not allowed."),
        "side_step": (1.0, False, "AB", 2.0, "Side-step/step back/step forward (A & B Grade only). 1 move. Shift up to 2\". No dice required, no DPs."),
        "embark": (0.5, True, "ABCD", None, "Embark/Disembark: ½ move. Become unformed"),
        "form_up": (1.0, False, "ABCD", None, "Form up Unformed. 1 move unless in combat."),
        "interpenetration": (0.0, True, "ABCD", None, "Interpenetration: Both units become unformed."),
    },
)  # fmt: skip

# -- "Rest and Reform": "Remain stationary to remove DPs as follows" ---------------------------
# Columns: DPs removed, must not be in combat, must be beyond this many inches of all enemy.
REST = GridTable(
    "Rest and reform",
    ("dps", "not_in_combat", "beyond", "sheet"),
    {
        "A": (1, True, None, "A & B Grade: 1 per turn if not in combat"),
        "B": (1, True, None, "A & B Grade: 1 per turn if not in combat"),
        "C": (1, True, 2.0, 'C Grade: 1 per turn if beyond 2" of all enemy'),
        "D": (1, True, 8.0, 'D Grade: 1 per turn if beyond 8" of all enemy'),
    },
)

# -- "Missile Exchange" ------------------------------------------------------------------------
MISSILE = GridTable(
    "Missile exchange",
    ("value", "sheet"),
    {
        "range": (2.0, 'Range 2".'),
        "dice_per_stand": (2, "Roll 2 D6 for each stand shooting."),
        "halved": (0.5, "½ dice (round up) if target is a retinue or in cover."),
        "hit": (6, "6 = Hit."),
    },
)
MISSILE_HIT_EFFECT = GridTable(
    "Missile hit",
    ("levels", "dps", "sheet"),
    {
        "above_present": (-1, 0, "Target drops 1 Aggression Level per hit if above Present."),
        "otherwise": (0, 1, "Otherwise 1 DP per hit."),
    },
)

# -- "Charge Test" -----------------------------------------------------------------------------
CHARGE_TEST = ScoreTable(
    "Charge test",
    (Band(None, 3, "fail", "fail: remain stationary"), Band(4, None, "charge", "4-6 = charge")),
)
# Columns: modifier, sheet.
CHARGE_MODIFIERS = GridTable(
    "Charge test modifiers",
    ("modifier", "sheet"),
    {
        "retinue_with_leader": (1, "+1 if retinue with leader present"),
        "ready_for_battle": (1, "+1 if Ready for Battle"),
        "friend_charging": (1, '+1 friendly unit charging within 2"'),
        "unformed_or_dps": (-1, "-1 if unformed or 2+ DPs"),
        "a_grade": (1, "+1 if A Grade"),
        "d_grade": (-1, "-1 if D Grade"),
        "battle_standard": (1, '+1 if Battle Standard within 2"'),
    },
)
CHARGE_DPS_THRESHOLD = 2  # "-1 if unformed or 2+ DPs"
CHARGE_FRIEND_RANGE = 2.0  # "friendly unit charging within 2""
STANDARD_RANGE = 2.0  # "Battle Standard within 2""
FAILED_CHARGE_DPS = 1  # "1 DP if failed attempt to charge."

# -- "Risk to Leader": "1 D6 if missile hit or engaged in combat. '1' roll again" -------------
RISK_TO_LEADER = ScoreTable(
    "Risk to leader", (Band(1, 1, "hit", "1: roll again"), Band(2, 6, "safe", "no hit"))
)
LEADER_HIT = ScoreTable(
    "Leader hit",
    (
        Band(1, 1, "killed", "1 = killed"),
        Band(2, 3, "severe", "2-3 severe wound lose 2 LP"),
        Band(4, 6, "light", "4-6 light wound lose 1 LP"),
    ),
)
LEADER_HIT_LPS = {"killed": 0, "severe": -2, "light": -1}  # "0 LPs = Leader killed."

# -- "Combat": "Roll D6 *per engaged stand*" --------------------------------------------------
COMBAT_DICE = GridTable(
    "Combat dice per engaged stand",
    ("dice", "sheet"),
    {"A": (6, "A Grade 6"), "B": (4, "B Grade 4"), "C": (2, "C Grade 2"), "D": (1, "D Grade 1")},
)
# "Add or subtract dice *per engaged unit*". Columns: dice, charge combats only ("*"), sheet.
COMBAT_MODIFIERS = GridTable(
    "Combat dice modifiers",
    ("dice", "charge_only", "sheet"),
    {
        "blood_lust": (2, False, "+2 Blood Lust"),
        "ready_for_battle": (1, False, "+1 Ready for Battle"),
        "shaken": (-2, False, "-2 Shaken"),
        "flank_stand": (2, False, "+2 Each unengaged friendly stand on the flank"),
        "charged": (1, True, "+1 Charged this turn*"),
        "following_up": (1, False, "+1 Following up opponent that fell back"),
        "champion_or_standard": (1, False, "+1 Heroic champion or battle standard attached"),
        "dps": (-1, True, "-1 Each DP on every engaged unit*"),
    },
)
COMBAT_MIN_DICE = 1  # "Always roll at least 1 die."
COMBAT_HITS = GridTable(
    "Combat hits",
    ("lowest", "sheet"),
    {
        "unformed": (6, "6 = hit if unformed"),
        "from_behind": (6, "charged from behind flank/rear or fighting to flank/rear only"),
        "advantage_of_ground": (6, "vs advantage of ground"),
        "other": (5, "5-6 = hit in other circumstances."),
    },
)
LEADER_HITS = 1  # "Automatic hit if a leader is fighting in the combat."

# -- "Combat Results": "Compare difference in hits" ------------------------------------------
COMBAT_RESULTS = ScoreTable(
    "Combat results",
    (
        Band(5, None, "victory", "5+ Victory. Raise two aggression levels, pursue/follow-up"),
        Band(2, 4, "success", "+2/4 Success: Raise one aggression level, pursue/follow-up"),
        Band(
            -1,
            1,
            "inconclusive",
            "+1/-1 Inconclusive. Each take 1 DP. Refight as non-charge combat.",
        ),
        Band(
            -4,
            -2,
            "set_back",
            "-2/-4 Set-Back. Retire if previously shaken otherwise drop 1 Aggression Level and fall-back.",
        ),
        Band(
            None,
            -5,
            "defeat",
            "5- Defeat. Break if previously shaken. Otherwise drop 1 Aggression level, take 1 DP and retire if charge combat, fall-back if not.",
        ),
    ),
)
# Columns: levels, DPs, move; then the same if previously shaken (levels, DPs, move); the move
# of a charge combat where it differs; "" is no move.
RESULT_EFFECTS = GridTable(
    "Combat result effects",
    ("levels", "dps", "move", "shaken_levels", "shaken_dps", "shaken_move", "charge_move"),
    {
        "victory": (2, 0, "pursue", 2, 0, "pursue", "pursue"),
        "success": (1, 0, "pursue", 1, 0, "pursue", "pursue"),
        "inconclusive": (0, 1, "", 0, 1, "", ""),
        "set_back": (-1, 0, "fall_back", 0, 0, "retire", "fall_back"),
        "defeat": (-1, 1, "fall_back", 0, 0, "break", "retire"),
    },
)
INCONCLUSIVE_SEPARATE = 2.0  # "Second inconclusive each take 1 DP and separate combatants by 2"."
INCONCLUSIVE_ROUNDS = 2  # the second inconclusive round separates

# -- "Movement after Combat": "Loosing units move first." -------------------------------------
AFTER_COMBAT = GridTable(
    "Movement after combat",
    ("dps_if_unable", "sheet"),
    {
        "follow_up": (0, "Follow-up. Move forward to remain in contact with opponent who fell back. Fight another round of combat next turn."),
        "fall_back": (1, "Fall-back. Move back 1 base depth facing enemy. Units unable to fall-back remain in place and receive 1 DP."),
        "retire": (1, "Retire. Full unformed move away from the enemy. Units unable to retire remain in place and receive 1 DP."),
        "break": (0, "Break. Full unformed move away from the enemy until they have outdistanced pursuit at which point the broken unit is eliminated. Units unable to move surrender to any enemy within 2\"."),
        "pursue": (0, "Pursue. Full unformed move, in an attempt to remain in contact with opponent who broke or retired."),
    },
)  # fmt: skip
FREE_HACK = ScoreTable(
    "Free hack",
    (Band(1, 2, "miss", "no casualty"), Band(3, 6, "casualty", "a casualty for every 3+")),
)
FREE_HACK_DICE_PER_STAND = 1  # "rolling one die per engaged stand"
SURRENDER_RANGE = 2.0  # "Units unable to move surrender to any enemy within 2"."

# -- "Control Test": "If >2" from leader or to cease pursuit." --------------------------------
CONTROL_RANGE = 2.0
CONTROL_MODIFIERS = GridTable(
    "Control test modifiers",
    ("modifier", "sheet"),
    {
        "above_present": (1, "+1 each aggression level above Present"),
        "shaken": (-1, "-1 if Shaken"),
        "a_grade": (1, "+/- 1 optional if A Grade"),
    },
)
CONTROL_TEST = ScoreTable(
    "Control test",
    (
        Band(None, 2, "halt", "2- Shaken Retire. Others Halt. Cease pursuit."),
        Band(3, 4, "free", "3-4 Act as the player wishes. Cease pursuit."),
        Band(5, None, "blood_lust", "5+ Blood Lust advance towards the nearest enemy and charge if they come within 2\". Otherwise repeat last move. Pursuit continues."),
    ),
)  # fmt: skip

# -- "Aggression Levels" ----------------------------------------------------------------------
# Columns: levels, "one level only" (*), reach in inches (None: not by distance), sheet.
AGGRESSION_CAUSES = GridTable(
    "Aggression level causes",
    ("levels", "once", "within", "sheet"),
    {
        "friend_lost": (-1, True, 2.0, '-1 Equal or higher grade unit broken/destroyed in 2"*'),
        "leader_killed": (-1, False, None, "-1 Leader killed (applies only to his contingent.)"),
        "standard_retiring": (-1, False, None, "-1 Battle Standard routing or retiring"),
        "enemy_lost": (1, True, 2.0, '+1 Enemy unit broken/destroyed/retiring within 2"*'),
        "won_personal_combat": (1, False, None, "+1 Win personal combat"),
    },
)

# -- "Disorder Points (DPs)" -------------------------------------------------------------------
DP_CAUSES = GridTable(
    "Causes of DPs",
    ("dps", "within", "sheet"),
    {
        "friend_retiring": (1, 2.0, "1 DP a friendly equal or higher grade unit retiring in 2\""),
        "missile_hit": (1, None, "1 DP for each Hit from missiles for units with Normal or lower Aggression levels"),
        "enemy_advancing": (1, 8.0, "1 DP for each unit with enemy advancing towards them in 8\" before they have signalled the advance"),
        "failed_charge": (1, None, "1 DP if failed attempt to charge."),
        "leader_lost_duel": (1, None, "1 DP if their leader lost personal combat"),
    },
)  # fmt: skip
FOUR_DP_LIMIT = 4  # "When a unit has 4 DPs any more due to combat, shooting or morale ..."
FOUR_DP_CAUSES = ("combat", "shooting", "morale")  # "(but not fatigue or manoeuvre)"

# -- "Turn Sequence": "Determine Initiative" ---------------------------------------------------
INITIATIVE_BONUS = 1  # "+1 to die roll if one army's commander in chief has more LPs"

ALL = (
    MOVE,
    FATIGUE,
    FATIGUE_RAIN,
    MANOEUVRES,
    REST,
    MISSILE,
    MISSILE_HIT_EFFECT,
    CHARGE_TEST,
    CHARGE_MODIFIERS,
    RISK_TO_LEADER,
    LEADER_HIT,
    COMBAT_DICE,
    COMBAT_MODIFIERS,
    COMBAT_HITS,
    COMBAT_RESULTS,
    RESULT_EFFECTS,
    AFTER_COMBAT,
    FREE_HACK,
    CONTROL_MODIFIERS,
    CONTROL_TEST,
    AGGRESSION_CAUSES,
    DP_CAUSES,
)
