"""The Tree of Battles quick-reference sheet, table by table, in the order the sheet prints them.

Each table reads row for row like the sheet; the words in quotes are the sheet's own. Numbers
a campaign may change live in ``rules.PARAMETERS``; these tables are the printed values.
"""

from __future__ import annotations

from rules_core.tables import Band, GridTable, ScoreTable

# -- Rally phase: "Remove DPs" --------------------------------------------------------------
# Columns: DPs removed, and the conditions that must all hold.
REMOVE_DPS = GridTable(
    "Remove DPs",
    ("dps", "stationary", "not_in_combat", "no_shooting_dps", "not_shot_at"),
    {
        "A": (1, True, True, False, False),  # "A/B Grade: 1 if stationary and not in combat"
        "B": (1, True, True, False, False),
        "C": (1, True, True, True, False),  # "... not in combat and no shooting DPs"
        "D": (1, True, True, False, True),  # "1 if stationary*, not in combat and not shot at"
    },
)

# -- "Cause of DPs" -------------------------------------------------------------------------
CAUSES_OF_DPS = GridTable(
    "Cause of DPs",
    ("dps", "sheet"),
    {
        "higher_grade_retires": (1, "Non chivalrous and higher grade retires in 3 SF"),
        "routs_or_destroyed": (2, "Non-chivalrous and equal/higher grade routs or destroyed within 3 SF"),
        "routs_or_destroyed_chivalrous": (1, "1 DP if chivalrous"),
        "difficult_terrain": (1, "Non-skirmish array moving in difficult terrain"),
        "baggage_looted": (2, "Baggage train looted"),
        "noble_lost": (2, "Noble killed/routed in 6 SF"),
        "foot_charged_by_mounted": (2, "Foot who charged contacted by mounted"),
        "flank_or_rear": (2, "Charged from behind the flank or rear"),
    },
)  # fmt: skip

# -- "Risk to Leader": "Roll one D6: 1= Hit. If 'Hit' roll again" -------------------------------
RISK_TO_LEADER = ScoreTable(
    "Risk to leader",
    (
        Band(1, 1, "hit", "Hit"),
        Band(2, 6, "safe", "no hit"),
    ),
)
LEADER_HIT = ScoreTable(
    "Leader hit",
    (
        Band(1, 1, "killed", "Killed"),
        Band(2, 3, "minus_2", "-2 CPs"),
        Band(4, 5, "minus_1", "-1 CP"),
        Band(6, 6, "no_effect", "No effect"),
    ),
)
LEADER_HIT_CPS = {"killed": 0, "minus_2": -2, "minus_1": -1, "no_effect": 0}

# -- "Move Distances" ------------------------------------------------------------------------
# Columns: foot SF, mounted SF, AvD dice (each x half an SF), notes.
MOVE_DISTANCES = GridTable(
    "Move distances",
    ("foot", "mounted", "dice", "sheet"),
    {
        "march": (4.0, 6.0, 0, "Must begin and end beyond 6 SF of enemy"),
        "normal": (None, None, 2, "1 or 2 AvD x ½ SF. Mounted + 1 optional D6"),
        "skirmish_array": (0.5, 0.5, 0, "Optional +1/2 SF for each die rolled"),
        "fast": (None, None, 2, "Evade, rout, retire and pursuit - use max dice and all optional additions"),
        "detached_commander": (6.0, 6.0, 0, "Detached Commanders/Heralds: up to 6 SF"),
        "rough_terrain": (-0.5, -0.5, 0, "- ½ SF for each die. Mounted may not enter dense woods"),
        "road": (5.0, 5.0, 0, "up to 5 SF if in column and begins and ends on a road"),
    },
)  # fmt: skip
MOVE_DIE_SF = 0.5  # "AvD x ½ SF"
HALT_SF = 1.0  # tactical movement: "Must halt at 1 SF from enemy to their front"
MARCH_CLEAR_SF = 6.0  # march: "Must begin and end beyond 6 SF of enemy"
ROUGH_TERRAIN_DP = 1  # "1 DP unless in column, skirmish, or disarray."
FULL_HARNESS_DIE = 4  # "+1 DP if move die = '4' for foot in FH"
FULL_HARNESS_DP = 1  # the "+1 DP" of the same line

