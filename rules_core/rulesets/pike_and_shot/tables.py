"""The pike-and-shot quick-reference sheet, table by table, in the order the sheet prints them.

Each table reads row for row like the sheet; the quoted words are the sheet's own. The rules
(``combat.py``, ``cohesion.py``, ``chances.py``) read every number from here at the time of use.
The movement table is ``moves.py``'s. Numbers the sheet does not print are parameters
(``combat.PARAMETERS``, ``cohesion.PARAMETERS``); every such point is listed in
``README_combat.md``.

Unit types are ``profiles.UNIT_TYPES``' ids (see ``status.py``); sizes are ``status.SIZE``'s
values ("tercio", "double", "brigade", "company").
"""

from __future__ import annotations

from rules_core.codec import Json
from rules_core.rulesets.pike_and_shot.status import DISMOUNTED, MARCH_COLUMN
from rules_core.state import Unit
from rules_core.tables import Band, GridTable, ScoreTable

# The cell readers live in the core; the rules read them here beside the tables.
from rules_core.tables import number as number
from rules_core.tables import whole as whole

# -- "Combat dice - number of d6 rolled" -------------------------------------------------------
# Columns: range in inches, shooting dice, melee dice (None: the sheet's "-"), sheet.
# "*" (pike against mounted) and "#" (veteran volley fire) are modifiers below.
COMBAT_DICE = GridTable(
    "Combat dice",
    ("range", "shooting", "melee", "sheet"),
    {
        "detachment": (3.0, 1, 1, "Infantry detachments, dismounted dragoons | 3 ins | 1 | 1"),
        "dismounted_dragoons": (3.0, 1, 1, "Infantry detachments, dismounted dragoons | 3 ins | 1 | 1"),
        "irregular_infantry": (3.0, 1, 2, "Irregular infantry | 3 ins | 1 | 2"),
        "rabble": (None, None, 1, "'Rabble' infantry and March Columns | - | - | 1"),
        "march_column": (None, None, 1, "'Rabble' infantry and March Columns | - | - | 1"),
        "tercio": (3.0, 2, 3, "Early Tercio | 3 ins | 2 | 3*"),
        "infantry_brigade": (3.0, 2, 2, "Infantry brigades | 3 ins | 2# | 2*"),
        "cavalry_brigade": (2.0, 1, 3, "Cavalry brigades | 2 ins | 1 | 3"),
        "double_brigade": (2.0, 2, 2, "Double brigades | 2 ins | 2 | 2"),
        "dragoons": (2.0, 1, 1, "Dragoons (mounted) | 2 ins | 1 | 1"),
        "irregular_cavalry": (2.0, 1, 1, "Irregular cavalry | 2 ins | 1 | 1"),
        "infantry_guns": (6.0, 1, None, "Infantry guns (up to 2lb shot) | 6 ins | 1 | -"),
        "field_artillery": (12.0, 1, None, "Field Artillery (2 - 4lb shot) | 12 ins | 1 | -"),
        "heavy_artillery": (24.0, 1, None, "Heavy Artillery (over 4lb shot) | 24 ins | 1 | -"),
    },
)  # fmt: skip
ARTILLERY = frozenset({"infantry_guns", "field_artillery", "heavy_artillery"})
PIKE_TYPES = frozenset({"tercio", "infantry_brigade"})  # the "*" rows
VOLLEY_TYPES = frozenset({"infantry_brigade"})  # the "#" row
CAVALRY_TYPES = frozenset(
    {"cavalry_brigade", "double_brigade", "irregular_cavalry", "dragoons"}
)  # "Veteran cavalry (not dragoons)" excludes dragoons by the modifier's own words
IRREGULAR_TYPES = frozenset({"irregular_infantry", "irregular_cavalry"})

# "Modifiers to the number of d6 rolled". Columns: dice, the combats it counts in ("all",
# "melee" or "shooting"), sheet.
DICE_MODIFIERS = GridTable(
    "Modifiers to the number of d6 rolled",
    ("dice", "combats", "sheet"),
    {
        "flank": (1, "all", "Unit attacking enemy flank | + 1 in all combats"),
        "pike_vs_mounted": (1, "melee", "* Infantry with pike | + 1 in Melee against mounted"),
        "veteran_volley": (1, "shooting", "# Veteran infantry volley fire | + 1 in Shooting if not disordered."),
        "veteran_cavalry": (1, "melee", "Veteran cavalry (not dragoons) | + 1 in Melee"),
        "lance": (1, "melee", "Lance armed cavalry | + 1 in Melee if enemy not sound"),
        "disrupted": (-1, "all", "Unit disrupted | - 1 in all combats"),
        "company_march_column": (-1, "all", "Company in March Column | - 1 in all combats"),
        "brigade_march_column": (-2, "all", "Brigade/Tercio in March Column | - 2 in all combats"),
        "routed": (-2, "all", "Unit routed | - 2 in all combats"),
    },
)  # fmt: skip

