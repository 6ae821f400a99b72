"""The Impetus 2 quick-reference sheet's combat tables, in the order the sheet prints them.

Each table reads row for row like the sheet; the quoted words are the sheet's own, and every
row carries them in its ``sheet`` cell so a ruling can show the row that applied. The rules
(``discipline.py``, ``shooting.py``, ``melee.py``, ``cohesion.py``, ``reactions.py``) read every
number from here at the time of use. Numbers the sheet does not print (the discipline test's
roll and target, the cohesion test's critical number, fatigue) live in ``COMBAT_PARAMETERS``
below, which ``rules.PARAMETERS`` takes in so a campaign can change them.

A "-" on the sheet is ``None`` here (not allowed / no distance). "+1/+2" for an attached
general is ``GENERAL``: the general's own column of the generals' table gives the number.
"""

from __future__ import annotations

import re

from rules_core.codec import Json
from rules_core.geometry import within
from rules_core.plugin import Parameter
from rules_core.tables import Band, GridTable, ScoreTable

GENERAL = "general"  # a modifier read from the attached general's column of the generals' table

# -- "DISCIPLINE TEST" ---------------------------------------------------------------------
# Columns: the test the row belongs to ("generic" rows apply to every test), the modifier to
# the test, the sheet's words. "PLUS Specific Modifiers (Except for Disengagement)": a
# disengagement takes the generic modifiers only. Rows whose number depends on a count
# ("For each Move after the 2nd (cumulative)") give the number for one.
DT_KINDS = (
    "second_move",
    "frenzy",
    "reaction",
    "defensive_fire",
    "close_ranks",
    "countercharge",
    "rally",
    "evasion",
    "disengagement",
    "about_face",
    "general_lost",
)
DT_MODIFIERS = GridTable(
    "Discipline test modifiers",
    ("test", "modifier", "sheet"),
    {
        "general_attached": ("generic", GENERAL, "General attached to Unit/Group +1/+2"),
        "outside_radius": ("generic", -1, "Outside Command Radius (except S) -1"),
        "second_move.each_after_second": ("second_move", -1, "Second or more moves: For each Move after the 2nd (cumulative) -1"),
        "frenzy.fragmented": ("frenzy", -1, "Frenzy: Group charging is Fragmented -1"),
        "reaction.disordered": ("reaction", -1, "Opportunity (Reaction) Charge/Fire: Disordered -1"),
        "defensive_fire.disordered": ("defensive_fire", -1, "Defensive Fire: Disordered -1"),
        "defensive_fire.t": ("defensive_fire", 2, "Defensive Fire: Unit firing is T +2"),
        "defensive_fire.mounted": ("defensive_fire", -1, "Defensive Fire: Unit firing is Mounted -1"),
        "close_ranks.multi_move": ("close_ranks", 1, "Close Ranks: Enemy charged with more than 1 MOVE +1"),
        "close_ranks.disordered": ("close_ranks", -1, "Close Ranks: Disordered -1"),
        "close_ranks.fp": ("close_ranks", 1, "Close Ranks: Unit is FP +1"),
        "countercharge.cm_cl": ("countercharge", 1, "Countercharge: Charged by CM or CL +1"),
        "countercharge.disordered": ("countercharge", -1, "Countercharge: Disordered -1"),
        "rally.mounted": ("rally", 2, "Rally: Unit is Mounted +2"),
        "rally.outside_radius": ("rally", -1, "Rally: Outside Command Radius (except S) -1"),
        "evasion.general": ("evasion", GENERAL, "Evasion: General attached to Unit +1/+2"),
        "evasion.disordered": ("evasion", -1, "Evasion: Disordered -1"),
        "evasion.s_cl": ("evasion", 1, "Evasion: Unit is S or CL +1"),
        "evasion.from_foot": ("evasion", 1, "Evasion: S or Mounted evading Foot +1"),
        "evasion.each_after_first": ("evasion", -1, "Evasion: For each Evade after the 1st (cumulative) -1"),
    },
)  # fmt: skip
FIRST_PENALISED_MOVE = 3  # "For each Move after the 2 nd": the third move is the first at -1
FIRST_PENALISED_EVADE = 2  # "For each Evade after the 1 st": the second evade is at -1
# The published test (not on the sheet; COMBAT_PARAMETERS): 1D6 against the unit's current
# VBU plus the modifiers; at or under passes.

