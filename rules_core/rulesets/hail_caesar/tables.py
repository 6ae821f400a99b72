"""Hail Caesar's reference tables, laid out as the quick-reference sheet prints them.

Each table reads row for row against the sheet (seed ``002_8cf5236b82d73fa7``). The break-test
tables reach the rules through parameters (``break_test_hand_to_hand``, ``break_test_ranged``)
so a campaign can override any cell; the cells rebuilt from damaged text are marked below.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.codec import Json
from rules_core.tables import Band, GridTable, ScoreTable

TROOP_TYPES = ("infantry", "cavalry", "skirmishers")

# -- Movement -----------------------------------------------------------------------------

SIX = (
    "Infantry, Elephants, Wagons and Baggage, Man-portable Artillery, Cataphract Cavalry,"
    " and Heavy Chariots"
)
NINE = (
    "Light Chariots, and Cavalry other than Cataphracts, Light Cavalry in open order,"
    " or Horse Archers in open order."
)
TWELVE = "Light Cavalry in open order and Horse Archers in open order."
MOVING_UNITS = GridTable("Moving Units Table", ("inches",), {SIX: (6,), NINE: (9,), TWELVE: (12,)})

# Which row of the movement table each roster type reads; light cavalry and horse archers
# read the 12" row in open order and the 9" row otherwise.
MOVE_ROW = {
    "infantry": SIX, "heavy_infantry": SIX, "medium_infantry": SIX, "light_infantry": SIX,
    "skirmishers": SIX, "elephants": SIX, "baggage": SIX, "wagons": SIX, "artillery": SIX,
    "cataphracts": SIX, "heavy_chariots": SIX, "light_chariots": NINE, "cavalry": NINE,
    "light_cavalry": NINE, "horse_archers": NINE,
}  # fmt: skip
FAST_IN_OPEN_ORDER = frozenset({"light_cavalry", "horse_archers"})

# The troop type a roster type takes break tests as (Infantry, Cavalry or Skirmishers).
BREAK_AS = {
    "infantry": "infantry", "heavy_infantry": "infantry", "medium_infantry": "infantry",
    "light_infantry": "infantry", "skirmishers": "skirmishers", "elephants": "cavalry",
    "baggage": "infantry", "wagons": "infantry", "artillery": "infantry",
    "cataphracts": "cavalry", "heavy_chariots": "cavalry", "light_chariots": "cavalry",
    "cavalry": "cavalry", "light_cavalry": "cavalry", "horse_archers": "cavalry",
}  # fmt: skip
ROSTER_TYPES = tuple(MOVE_ROW)

# -- Hand-to-hand ---------------------------------------------------------------------------
# Cells: "+2" adds dice, "-2" takes dice away, "=1" sets the value, "2/face" is two dice for
# each face in contact. "Standard" size is never named on the sheet: it is the baseline.

UNIT_SIZE_HAND_TO_HAND = GridTable(
    "Unit Size Modifiers for Hand-to-Hand Combat",
    ("combat_value",),
    {
        "large": ("+2",),  # +2 Dice   Large Unit
        "small": ("-2",),  # -2 Dice   Small Unit
        "tiny": ("=1",),  # 1 Dice    Tiny Unit (the garbled row "15: T: 11 '" / "I Dice")
        "standard": ("+0",),  # not printed: the baseline
    },
)
FORMATION_HAND_TO_HAND = GridTable(
    "Formation Modifiers for Hand-to-Hand Combat",
    ("combat_value",),
    {
        "column": ("=1",),  # 1 Dice           Column
        "square": ("2/face",),  # 2 Dice per Face  Square
        "buildings": ("2/face",),  # 2 Dice per Face  Buildings (garbled "D :11:")
    },
)
TO_HIT_HAND_TO_HAND = GridTable(
    "'To Hit' Dice Roll Modifiers in Hand-to-Hand Combat",
    ("dice_score",),
    {
        "charging": (1,),
        "winning": (1,),
        "uphill": (1,),
        "shaken_or_disordered": (-1,),
        "open_order": (-1,),
        "flank_rear": (-1,),
    },
)
MORALE_SAVE_MODIFIERS = GridTable(
    "Morale Save Modifiers",
    ("dice_score",),
    {
        "square_or_wedge": (1,),
        "cover": (1,),
        "testudo": (2,),
        "buildings": (2,),
        "fortifications": (3,),
        "light_artillery": (-1,),
        "medium_or_heavy_artillery": (-2,),
        "column": (-2,),
    },
)
# The sheet prints the same morale-save table under ranged attacks.
MORALE_SAVE_MODIFIERS_RANGED = MORALE_SAVE_MODIFIERS

# -- Ranged attacks -------------------------------------------------------------------------

UNIT_SIZE_RANGED = GridTable(
    "Unit Size Modifiers for Ranged Attacks",
    ("ranged_value",),
    {"large": ("+1",), "small": ("-1",), "tiny": ("=1",), "standard": ("+0",)},
)
FORMATION_RANGED = GridTable(
    "Formation Modifiers for Ranged Attacks",
    ("ranged_value",),
    {"column": ("=0",), "testudo": ("=0",), "square": ("=1",), "buildings": ("2/face",)},
)
RANGE_TABLE = GridTable(
    "Range Table",
    ("inches",),
    {
        "javelins": (6,),  # Javelins, Darts, and other thrown weapons
        "slings": (12,),
        "bows": (18,),  # Bows, Crossbows & Staff slings
        "light_artillery": (24,),
        "medium_artillery": (36,),
        "heavy_artillery": (48,),
    },
)
TO_HIT_RANGED = GridTable(
    "To Hit Modifiers (ranged)",
    ("dice_score",),
    {
        "shaken_or_disordered": (-1,),  # the attackers
        "partly_obscured": (-1,),  # the target is ...
        "open_order": (-1,),
        "artillery_or_baggage": (-1,),
        "shielded_heavy_infantry_front": (-1,),
        "cataphracts": (-1,),
        "closing_shots": (-1,),
        "traversing_shots": (-1,),
        "extreme_range": (-1,),
    },
)

# -- Break tests ----------------------------------------------------------------------------
# Result codes and the words the sheet prints for them.

RESULTS: Mapping[str, str] = {
    "hold": "Hold your ground without penalty",
    "give_ground": "Give ground in good order together with supports",
    "give_ground_disordered": "Give ground Disordered together with supports",
    "give_ground_disordered_alone": "Give ground Disordered",
    "break_if_shaken": (
        "Break if Shaken otherwise Give ground together with supports – all Disordered"
    ),
    "break_if_shaken_alone": "Break if Shaken otherwise Give ground Disordered",
    "break": "Break",
    "retreat": "Retreat in good order",
    "retreat_disordered": "Retreat Disordered",
    "hold_disordered_or_retreat": "Hold your ground Disordered or Retreat in good order",
    "break_if_shaken_retreat": "Break if Shaken otherwise retreat Disordered",
    "break_if_casualties": (
        "Break if the unit has suffered any casualties otherwise retreat Disordered"
    ),
}

# Score (low, high)   Infantry            Cavalry               Skirmishers
BREAK_TEST_HAND_TO_HAND: list[Json] = [
    [10, None, "hold", "hold", "hold"],
    [9, 9, "hold", "give_ground", "give_ground_disordered_alone"],
    [8, 8, "hold", "give_ground", "break_if_shaken_alone"],
    [7, 7, "give_ground", "give_ground", "break"],
    [6, 6, "give_ground", "give_ground_disordered", "break"],
    [5, 5, "give_ground_disordered", "break_if_shaken", "break"],
    [4, 4, "break_if_shaken", "break_if_shaken", "break"],
    # Cavalry at 3 is printed "Paral.": rebuilt as "Break". Cavalry reads one row worse than
    # infantry from 9 down to 4 (hold/give ground, give ground/disordered, disordered/break if
    # shaken), and infantry at 3 is "break if shaken", so cavalry at 3 is "Break".
    [3, 3, "break_if_shaken", "break", "break"],
    [None, 2, "break", "break", "break"],
]

BREAK_TEST_RANGED: list[Json] = [
    [10, None, "hold", "hold", "hold"],
    # Infantry at 9 is garbled ("Heldson many desith out a coelts."): the words are "Hold your
    # ground without penalty", as in the rows above and below it.
    [9, 9, "hold", "hold", "retreat"],
    # Infantry at 8 is blank: "Hold", between hold at 9 and hold at 7.
    [8, 8, "hold", "hold", "retreat_disordered"],
    [7, 7, "hold", "retreat", "retreat_disordered"],
    # Skirmishers at 6 is blank: rebuilt as the row below, because rows 6 and 5 are the same
    # for infantry and for cavalry. Not established from a public source.
    [6, 6, "hold_disordered_or_retreat", "retreat_disordered", "break_if_shaken_retreat"],
    [5, 5, "hold_disordered_or_retreat", "retreat_disordered", "break_if_shaken_retreat"],
    [4, 4, "retreat_disordered", "break_if_shaken_retreat", "break_if_casualties"],
    # Cavalry at 3 is garbled ("Situation of the management..."): rebuilt as infantry's next
    # row down, "break if casualties", since cavalry reads one row below infantry at 4 and 5.
    [3, 3, "break_if_shaken_retreat", "break_if_casualties", "break"],
    # Cavalry at 2 or less is blank: rebuilt as "Break" (worse than its row at 3, and what
    # skirmishers get). Not established from a public source.
    [None, 2, "break_if_casualties", "break", "break"],
]


def break_tables(rows: Json, test: str) -> dict[str, ScoreTable]:
    """One score table per troop type from rows of [low, high, infantry, cavalry, skirmishers]."""
    assert isinstance(rows, list)
    tables: dict[str, ScoreTable] = {}
    for column, troop in enumerate(TROOP_TYPES):
        bands = tuple(_band(row, column) for row in rows)
        tables[troop] = ScoreTable(f"{test} ({troop.title()})", bands)
    return tables


def _band(row: Json, column: int) -> Band:
    assert isinstance(row, list) and len(row) == 5
    low, high, code = row[0], row[1], row[2 + column]
    assert (low is None or isinstance(low, int)) and (high is None or isinstance(high, int))
    assert isinstance(code, str) and code in RESULTS, f"unknown break-test result {code!r}"
    return Band(low, high, code, RESULTS[code])


# -- The order test (not on the sheet) ----------------------------------------------------------
# Source: the published Hail Caesar command rules as widely described (Warlord Games, 2011):
# roll 2D6 against the leader's Leadership (commonly 8); equal gives one move, one less two,
# two or more less three; higher fails; a double six is a blunder. Held in parameters.

ORDER_TEST_MOVES: list[Json] = [[-2, 3], [-1, 2], [0, 1]]  # score - Leadership: moves


def order_table(leadership: int, rows: Json) -> ScoreTable:
    """The order test for one leader: bands of the 2D6 score against his Leadership."""
    assert isinstance(rows, list)
    bands: list[Band] = []
    words = {1: "one move", 2: "two moves", 3: "three moves"}
    for index, row in enumerate(rows):
        assert isinstance(row, list) and isinstance(row[0], int) and isinstance(row[1], int)
        score, moves = leadership + row[0], row[1]
        low = None if index == 0 else score
        bands.append(Band(low, score, str(moves), words.get(moves, f"{moves} moves")))
    bands.append(Band(leadership + 1, None, "0", "no move: the order fails"))
    return ScoreTable(f"Order test (Leadership {leadership})", tuple(bands))


# Blunder (double six), as commonly described for Hail Caesar; rows are [D6, result, moves].
# Checked only against secondary descriptions: a campaign may override it.
BLUNDER_TABLE: list[Json] = [
    [1, "retreat", 2],  # two moves back, keeping its facing
    [2, "back", 1],  # one move back
    [3, "left", 1],  # one move to its left
    [4, "right", 1],  # one move to its right
    [5, "forward", 1],  # one move forward, charging if it reaches an enemy
    [6, "charge", 3],  # three moves forward, charging if it reaches an enemy
]


def blunder_table(rows: Json) -> ScoreTable:
    """The blunder table as a score table of D6 results; each band's result is ``kind:moves``."""
    assert isinstance(rows, list)
    bands = []
    for row in rows:
        assert isinstance(row, list) and isinstance(row[0], int)
        kind, moves = row[1], row[2]
        text = f"{kind}: {moves} move{'s' if moves != 1 else ''}"
        bands.append(Band(row[0], row[0], f"{kind}:{moves}", text))
    return ScoreTable("Blunder", tuple(bands))