# "Both sides roll their combat dice and discard any scores below 4."
HIT_ON = 4
# -- "Saving Throws": "Each roll of 4 or more saves a single hit." ------------------------------
SAVE_ON = 4
SAVING_DICE = GridTable(
    "Saving dice",
    ("dice", "sheet"),
    {
        "tercio": (3, "Early Tercios | 3 saving dice"),
        "double": (2, "Brigades and Double Brigades | 2 saving dice"),
        "brigade": (2, "Brigades and Double Brigades | 2 saving dice"),
        "company": (1, "All companies | 1 saving die"),
    },
)
# Columns: saving dice, the combats it counts in, sheet.
SAVE_MODIFIERS = GridTable(
    "Saving throw modifiers",
    ("dice", "combats", "sheet"),
    {
        "veteran": (1, "all", "Veteran units | + 1 saving die"),
        "poor_attacker": (1, "all", "Hit caused by Raw, Disordered or Disrupted troops | + 1 saving die"),
        "armoured_cavalry": (1, "melee", "Fully armoured cavalry (Cuirassiers, etc) in melee | + 1 saving die"),
        "uphill": (1, "shooting", "Unit is uphill from attacking enemy (shooting only) | + 1 saving die"),
        "cover": (1, "all", "In buildings, or cover | + 1 saving die"),
        "close_range": (-1, "shooting", "Hit caused by close range shooting | - 1 saving die"),
        "close_artillery": (-1, "shooting", "Hit caused by close range artillery fire | - 1 saving die"),
        "disordered": (-1, "all", "Unit is disordered | - 1 saving die"),
        "disrupted": (-2, "all", "Unit is disrupted | - 2 saving dice"),
        "flank": (-1, "all", "Unit attacked in flank | - 1 saving die"),
        "rear": (-2, "all", "Unit attacked in rear | - 2 saving dice"),
    },
)  # fmt: skip

# -- "Shooting Results": unsaved hits (rows) by the target's state (columns) -------------------
# A cell names an outcome of ``OUTCOMES``. The sheet has no "routed" column: a routed target
# stays routed and 4 or more hits destroy it (README_combat.md, "Shooting a routed unit").
SHOOTING_RESULTS = GridTable(
    "Shooting results",
    ("sound", "disordered", "disrupted", "routed"),
    {
        "1": ("disordered", "disrupted", "disorder_test", "routed"),
        "2": ("disrupted", "disrupted_recoil", "routed", "routed"),
        "3": ("disrupted_recoil", "routed", "routed", "routed"),
        "4": ("routed", "destroyed", "destroyed", "destroyed"),
    },
)
SHOOTING_ROWS = ScoreTable(
    "Shooting results: unsaved hits",
    (
        Band(1, 1, "1", "1 hit"),
        Band(2, 2, "2", "2 hits"),
        Band(3, 3, "3", "3 hits"),
        Band(4, None, "4", "4 or more hits"),
    ),
)
RECOIL_DISTANCE = 4.0  # "Recoil 4ins"
COMPANY_ROUTED_REMOVED = (
    True  # "A routed company is removed from the battle after making its rout move."
)