# -- "SHOOTING TABLE": "Nr DICE FOR" -------------------------------------------------------
# The table's number is added to the shooter's VBU (one die per point of VBU). Columns: the
# range bands 4H (Short), 8H (Long) against Foot and Mounted, 12H (Extreme) against Any.
RANGE_BANDS = (("short", 4.0, "4H (Short)"), ("long", 8.0, "8H (Long)"), ("extreme", 12.0, "12H (Extr.)"))  # fmt: skip
SHOOTING = GridTable(
    "Shooting table",
    ("short_foot", "short_mounted", "long_foot", "long_mounted", "extreme_any", "sheet"),
    {
        "long_bow.A": (1, 2, 0, 1, None, "LONG BOW A"),
        "long_bow.B": (0, 1, -1, 0, None, "LONG BOW B"),
        "short_bow.A": (0, 1, -1, 0, None, "SHORT BOW A"),
        "short_bow.B": (-1, 0, -3, -2, None, "SHORT BOW B"),
        "composite_bow.A": (1, 2, 0, 1, None, "COMPOSITE BOW A"),
        "composite_bow.B": (0, 1, -1, 0, None, "COMPOSITE BOW B"),
        "composite_bow.C": (-2, -1, -3, -2, None, "COMPOSITE BOW C"),
        "crossbow.A": (1, 2, -1, 0, None, "CROSSBOWS A"),
        "crossbow.B": (0, 1, -2, -1, None, "CROSSBOWS B"),
        "handgun": (-1, 0, None, None, None, "HANDGUN"),
        "arquebus.A": (1, 2, -1, 0, None, "ARQUEBUSIERS A"),
        "arquebus.B": (0, 1, -2, -1, None, "ARQUEBUSIERS B"),
        "musket": (1, 2, 0, 1, None, "MUSKET"),
        "javelin": (0, 1, None, None, None, "JAVELIN"),
        "sling": (0, 1, -1, 0, None, "SLING"),
        "artillery.A": (4, 4, 3, 3, 2, "ARTILLERY A"),
        "artillery.B": (3, 3, 2, 2, 0, "ARTILLERY B"),
        "artillery.C": (3, 3, 2, 2, 1, "ARTILLERY C"),
        "various": (-1, -1, None, None, None, "VARIOUS WEAPONS"),
    },
)
WEAPONS = tuple(sorted({row.split(".")[0] for row in SHOOTING.rows}))

# -- "SITUATIONAL MODIFIERS - SHOOTING" (to the number of dice) -----------------------------
SHOOTING_MODIFIERS = GridTable(
    "Situational modifiers - shooting",
    ("dice", "sheet"),
    {
        "moved": (-1, "-1 each movement phase (except the first for CL or Foot with javelins)"),
        "disordered": (-1, "-1 Disordered"),
        "indirect": (-2, "-2 indirect shooting (except S)"),
        "light_target_far": (-2, "-2 firing at S, CL and ART at Long or Extreme range"),
        "light_target_short": (-1, "-1 firing at S, CL and ART at Short range"),
        "cover": (-1, "-1 non-artillery shooting at Units on a Wood edge, BUA, behind Linear Obstacles, Pavise or at a W"),
        "evaders": (-1, "-1 firing at Evaders"),
        "fortified": (-2, "-2 non-artillery shooting at Units behind fortifications"),
        "artillery_fortified": (-1, "-1 Artillery shooting at Units behind fortifications"),
        "artillery_big_target": (2, "+2 Artillery shooting at Large Units or Groups in column or W"),
        "reaction": (-1, "-1 Shooting as Reaction Fire"),
    },
)  # fmt: skip
HALVE_FROM_SIDE = "- Halve dice if shooting from side or rear (except W)"
LIGHT_TARGETS = ("S", "CL", "ART")  # "firing at S, CL and ART"
FREE_FIRST_MOVE = ("CL",)  # "(except the first for CL or Foot with javelins)"

