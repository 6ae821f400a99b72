"""The movement tables as the sheet prints them: distances by troop type and the manoeuvres.

DISTANCES: the move allowance in H by troop type, for a normal move, a charge, and a move in
broken and in difficult terrain; "+D" in a cell means the move disorders the unit, "NO" that the
type may not enter that ground. The sheet's "2H+D/NO" Broken cell of the "W, Art, CGP/CF" row
covers three types: it is read as 2H+D for W (wagons) and NO for artillery and chariots (the
row's Difficult cell is NO for all three). "FL / Impetuous FL" charge "2H/3H": 2H, 3H if
impetuous.

MANOEUVRES: who may make each manoeuvre, how far, whether a group may make it together, its
effect, whether it may be a second or further move, and the sheet's notes, as keywords:
``all``, ``not_disordered``, ``not_disordered_dt`` (an about face needs a discipline test),
``allowance`` (the move allowance), ``one_h`` (LUs and EL sideways and backwards), ``turn``
(about face: 180° or 90°), ``disorder``.
"""

from __future__ import annotations

from rules_core.codec import Json
from rules_core.rulesets.impetus.profiles import MOUNTED, impetuous, large, missile_class
from rules_core.state import Unit
from rules_core.tables import GridTable

DISTANCES = GridTable(
    "Movement distances",
    ("normal", "charge", "broken", "difficult"),
    {
        "FP, EL": ("2H", "2H", "2H+D", "1H+D"),
        "T": ("2H", "2H", "2H", "1H+D"),
        "FL": ("2H", "2H", "2H", "2H"),
        "Impetuous FL": ("2H", "3H", "2H", "2H"),
        "S": ("3H", "3H", "3H", "3H"),
        "W": ("2H", "2H", "2H+D", "NO"),
        "Art": ("2H", "2H", "NO", "NO"),
        "CGP/CF": ("2H", "2H", "NO", "NO"),
        "CP1": ("2H", "3H", "2H+D", "1H+D"),
        "CP2, CM": ("3H", "4H", "2H+D", "1H+D"),
        "CGL": ("3H", "3H", "2H+D", "NO"),
        "CL": ("4H", "4H", "2H+D", "1H+D"),
    },
)

ROW_OF = {
    "FP": "FP, EL", "EL": "FP, EL", "T": "T", "FL": "FL", "S": "S", "W": "W", "ART": "Art",
    "CGP": "CGP/CF", "CF": "CGP/CF", "CP1": "CP1", "CP2": "CP2, CM", "CM": "CP2, CM",
    "CGL": "CGL", "CL": "CL",
}  # fmt: skip

MANOEUVRE_IDS = ("forward", "wheel", "sideways", "oblique", "backwards", "about_face")

MANOEUVRES = GridTable(
    "Manoeuvres",
    ("who", "who_except", "distance", "distance_except", "group_move", "group_move_except",
     "effect", "effect_except", "further_moves", "further_only", "notes"),
    {
        "forward": ("all", [], "allowance", [], True, [], "", [], "if_not_disordered", [], []),
        "wheel": ("all", [], "allowance", [], True, [], "", [], "if_not_disordered", [],
                  ["forward_only", "art_a_c_45_one_move", "fl_mounted_wheel_forward_last"]),
        "sideways": ("not_disordered", [], "allowance", ["LU", "EL"], False, ["S", "CL", "CM"],
                     "", [], "if_not_disordered", ["S", "CL", "CM"],
                     ["last_move_unless_further", "may_shoot", "no_enemy_contact"]),
        "oblique": ("not_disordered", [], "allowance", ["LU", "EL"], False, ["S", "CL", "CM"],
                    "", [], "if_not_disordered", ["S", "CL", "CM"],
                    ["last_move_unless_further", "may_shoot", "no_enemy_contact",
                     "forward_only"]),
        "backwards": ("not_disordered", ["S", "CL", "CM"], "allowance", ["LU", "EL"], False,
                      ["S", "CL"], "disorder", ["S", "non_impetuous_FL", "mounted"],
                      "if_not_disordered", [],
                      ["voluntary_interpenetration", "no_enemy_contact"]),
        "about_face": ("not_disordered_dt", ["S", "CL"], "turn", [], False, [], "", [], "no", [],
                       ["first_and_only_move", "no_shooting", "fail_acts_normally",
                        "no_contact"]),
    },
)  # fmt: skip

# The wheel's note "ART A or C: Maximum of 45° and 1 move only" as data: the troop type and
# shooting classes (``missile_class``) it names, the widest wheel in degrees, and the moves
# such a unit makes in one activation, whatever the manoeuvre and whatever a discipline test
# would give (the note limits the unit, not only its wheel).
MOVE_LIMITS = GridTable(
    "Manoeuvre limits",
    ("type", "classes", "max_wheel", "moves", "sheet"),
    {
        "art_a_c_45_one_move": ("ART", ["A", "C"], 45, 1,
                                "ART A or C: Maximum of 45° and 1 move only"),
    },
)  # fmt: skip