# Every outcome of a shooting or melee result. Columns: cohesion afterwards, move ("" none,
# "recoil" 4" facing the enemy, "rout" a rout move facing away), a disorder test afterwards
# ("" none, "rout_or_recoil": fail routs / pass recoils, "remove": fail removes), removed after
# its move, sheet.
OUTCOMES = GridTable(
    "Combat outcomes",
    ("cohesion", "move", "test", "removed", "sheet"),
    {
        "disordered": ("disordered", "", "", False, "Sound units become Disordered (yellow counter)."),
        "disrupted": ("disrupted", "", "", False, "become Disrupted (red counter)."),
        "disorder_test": ("disrupted", "", "rout_or_recoil", False, "Disrupted units take a Disorder Test; if the unit fails then it is routed (red and yellow counters), and immediately moved a full move away from the source of the firing (facing away from the shooter). If it passes then it recoils 4ins away from the shooter (facing towards the shooter)."),
        "disrupted_recoil": ("disrupted", "recoil", "", False, "become Disrupted and Recoil 4ins from the shooter (facing towards the shooter)."),
        "disordered_recoil": ("disordered", "recoil", "", False, "Loser is moved 4ins backwards (facing towards the enemy). Sound units become Disordered (yellow)."),
        "disrupted_recoil_melee": ("disrupted", "recoil", "", False, "Loser is moved 4ins backwards (facing towards the enemy). Disordered units become Disrupted (red)."),
        "routed": ("routed", "rout", "", False, "are routed (red and yellow counters) and make a rout move."),
        "routed_test": ("routed", "rout", "remove", False, "Disrupted units become Routed and make a rout move. It then takes a Disorder Test; if it fails this test it is removed from the battlefield."),
        "destroyed": ("destroyed", "rout", "", True, "destroyed and after making its rout move it is removed from the battle."),
    },
)  # fmt: skip

# -- "Melee Results": the difference in unsaved hits -------------------------------------------
MELEE_RESULTS = ScoreTable(
    "Melee results",
    (
        Band(0, 0, "stand_off", "Scores are equal = Stand-off."),
        Band(1, 1, "recoil", "Scores differ by one hit = Recoil."),
        Band(2, 2, "rout", "Scores differ by two hits = Rout."),
        Band(3, None, "destruction", "Scores differ by three or more = Destruction."),
    ),
)
# "Effect on the loser" by result (rows) and the loser's state (columns): an outcome.
MELEE_LOSER = GridTable(
    "Melee results: effect on the loser",
    ("sound", "disordered", "disrupted", "routed"),
    {
        "recoil": ("disordered_recoil", "disrupted_recoil_melee", "routed", "routed"),
        "rout": ("routed", "routed", "routed_test", "routed_test"),
        "destruction": ("destroyed", "destroyed", "destroyed", "destroyed"),
    },
)
# What the winner does. Columns: impetuous pursuit test, one unit may advance into the vacated
# ground with a facing change, sheet.
MELEE_WINNER = GridTable(
    "Melee results: the winner",
    ("pursuit_test", "advance", "sheet"),
    {
        "stand_off": (False, False, "Both units remain engaged into the next turn. Infantry v Cavalry: the cavalry may attempt to 'break off' or remain engaged."),
        "recoil": (False, True, "One attacking unit may advance into the vacated ground and make a facing change."),
        "rout": (True, True, "The winner tests for Impetuous Pursuit. One of the winner's units that did not declare an Impetuous Pursuit may advance into the vacated ground and make a facing change."),
        "destruction": (True, True, "The winner tests for Impetuous Pursuit. One of the winner's units that did not declare an Impetuous Pursuit may advance into the vacated ground and make a facing change."),
    },
)  # fmt: skip

# -- "Retreats" --------------------------------------------------------------------------------
RETREAT_GAP = 5.0  # "It may pass between enemy brigades as long as there is a 5-inch gap"