# -- "COHESION TEST - SHOOTING": modifiers to the critical number ---------------------------
COHESION_SHOOTING = GridTable(
    "Cohesion test - shooting",
    ("modifier", "sheet"),
    {
        "disordered": (-1, "-1 Disordered"),
        "general": (1, "+1 General attached"),
        "steady_target": (1, "+1 Target is FP, CP1, CGP, CGL, CF, W (except fire from Art)"),
        "short_light": (1, "+1 At Short Range fired by Short Bow, Composite Bow, Handgun, Javelin, Various"),
        "long_longbow": (1, "+1 At Long/Extreme Range fired by Long Bow"),
        "long_other": (2, "+2 At Long/Extreme Range (except fire from Art, LongBow)"),
        "defensive_guns": (-1, "-1 If shot at by Defensive fire using Handgun, Arquebus, Musket"),
    },
)  # fmt: skip
STEADY_TARGETS = ("FP", "CP1", "CGP", "CGL", "CF", "W")
SHORT_LIGHT_WEAPONS = ("short_bow", "composite_bow", "handgun", "javelin", "various")
GUNS = ("handgun", "arquebus", "musket")

# -- "MELEE" -----------------------------------------------------------------------------
# "IMPACT BONUS NULLIFIED": any row that holds leaves the charger no impetus bonus.
IMPACT_NULLIFIED = GridTable(
    "Impact bonus nullified",
    ("sheet",),
    {
        "exhausted": ("Charging unit is Exhausted",),
        "foot_v_mounted": ("Foot charging Mounted Troops",),
        "mounted_v_steady": ("Mounted charging W, EL, Camels or Foot with Pike, Long Spear, Polearm – Except EL and Camels charging Camels or EL charging EL",),
        "el_v_light": ("EL charging S or non impetuous FL",),
        "fortified": ("Charging troops in Fortifications or Fortified Baggage",),
        "rough": ("All, except FL, charging in Broken or Difficult Terrain",),
        "fl_rough_v_light": ("FL, in Broken or Difficult Terrain charging non impetuous FL or S",),
        "stakes": ("Mounted charging troops defended by stakes or pavise",),
    },
)  # fmt: skip
POLE_WEAPONS = ("pike", "long_spear", "polearm")  # "Pike, Long Spear, Polearm"
# "IMPACT BONUS REDUCED": columns: the most it may be ("Max+2"), or the change ("By -2").
IMPACT_REDUCED = GridTable(
    "Impact bonus reduced",
    ("max", "by", "sheet"),
    {
        "foot_v_pole": (2, None, "Max+2 Foot charging Pike, Long Spear, Polearm"),
        "cavalry_v_guard": (2, None, "Max+2 CP, CM, CL charging CGP, CGL, CF"),
        "not_fresh": (1, None, "Max+1 If no longer Fresh (except CP, CGP, CF, EL)"),
        "closed_ranks": (None, -2, "By -2 Closed Ranks FP, FL frontally charged by Mounted (not EL)"),
    },
)  # fmt: skip
GUARD_TYPES = ("CGP", "CGL", "CF")
REDUCED_CHARGERS = ("CP1", "CP2", "CM", "CL")  # "CP, CM, CL"
NOT_FRESH_EXCEPT = ("CP1", "CP2", "CGP", "CF", "EL")  # "(except CP, CGP, CF, EL)"