# -- "Command Actions" -----------------------------------------------------------------------
# Columns: CPs, reach in SF, what it does.
COMMAND_ACTIONS = GridTable(
    "Command actions",
    ("cps", "reach", "sheet"),
    {
        "move": (1, 6.0, "Move (1 CP) up to 6 SF to join or influence another contingent."),
        "steady": (2, 1.0, "Steady (2 CPs). Remove 2 DPs from a contingent within 1 SF."),
        "control": (2, 1.0, "Control (2 CPs). Influence a contingent within 1 SF which has to take a control test."),
        "new_orders": (2, None, "Issue or listen to new orders (2 CPs)"),
    },
)  # fmt: skip
STEADY_DPS = 2

# -- "Control Test" --------------------------------------------------------------------------
CONTROL_TRIGGERS = GridTable(
    "Control test: take if",
    ("sheet",),
    {
        "out_of_command": ("beyond 1 SF of captain or 2 SF of marshal unless part of a continuous line connected to the leader's stand",),
        "stop_pursuit": ("in pursuit or looting and wishing to stop.",),
        "shooting": ("1 DP per stand in the front rank or C/D Grade shot at by artillery or handguns",),
        "chivalrous": ("chivalrous within 6 SF of enemy wishing to do other than advance at full speed",),
    },
)  # fmt: skip
COMMAND_RANGE = {"captain": 1.0, "marshal": 2.0}
CHIVALROUS_RANGE = 6.0
CONTROL_MODIFIERS = GridTable(
    "Control test modifiers",
    ("value", "sheet"),
    {
        "chivalrous": (1, "+1 Chivalrous"),
        "d_grade": (-1, "-1 D Grade or Mercenary"),
        "mercenary": (-1, "-1 D Grade or Mercenary"),
        "a_grade": ("+/-1", "+/-1 if non-chivalrous A Grade"),
        "leader": ("+/-1", "+/-1 leader exerting control in 1 SF"),
        "rear_support": ("+/-1", "+/-1 friendly troops to the rear if testing for shooting"),
    },
)
CONTROL_TEST = ScoreTable(
    "Control test",
    (
        Band(None, 1, "halt", "Retire if testing for shooting. Otherwise halt. Non mercenaries test for treachery if in a civil war."),
        Band(2, 2, "halt_2", "D grade retire if shot at by artillery; otherwise halt"),
        Band(3, 4, "free", "Act as player wishes"),
        Band(5, 5, "advance", "Chivalrous advance to and charge nearest A grade. D grade advance to nearest enemy; otherwise repeat last move."),
        Band(6, None, "advance_max", "Chivalrous advance at max speed and charge nearest A grade. D grade, and if testing for shooting, advance to nearest enemy; otherwise repeat last move."),
    ),
)  # fmt: skip
CONTROL_PURSUIT = "Continue pursuit/looting on all results except 3-4"

# -- "Manoeuvre" -----------------------------------------------------------------------------
# Columns: share of the move used, DPs, within SF of enemy (None: anywhere), who is spared.
MANOEUVRES = GridTable(
    "Manoeuvre",
    ("move", "dps", "enemy_within", "spared", "sheet"),
    {
        "wheel": (0.0, 1, 6.0, "column,skirmish,disarray", "Wheel: 1 DP in 6 SF of enemy. No penalty if column, skirmish or disarray."),
        "rally": (0.5, 0, None, "", "Rally from disarray: ½ move, once cause ceased."),
        "change_array": (0.5, 1, 6.0, "", "Change of array: ½ move &1 DP in 6 SF of enemy."),
        "exchange_ranks": (0.5, 1, 1.0, "", "Exchange ranks: ½ move & 1 DP in 1 SF of enemy."),
        "minor_obstacle": (0.0, 1, None, "skirmish,disarray", "Cross minor obstacle 1 DP unless skirmish or disarray."),
        "defensive_obstacle": (0.0, 1, None, "foot", "Defensive obstacles +1 DP to all mounted troops."),
        "major_obstacle": (0.0, 1, None, "", "Cross major obstacle 1 DP, or 2 DPs if in full harness."),
        "about_face": (0.5, 1, 6.0, "A,B", "About face: ½ move. C & D Grade 1 DP in 6 SF of enemy."),
        "change_frontage": (0.5, 1, None, "A,B", "Change frontage: ½ move and 1 DP for C or D Grade.."),
        "mount": (0.0, 1, None, "", "Mount/Dismount: 1 DP for all troops."),
        "dismount": (0.0, 1, None, "", "Mount/Dismount: 1 DP for all troops."),
        "passage_of_lines": (0.0, 1, None, "", "Passage of Lines: No penalty if one stationary, and one skirmish. Otherwise 1 DP each, +1 DP if interpenetrated by mounted."),
        "pass_gap": (0.5, 1, None, "", "Pass a gap: 1 DP and reduces foot move by ½."),
    },
)  # fmt: skip
MAJOR_OBSTACLE_FULL_HARNESS_DPS = 2
PASSAGE_BY_MOUNTED_EXTRA_DP = 1