# -- "Impetuous Pursuit" -----------------------------------------------------------------------
PURSUIT_RANGE = 18.0  # "ends its rout move within 18ins and line of sight of the winning unit(s)"
PURSUIT_ENEMY_CAVALRY = 8.0  # "Sound enemy cavalry within 8ins"
PURSUIT_CLEAR_PATH = 18.0  # "Clear path to routers within 18ins"
PURSUIT_MODIFIERS = GridTable(
    "Impetuous pursuit modifiers",
    ("modifier", "sheet"),
    {
        "enemy_cavalry": (1, "Sound enemy cavalry within 8ins | + 1"),
        "routers_sub_unit": (1, "Routers are a sub-unit | + 1"),
        "detachment": (1, "Pursuers are a Detachment | + 1"),
        "infantry_brigade": (3, "Pursuers are an Infantry Brigade | + 3"),
        "tercio": (4, "Pursuers are a Tercio | + 4"),
        "hold": (1, "Pursuers are under Hold orders | + 1"),
        "withdraw": (2, "Pursuers are under Withdraw orders | + 2"),
        "veteran": (1, "Pursuers are Veterans | + 1"),
        "disordered": (1, "Pursuers are disordered | + 1"),
        "buildings": (2, "Pursuers are in buildings | + 2"),
        "fortifications": (2, "Pursuers are behind fortifications | + 2"),
        "clear_path": (-1, "Clear path to routers within 18ins | - 1"),
        "rabble": (-1, "Pursuers are Rabble | - 1"),
        "irregular": (-2, "Pursuers are Irregulars | - 2"),
        "sound_cavalry_brigade": (-2, "Pursuers are sound Cavalry brigade | - 2"),
        "sound_double_brigade": (-1, "Pursuers are sound Double brigade | - 1"),
        "attack": (-1, "Pursuers are under Attack orders | - 1"),
        "raw": (-1, "Pursuers are Raw | - 1"),
        "heroic_commander": (-1, "Heroic Wing Commander | - 1"),
        "politico_commander": (-1, "Politico Wing Commander | - 1"),
    },
)
PURSUIT_TEST = ScoreTable(
    "Impetuous pursuit",
    (
        Band(None, 3, "pursue", "3 or less: the winning unit declares an Impetuous Pursuit"),
        Band(4, None, "stay", "4 or more: no pursuit"),
    ),
)
RETURN_DISTANCE = 6.0  # "it may return within 6 ins of its exit point"

# -- "Disorder": "If the modified score is 4 or more then the unit passes its test." -----------
# Columns: modifier for Normal sized units, for Early Tercios & Double Brigade sized units,
# sheet ("Modifiers before the / are for Normal sized units. After the / ...").
DISORDER_MODIFIERS = GridTable(
    "Disorder test modifiers",
    ("normal", "large", "sheet"),
    {
        "raw": (0, 1, "Raw | 0 / + 1"),
        "trained": (1, 2, "Trained | + 1 / + 2"),
        "veteran": (2, 2, "Veterans | + 2"),
        "defending_obstacle": (1, 1, "Defending linear obstacle | + 1"),
        "uphill": (1, 1, "Defending uphill of attacking enemy | + 1"),
        "hold": (1, 1, "Under Hold orders | + 1"),
        "attacking_flank": (1, 1, "Attacking enemy flank | + 1"),
        "friend_one_flank": (1, 1, "Sound friendly brigade, or Tercio, on one flank | + 1"),
        "friend_both_flanks": (1, 1, "Sound friendly brigades, or Tercios, on both flanks | + 1"),
        "wing_commander": (1, 1, "Wing Commander attached | + 1"),
        "no_enemy_24": (1, 1, 'No enemy unit within 24" | + 1'),
        "higher_commander": (2, 2, "Higher Commander attached | + 2"),
        "attacking_rear": (2, 2, "Attacking enemy rear | + 2"),
        "buildings": (2, 2, "In buildings or behind fortifications | + 2"),
        "rabble": (-1, -1, "Rabble | - 1"),
        "brigade_difficult": (-1, -1, "Brigade in Difficult Terrain | - 1"),
        "enemy_brigade_8": (-1, -1, "Within 8ins of sound enemy brigade | - 1"),
        "disordered": (-1, -2, "Disordered | - 1 / - 2"),
        "disrupted": (-2, -3, "Disrupted | - 2 / - 3"),
        "routed": (-3, -4, "Routed | - 3 / - 4"),
        "artillery_fire": (-1, -1, "Under artillery fire | - 1"),
        "enemy_behind_flank": (-1, -1, "Enemy brigade behind flank within 8ins | - 1"),
        "attacked_flank_rear": (-2, -1, "Attacked in the flank or rear | - 2 / - 1"),
    },
)
DISORDER_TEST = ScoreTable(
    "Disorder test",
    (
        Band(None, 3, "fail", "3 or less: fails"),
        Band(4, None, "pass", "If the modified score is 4 or more then the unit passes its test."),
    ),
)
LARGE_SIZES = frozenset({"tercio", "double"})  # the column after the "/"
DISORDER_ENEMY_NEAR = (
    8.0  # "Within 8ins of sound enemy brigade", "Enemy brigade behind flank within 8ins"
)
DISORDER_ENEMY_FAR = 24.0  # 'No enemy unit within 24"'

# -- "Reforming from Disorder" -----------------------------------------------------------------
REFORM_ENEMY = 4.0  # "not in within 4 ins of the enemy"
REFORM_LEVELS = 1  # "If it passes then the unit may remove one level of disorder."