# "GENERAL MODIFIERS" (to the number of dice)
MELEE_MODIFIERS = GridTable(
    "Melee general modifiers",
    ("dice", "sheet"),
    {
        "disordered": (-1, "-1 Unit is Disordered"),
        "general": (1, "+1 General attached"),
        "supported_flank": (1, "+1 For each supported flank (with units it can form Group with, excepts S or Art)"),
        "better_discipline": (1, "+1 for each level of Better Discipline"),
        "rough": (-2, "-2 Mounted or Pikes in Difficult terrain or against a unit entirely in Difficult terrain"),
        "cgp_v_infantry": (1, "+1 CGP against Infantry"),
        "new_melee": (1, "+1 2nd and subsequent new melee or pursuit if not exhausted"),
    },
)  # fmt: skip
# "DEPTH Bonus (not if LU contacted to flank/rear or Pikes in Difficult Terrain)".
# Columns: dice, for each rear rank unit (pikes), sheet.
DEPTH = GridTable(
    "Depth bonus",
    ("dice", "per_rank", "sheet"),
    {
        "pikes_v_mounted": (2, True, "+2 Pikes vs Mounted for each rear rank unit"),
        "pikes_v_foot": (1, True, "+1 Pikes vs Foot for each rear rank unit"),
        "spears_v_mounted": (2, False, "+2 FP with Long spears/Polearm vs. Mounted"),
        "spears_v_foot": (1, False, "+1 FP with Long spears/Polearm vs. Foot"),
        "impetuous_foot": (1, False, "+1 Impetuous FP or FL vs Mounted or Foot"),
        "cp_v_foot": (2, False, "+2 CP vs Foot"),
    },
)  # fmt: skip
# "PILUM/PBW": dice when charging and when receiving a charge.
PILUM = GridTable(
    "Pilum/PBW",
    ("charging", "receiving", "sheet"),
    {
        "pilum": (2, 4, "+2 Pilum charging, +4 Pilum receiving charge"),
        "pbw": (3, 3, "+3 PBW charging, +3 PBW receiving charge"),
    },
)
PILUM_DISORDERED = (-1, "-1 Disordered")  # printed again under Pilum/PBW: the same -1 as above
SUPPORT_SHARE = 0.5  # "Supporting Units roll half dice"
HIT_FACE = 6  # hits, shooting and melee: "each 6 a hit" (RULESETS.md)
PAIR_FACE = 5  # "each pair of 5s a hit"

# -- "COHESION - MELEE": modifiers to the critical number --------------------------------
COHESION_MELEE = GridTable(
    "Cohesion - melee",
    ("modifier", "sheet"),
    {
        "disordered": (-1, "-1 Disordered"),
        "flank_rear": (-2, "-2 Unit attacked on Flank/Rear (Pike only in rear)"),
        "cavalry_v_fp": (-1, "-1 CP, CM, CL in Melee with FP"),
        "closed_ranks": (1, "+1 Infantry with Closed Ranks"),
        "general": (1, "+1 General attached"),
        "defending": (1, "+1 Defending River Bank, Village, Fortification or higher on hill"),
    },
)  # fmt: skip
CAVALRY_V_FP = ("CP1", "CP2", "CM", "CL")

# -- Retreat and "Pursuit / Extra Charge" by D6, in H ("-": no pursuit) ---------------------
RETREAT_PURSUIT = GridTable(
    "Retreat and pursuit",
    ("retreat_foot", "retreat_mounted", "retreat_cl", "pursuit_foot", "pursuit_mounted", "pursuit_cl"),
    {
        "1": (1, 1, 1, None, None, None),
        "2": (1, 1, 2, None, None, 1),
        "3": (1, 1, 2, None, 1, 1),
        "4": (1, 2, 2, 1, 1, 2),
        "5": (2, 2, 3, 1, 2, 2),
        "6": (2, 2, 3, 2, 2, 3),
    },
)  # fmt: skip
IMPETUOUS_REROLL = "Impetuous can Reroll if fail"  # a pursuit die that gives "-"

# -- "Risk for General" ------------------------------------------------------------------
# "if 6 on cohesion, roll again. Shooting kills with 6, melee with 5 or 6 if in melee (with a
# 6 his command tests)."
RISK_TRIGGER = 6  # the cohesion die that puts an attached general at risk
RISK_SHOOTING = ScoreTable(
    "Risk for general - shooting",
    (Band(1, 5, "safe", "safe"), Band(6, 6, "killed_command_tests", "killed (his command tests)")),
)  # fmt: skip
RISK_MELEE = ScoreTable(
    "Risk for general - melee",
    (
        Band(1, 4, "safe", "safe"),
        Band(5, 5, "killed", "killed"),
        Band(6, 6, "killed_command_tests", "killed (his command tests)"),
    ),
)
RISK_SHEET = (
    "Risk for General: if 6 on cohesion, roll again. Shooting kills with 6, melee with 5 or 6 "
    "if in melee (with a 6 his command tests)."
)