# -- "Shooting": read the split header as Maximum, Effective, Close range ---------------------
# None is the sheet's "-" or "_" (no such band). The artillery maximum "42 SF" is as printed;
# the campaign parameter ``artillery_maximum`` may correct it.
RANGES = GridTable(
    "Shooting ranges",
    ("maximum", "effective", "close"),
    {
        "artillery": (42.0, 6.0, 3.0),
        "archers": (6.0, None, 2.0),
        "crossbowmen": (6.0, None, 3.0),
        "hand_gunners": (2.0, None, 1.0),
        "skirmishers": (1.0, None, None),
    },
)
SHOOTING_HIT = ScoreTable(
    "Shooting",
    (
        Band(None, 4, "miss", "no effect"),
        Band(5, None, "hit", "D6 roll 5-6 = 1 DP"),
    ),
)
SHOOTING_MODIFIERS = GridTable(
    "Shooting modifiers",
    ("value", "sheet"),
    {
        "armoured_foot": (-1, "-1 archer/skirmisher shooting at armoured or full harness foot"),
        "foot_skirmishers": (-1, "-1 shooting at foot skirmishers, or at a target in cover"),
        "cover": (-1, "-1 shooting at foot skirmishers, or at a target in cover"),
        "close": (1, "+1 close range, except archers shooting at targets in full harness."),
        "archers_at_mounted": (1, "+1 archers shooting at non-skirmishing mounted troops"),
    },
)
HALVE_DICE = ("1 DP per stand", "in disarray", "understrength")

ARTILLERY_MODIFIERS = GridTable(
    "Artillery modifiers",
    ("value", "sheet"),
    {
        "same_target": (1, "Same target and range +1"),
        "new_target": (-1, "New target -1"),
        "column_or_enfilade": (1, "Column or enfilade +1"),
        "each_dp": (-1, "Each DP -1"),
        "beyond_effective": (-1, "Beyond effective range -1"),
        "fortification": (-1, "Target in fortification -1"),
    },
)
# A modified score below the printed bands has no effect (the sheet lists only the DPs).
ARTILLERY_EFFECTIVE = ScoreTable(
    "Artillery at effective range and beyond",
    (
        Band(None, 3, "none", "no effect"),
        Band(4, 5, "1", "4-5 = 1DP"),
        Band(6, None, "2", "6 = 2 DPs"),
    ),
)
ARTILLERY_CLOSE = ScoreTable(
    "Artillery at close range",
    (
        Band(None, 0, "none", "no effect"),
        Band(1, 3, "1", "1-3 = 1 DP"),
        Band(4, None, "2", "4+=2 DPs"),
    ),
)

# -- "Charge Restrictions" and "Charge Responses" ---------------------------------------------
NO_CHARGE_ARRAYS = ("column", "square", "skirmish")
NO_CHARGE_TYPES = ("artillery", "hand_gunners", "crossbowmen")
LIMITED_CHARGERS = ("archers", "light_infantry", "light_horse")
CHARGE_RESTRICTIONS = GridTable(
    "Charge restrictions",
    ("sheet",),
    {
        "may_not": ("May not charge if column, square, skirmish, artillery, hand gunners, crossbowmen or halt reaction",),
        "limited": ("Unless in pursuit; archers, light infantry and light horse may only charge enemy in skirmish array, disarray, or an exposed flank or rear.",),
    },
)  # fmt: skip
# Rows: who responds. Columns: responses allowed, and when the first listed is allowed.
CHARGE_RESPONSES = GridTable(
    "Charge responses",
    ("responses", "sheet"),
    {
        "foot_skirmishers": (["stand", "evade"], "may stand if in, or separated by difficult terrain or obstacle; or charged by other skirmishers only. Otherwise, must evade if charged."),
        "artillery": (["stand", "evade"], "Foot skirmishers and artillery gunners may stand if ..."),
        "light_horse": (["counter_charge", "evade"], "may counter-charge skirmishers or mounted troops, otherwise evade."),
        "mounted_skirmishers": (["counter_charge", "evade"], "Light horse and mounted skirmishers may counter-charge ..."),
        "men_at_arms": (["counter_charge", "stand"], "Men at Arms may counter-charge."),
        "others": (["stand"], "Others must stand to receive."),
        "in_melee": (["stand"], "Troops in mêlée from a previous turn must also stand to receive."),
        "disarray": (["break"], "Contingents in disarray: skirmishers, light horse and D grade break. Others respond normally."),
    },
)  # fmt: skip