# -- "Cohesion": "Fatigue - Roll a d6 and adjust this with the following modifiers" -----------
# Columns: modifier, counted "once" for the wing or for "each" unit that qualifies, sheet.
FATIGUE_MODIFIERS = GridTable(
    "Fatigue modifiers",
    ("modifier", "per", "sheet"),
    {
        "enemy_8": (1, "once", "Within 8ins of the enemy | + 1"),
        "commander_wounded": (1, "once", "Commander or attached General is wounded | + 1"),
        "commander_killed": (
            2,
            "once",
            "Commander or attached General is killed, or off table | + 2",
        ),
        "company_lost": (1, "each", "Each company lost | + 1"),
        "brigade_off_table": (1, "each", "Each brigade off-table and not destroyed | + 1"),
        "disordered_large": (1, "each", "Each Disordered Tercio or Double Brigade | + 1"),
        "disrupted": (2, "each", "Each Disrupted brigade, Tercio or Double Brigade | + 2"),
        "routed": (3, "each", "Each Routed or destroyed brigade, Tercio or Double Brigade | + 3"),
        "sound_infantry": (-1, "each", "Each sound infantry brigade or Tercio | - 1"),
        "sound_veteran": (-1, "each", "Each sound veteran brigade or Tercio | - 1"),
        "hold": (-1, "once", "If under Hold orders | - 1"),
        "no_enemy_24": (-1, "once", 'No sound enemy unit within 24" | - 1'),
        "hero": (-1, "once", "Wing Commander is a hero | - 1"),
        "higher_commander": (-1, "once", "Higher Commander attached to the Wing | - 1"),
    },
)
FATIGUE_TEST = ScoreTable(
    "Fatigue",
    (
        Band(None, 7, "unaffected", "7 or less: the wing is unaffected and continues as normal"),
        Band(8, None, "fatigued", "8 or more: the wing is Fatigued"),
    ),
)
FATIGUE_ENEMY_NEAR = 8.0  # "Within 8ins of the enemy"
FATIGUE_ENEMY_FAR = 24.0  # 'No sound enemy unit within 24"'

# -- "General Will" ----------------------------------------------------------------------------
# "Compare the number of brigades currently routed (both on and off table). A single Tercio, or
# a Double Brigade, counts as two brigades for this process."
#
# The sheet's table lost its alignment (RULESETS.md, "Known damage"); it is rebuilt here cell
# by cell (README_combat.md, "The General Will table"). Columns: brigades in the army; rows:
# routed brigades 1..17. A number N: the test passes on a d6 score of N or less. "pass" /
# "fail": the sheet's "Automatic pass" / "Automatic fail" regions.
# Reading: every row below the first "Automatic fail" lists its numbers from the first column
# that is not an automatic fail (the merged "Automatic fail" cell took one tab however wide it
# was); rows 2, 15 and 16 carry an extra tab before the 36-40 column. Every column then falls
# by steps to 0 and then to "Automatic fail", and every row rises with the army's size.
# Cells marked "REBUILT" are not printed as such on the sheet and were chosen as the monotone
# table implies:
GENERAL_WILL_BANDS: tuple[tuple[int, int], ...] = (
    (5, 10), (11, 15), (16, 20), (21, 25), (26, 30), (31, 35), (36, 40),
)  # fmt: skip
GENERAL_WILL = GridTable(
    "General Will",
    ("5-10", "11-15", "16-20", "21-25", "26-30", "31-35", "36-40"),
    {
        "1": (6, 6, "pass", "pass", "pass", "pass", "pass"),
        # REBUILT: 16-20 .. 31-35 are blank on the sheet (the "Automatic pass" region) while
        # 36-40 prints 6; a column cannot rise above a larger army's 6, so they read 6.
        "2": (4, 5, 6, 6, 6, 6, 6),
        # REBUILT: 36-40 is blank; between 6 above and 6 below it reads 6.
        "3": (3, 4, 5, 6, 6, 6, 6),
        "4": (1, 3, 4, 5, 6, 6, 6),
        "5": (0, 2, 3, 4, 5, 5, 6),
        # REBUILT: 31-35 prints 4, but the row below prints 5 in that column; a routed brigade
        # more cannot make the test easier, so it reads 5 (the sheet's "4 4 4" repeats a digit).
        "6": ("fail", 1, 2, 4, 4, 5, 5),
        "7": ("fail", 0, 1, 3, 4, 5, 5),
        "8": ("fail", "fail", 1, 2, 3, 4, 4),
        "9": ("fail", "fail", 0, 1, 3, 3, 4),
        "10": ("fail", "fail", "fail", 1, 2, 3, 3),
        "11": ("fail", "fail", "fail", 0, 1, 2, 3),
        "12": ("fail", "fail", "fail", "fail", 1, 1, 2),
        "13": ("fail", "fail", "fail", "fail", 0, 1, 2),
        "14": ("fail", "fail", "fail", "fail", "fail", 0, 1),
        "15": ("fail", "fail", "fail", "fail", "fail", "fail", 1),
        "16": ("fail", "fail", "fail", "fail", "fail", "fail", 0),
        "17": ("fail", "fail", "fail", "fail", "fail", "fail", "fail"),
    },
)
REBUILT_CELLS = (
    ("2", "16-20"), ("2", "21-25"), ("2", "26-30"), ("2", "31-35"), ("3", "36-40"), ("6", "31-35"),
)  # fmt: skip
GENERAL_WILL_TEST = "Roll a d6. If the adjusted score is equal to or less than the number indicated in the above table then the General's resolve is good"