def dice_after(value: int, cell: Json, faces: int = 1) -> int:
    """A dice value adjusted by a size or formation cell ("+2", "-1", "=1", "2/face")."""
    assert isinstance(cell, str)
    if cell.endswith("/face"):
        return int(cell.removesuffix("/face")) * faces
    if cell.startswith("="):
        return int(cell[1:])
    return max(0, value + int(cell))


def all_tables() -> dict[str, ScoreTable | GridTable]:
    """Every table of the sheet, by name (break tests with their default cells)."""
    found: dict[str, ScoreTable | GridTable] = {
        "moving_units": MOVING_UNITS,
        "unit_size_hand_to_hand": UNIT_SIZE_HAND_TO_HAND,
        "formation_hand_to_hand": FORMATION_HAND_TO_HAND,
        "to_hit_hand_to_hand": TO_HIT_HAND_TO_HAND,
        "morale_save": MORALE_SAVE_MODIFIERS,
        "unit_size_ranged": UNIT_SIZE_RANGED,
        "formation_ranged": FORMATION_RANGED,
        "range": RANGE_TABLE,
        "to_hit_ranged": TO_HIT_RANGED,
        "blunder": blunder_table(BLUNDER_TABLE),
    }
    for test, rows in (("hand_to_hand", BREAK_TEST_HAND_TO_HAND), ("ranged", BREAK_TEST_RANGED)):
        for troop, table in break_tables(rows, f"Break test ({test})").items():
            found[f"break_{test}_{troop}"] = table
    return found


def modifier(table: GridTable, situation: str) -> int:
    """The dice-score modifier of one situation in a modifiers table."""
    value = table.lookup(situation, table.columns[0])
    assert isinstance(value, int)
    return value


def no_ranged_dice(formation: str) -> bool:
    """True for a formation the ranged formation table leaves no dice ("None": column, testudo)."""
    if formation not in FORMATION_RANGED.rows:
        return False
    return dice_after(1, FORMATION_RANGED.lookup(formation, "ranged_value")) == 0


def weapon_range(weapon: str) -> float:
    """A weapon's maximum range in inches (0 for none)."""
    if weapon not in RANGE_TABLE.rows:
        return 0.0
    value = RANGE_TABLE.lookup(weapon, "inches")
    assert isinstance(value, int)
    return float(value)