# -- What the sheet does not print (the published procedures; README_combat.md) ------------
TABLES = (
    DT_MODIFIERS,
    SHOOTING,
    SHOOTING_MODIFIERS,
    COHESION_SHOOTING,
    IMPACT_NULLIFIED,
    IMPACT_REDUCED,
    MELEE_MODIFIERS,
    DEPTH,
    PILUM,
    COHESION_MELEE,
    RETREAT_PURSUIT,
    RISK_SHOOTING,
    RISK_MELEE,
)
SILENT = "not on the sheet: the published procedure (README_combat.md)"
PARAMETERS = (
    Parameter("dt_natural_pass", 1, "discipline test: a D6 this low always passes", SILENT),
    Parameter(
        "dt_natural_fail",
        0,
        "discipline test: a D6 this high always fails (0: none; "
        "a 6 fails only when over the target)",
        SILENT,
    ),
    Parameter(
        "dt_discipline_a", 1, "discipline test: added to the target of a class A unit", SILENT
    ),
    Parameter(
        "dt_discipline_c", -1, "discipline test: added to the target of a class C unit", SILENT
    ),
    Parameter(
        "ct_min_critical",
        1,
        "cohesion test: the critical number (VBU - hits + modifiers) is at least this",
        SILENT,
    ),
    Parameter("ct_natural_pass", 1, "cohesion test: a D6 this low always passes", SILENT),
    Parameter("ct_natural_fail", 6, "cohesion test: a D6 this high always fails", SILENT),
    Parameter(
        "ct_min_loss", 1, "cohesion test: a failure loses the difference, at least this", SILENT
    ),
)
COMBAT_PARAMETERS: dict[str, Json] = {p.name: p.default for p in PARAMETERS}


def cell(table: GridTable, row: str, column: str) -> int | None:
    """A whole-number cell, or None for the sheet's "-"."""
    value = table.lookup(row, column)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{table.name}: {row}/{column} is not a number: {value!r}")
    return value


def text(table: GridTable, row: str) -> str:
    """The sheet's words for a row."""
    return str(table.lookup(row, "sheet"))


_LEADING = re.compile(r"^(Max)?[+-]\d+ |^By -\d+ ")
_TRAILING = re.compile(r" [+-]\d+(/[+-]\d+)?$")


def reason(table: GridTable, row: str) -> str:
    """The sheet's words for a row without its printed number, as a modifier's reason (the
    modifier shows the number): "+1 General attached" -> "General attached"."""
    return _TRAILING.sub("", _LEADING.sub("", text(table, row)))


def shooting_row(weapon: str, grade: str) -> str:
    """The shooting table's row for a weapon and its class ("long_bow", "A" -> "long_bow.A");
    weapons printed with one row ignore the class. KeyError if the table has no such row."""
    if weapon in SHOOTING.rows:
        return weapon
    row = f"{weapon}.{grade}"
    if row not in SHOOTING.rows:
        raise KeyError(f"the shooting table has no row for {weapon} class {grade or '?'}")
    return row


def range_band(distance: float) -> tuple[str, str] | None:
    """The range band (key, sheet heading) a distance in H falls in, None beyond 12H."""
    for key, reach, heading in RANGE_BANDS:
        if within(distance, reach):
            return key, heading
    return None


def shooting_column(band: str, mounted_target: bool) -> str:
    """The shooting table's column for a band and a target."""
    if band == "extreme":
        return "extreme_any"
    return f"{band}_{'mounted' if mounted_target else 'foot'}"


def distance_row(die: int, kind: str, troop: str) -> int | None:
    """Retreat or pursuit (``kind``) distance in H for a D6 and a troop column (foot,
    mounted, cl); None is the sheet's "-" (no pursuit)."""
    return cell(RETREAT_PURSUIT, str(die), f"{kind}_{troop}")