def general_will_cell(
    routed: int, brigades: int, table: GridTable = GENERAL_WILL
) -> tuple[Json, str, str]:
    """The cell for ``routed`` brigades in an army of ``brigades``: (value, row, column).

    Out of the table (README_combat.md): no routed brigade passes; more routed brigades than
    the last row fail; an army smaller than the first band reads the first column, larger than
    the last reads the last column.
    """
    column = _band(brigades, table)
    if routed <= 0:
        return "pass", "0", column
    rows = [int(key) for key in table.rows]
    if routed > max(rows):
        return "fail", str(routed), column
    row = str(routed)
    return table.lookup(row, column), row, column


def _band(brigades: int, table: GridTable) -> str:
    """The column of an army of ``brigades``."""
    bounds = [tuple(int(x) for x in name.split("-")) for name in table.columns]
    for (low, high), name in zip(bounds, table.columns, strict=True):
        if low <= brigades <= high:
            return name
    return table.columns[0] if brigades < bounds[0][0] else table.columns[-1]


def grid_from_json(name: str, value: Json, like: GridTable) -> GridTable:
    """A campaign's override of a table (``{"columns": [...], "rows": {row: [cells]}}`` or just
    the rows), checked against the shape of ``like``."""
    if not isinstance(value, dict):
        raise ValueError(f"{name}: a table is an object of rows")
    data = value
    columns = data.get("columns", list(like.columns))
    rows = data.get("rows", data)
    if not isinstance(columns, list) or not isinstance(rows, dict):
        raise ValueError(f"{name}: columns are a list and rows an object")
    cells = {str(key): tuple(row) for key, row in rows.items() if isinstance(row, list)}
    return GridTable(like.name, tuple(str(c) for c in columns), cells)


def grid_to_json(table: GridTable) -> dict[str, Json]:
    """A table as a campaign parameter's value."""
    return {"columns": list(table.columns), "rows": {k: list(v) for k, v in table.rows.items()}}


ALL = (
    COMBAT_DICE,
    DICE_MODIFIERS,
    SAVING_DICE,
    SAVE_MODIFIERS,
    SHOOTING_RESULTS,
    SHOOTING_ROWS,
    OUTCOMES,
    MELEE_RESULTS,
    MELEE_LOSER,
    MELEE_WINNER,
    PURSUIT_MODIFIERS,
    PURSUIT_TEST,
    DISORDER_MODIFIERS,
    DISORDER_TEST,
    FATIGUE_MODIFIERS,
    FATIGUE_TEST,
    GENERAL_WILL,
)


def sheet(table: GridTable, row: str) -> str:
    """The sheet's words for a row (its last column)."""
    return str(table.rows[row][-1])


def shooting_range(unit: Unit) -> float:
    """The unit's shooting range in inches from the Combat dice table (0: it does not shoot;
    a march column never does)."""
    if MARCH_COLUMN.of(unit):
        return 0.0
    row = unit.type if unit.type in COMBAT_DICE.rows else "infantry_brigade"
    if unit.type == "dragoons" and DISMOUNTED.of(unit):
        row = "dismounted_dragoons"
    value = COMBAT_DICE.lookup(row, "range")
    return float(value) if isinstance(value, int | float) else 0.0