# -- "Combat Results", by the difference between the two scores --------------------------------
COMBAT_RESULTS = ScoreTable(
    "Combat results",
    (
        Band(5, None, "victory", "5+ Victory. 0 DPs. Non-chivalrous A and B Grade foot who did not charge or c-charge may halt. Otherwise pursue."),
        Band(2, 4, "success", "+2/4 Success. 1 DP"),
        Band(-1, 1, "inconclusive", "+1/-1 Inconclusive. 2 DPs if mounted charged archers, 1 DP otherwise."),
        Band(-4, -2, "set_back", "-2/-4 Set-Back. 2 DPs. Troops in disarray break"),
        Band(-6, -5, "defeat", "-5/-6 Defeat. 1 casualty. Troops in skirmish array or disarray break; others fall into disarray and retire."),
        Band(None, -7, "rout", "-7 or less Rout. 1 casualty and break."),
    ),
)  # fmt: skip
# Columns: DPs, casualties the result gives.
COMBAT_LOSSES = GridTable(
    "Combat losses",
    ("dps", "casualties"),
    {
        "victory": (0, 0),
        "success": (1, 0),
        "inconclusive": (1, 0),  # 2 if mounted charged archers
        "set_back": (2, 0),
        "defeat": (0, 1),
        "rout": (0, 1),
    },
)
INCONCLUSIVE_MOUNTED_ON_ARCHERS_DPS = 2

# -- "Combat" factors; charge-only ones are the sheet's starred rows -------------------------
# Columns: value, charge combats only ("*"), the sheet's words.
COMBAT_FACTORS = GridTable(
    "Combat factors",
    ("value", "charge_only", "sheet"),
    {
        "combat_factor": ("profile", False, "+ Combat Factor"),
        "grade_ab": (1, False, "+1 A or B Grade"),
        "grade_d": (-1, False, "-1 D Grade"),
        "ground": (1, False, "+1 Advantage of Ground"),
        "fortification": (1, False, "+1 Defending Fortification"),
        "deeper": (1, False, "+1 Deeper formation"),
        "pursuing": (1, False, "+1 Pursuing, +2 if mounted pursuing"),
        "pursuing_mounted": (2, False, "+1 Pursuing, +2 if mounted pursuing"),
        "reinforced": (1, False, "+1 Mêlée reinforced this turn"),
        "armour": (1, False, "+1 Heavier armour in mêlée only"),
        "noble": (1, False, "+1 Noble fighting, +2 if 4 CPs or more."),
        "noble_4cp": (2, False, "+1 Noble fighting, +2 if 4 CPs or more."),
        "outnumbered": (-1, False, "-1 If outnumbered"),
        "outnumbered_2": (-2, False, "-2 Outnumbered at least 2:1"),
        "outnumbered_3": (-3, False, "-3 Outnumbered 3:1+"),
        "array": (-2, False, "-2 in column, skirmish order or disarray"),
        "dp": (-1, True, "-1 each DP (max -5)*"),
        "casualty": (-1, False, "-1 each casualty"),
        "chivalrous_charge": (1, False, "+1 Mounted chivalrous charges"),
        "pikes": (3, True, "+3 Pikemen facing in good array*"),
        "pikes_mounted": (4, True, "+4 if facing mounted*"),
    },
)
MAX_DP_FACTOR = 5
NOBLE_MANY_CPS = 4  # "+2 if 4 CPs or more": the CPs from which a noble reads noble_4cp

# -- "Movement after Combat" -----------------------------------------------------------------
MOVES_AFTER_COMBAT = GridTable(
    "Movement after combat",
    ("sheet",),
    {
        "halt": ("Remain in place. May exchange ranks.",),
        "fall_back": ("Move back base depth facing the enemy. If unable to, 1 DP and remain in place.",),
        "follow_up": ("Move forward to remain in combat with opponent. May exchange ranks.",),
        "retire": ("Move back a full fast move in disarray. May stop short if separated from the chargers by friendly troops or terrain. If unable to retire, remain in place and receive 1 DP. Break if caught by pursuers and the pursuers get a free hack",),
        "break": ("Full fast rout move, in disarray, until destroyed or off table. If unable to move, remain in place and receive 1 casualty. Take one casualty for each turn of rout after the first",),
        "pursue": ("Full fast move, in disarray, in an attempt to remain in contact with opponent. Pursuers encountering new enemy automatically come into combat with them.",),
    },
)  # fmt: skip
BLOCKED_RETIRE_DPS = 1
BLOCKED_ROUT_CASUALTIES = 1