TABLES = (DISTANCES, MANOEUVRES, MOVE_LIMITS)


def cell(unit: Unit, column: str) -> str:
    """The distance table's cell for a unit (impetuous FL have their own row)."""
    row = ROW_OF.get(unit.type, "FP, EL")
    if unit.type == "FL" and impetuous(unit):
        row = "Impetuous FL"
    return str(DISTANCES.lookup(row, column))


def parse(text: str) -> tuple[float | None, bool]:
    """A cell read: (H, or None for NO; whether it disorders)."""
    if text.strip().upper() == "NO":
        return None, False
    disorders = text.endswith("+D")
    number = text.removesuffix("+D").removesuffix("H")
    return float(number), disorders


def distance(unit: Unit, column: str = "normal") -> float:
    """The unit's allowance in H for a column (0 where it may not go)."""
    found, _ = parse(cell(unit, column))
    return found or 0.0


def manoeuvre(kind: str, column: str) -> Json:
    """A manoeuvre table cell."""
    return MANOEUVRES.lookup(kind, column)


def _tags(unit: Unit) -> set[str]:
    tags = {unit.type}
    if large(unit):
        tags.add("LU")
    if unit.type in MOUNTED:
        tags.add("mounted")
    if unit.type == "FL" and not impetuous(unit):
        tags.add("non_impetuous_FL")
    return tags


def _listed(kind: str, column: str, unit: Unit) -> bool:
    value = MANOEUVRES.lookup(kind, column)
    return isinstance(value, list) and bool(_tags(unit) & {str(v) for v in value})


def may_make(unit: Unit, kind: str, disordered: bool) -> bool:
    """Who: whether the unit may make this manoeuvre at all (before any DT)."""
    who = str(manoeuvre(kind, "who"))
    if who == "all":
        return True
    return not disordered or _listed(kind, "who_except", unit)


def needs_dt(unit: Unit, kind: str) -> bool:
    """An about face needs a discipline test, except S and CL."""
    return manoeuvre(kind, "who") == "not_disordered_dt" and not _listed(kind, "who_except", unit)


def allowance(unit: Unit, kind: str, column: str = "normal") -> float:
    """How far the manoeuvre may take the unit: 1H for LUs and EL sideways and backwards."""
    if manoeuvre(kind, "distance") == "turn":
        return 0.0
    if _listed(kind, "distance_except", unit):
        return min(1.0, distance(unit, column))
    return distance(unit, column)


def group_may(unit: Unit, kind: str) -> bool:
    """Whether a group may make this manoeuvre together (its exceptions by type)."""
    return manoeuvre(kind, "group_move") is True or _listed(kind, "group_move_except", unit)


def disorders(unit: Unit, kind: str) -> bool:
    """Whether the manoeuvre disorders the unit (backwards, except S, non-impetuous FL and
    mounted)."""
    return manoeuvre(kind, "effect") == "disorder" and not _listed(kind, "effect_except", unit)


def further_allowed(unit: Unit, kind: str, disordered: bool) -> bool:
    """Whether this manoeuvre may be a second or further move."""
    value = manoeuvre(kind, "further_moves")
    if value == "no" or disordered:
        return False
    only = manoeuvre(kind, "further_only")
    return not (isinstance(only, list) and only) or _listed(kind, "further_only", unit)


def has_note(kind: str, note: str) -> bool:
    """Whether a manoeuvre's notes include a keyword."""
    value = manoeuvre(kind, "notes")
    return isinstance(value, list) and note in value


def limit_of(unit: Unit) -> str | None:
    """The ``MOVE_LIMITS`` row that limits this unit's moves (its type and class), or None."""
    for row in MOVE_LIMITS.rows:
        classes = MOVE_LIMITS.lookup(row, "classes")
        listed = [str(c) for c in classes] if isinstance(classes, list) else []
        if unit.type == MOVE_LIMITS.lookup(row, "type") and missile_class(unit) in listed:
            return row
    return None


def _limit(unit: Unit, column: str) -> tuple[float, str] | None:
    row = limit_of(unit)
    if row is None:
        return None
    value = MOVE_LIMITS.lookup(row, column)
    assert isinstance(value, int | float)
    return float(value), str(MOVE_LIMITS.lookup(row, "sheet"))


def most_moves(unit: Unit) -> tuple[int, str] | None:
    """The most moves the unit makes in one activation by a ``MOVE_LIMITS`` row, with the
    sheet's words; None if no row limits it."""
    found = _limit(unit, "moves")
    return None if found is None else (int(found[0]), found[1])


def widest_wheel(unit: Unit) -> tuple[float, str] | None:
    """The widest wheel in degrees a ``MOVE_LIMITS`` row allows the unit, with the sheet's
    words; None if no row limits it."""
    return _limit(unit, "max_wheel")
