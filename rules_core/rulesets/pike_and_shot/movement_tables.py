"""The sheet's Movement table as data, and which row each unit type reads.

Cells read like the sheet: inches as numbers, and the sheet's words for what a turn or a
crossing costs: "Full move" (it is the unit's whole move), "½ move" (half its Normal move),
"Free", "n/a" (it may not), "Crossing points" (it crosses only at a bridge, ford or gap).
The ``disorder`` column is the sheet's bold "and disorder" after the Difficult Terrain rate.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.codec import Json
from rules_core.plugin import Parameter
from rules_core.rulesets.pike_and_shot.status import DISMOUNTED, MARCH_COLUMN
from rules_core.state import Unit
from rules_core.tables import GridTable

FULL, HALF, FREE, NA, CROSSING_POINTS = "Full move", "½ move", "Free", "n/a", "Crossing points"
COLUMNS = ("normal", "march_column", "turn", "linear_obstacle", "difficult", "disorder")
MOVEMENT = GridTable(
    "Movement",
    COLUMNS,
    {
        "Early Tercios": (10, 15, FULL, FULL, 5, False),
        "Infantry brigades": (12, 18, HALF, FULL, 6, False),
        "Irregular infantry": (12, 18, FREE, HALF, 8, False),
        "Detachments": (12, 18, FREE, HALF, 8, False),
        "Rabble": (10, NA, FULL, CROSSING_POINTS, 5, True),
        "Infantry guns": (10, NA, HALF, FULL, 3, True),
        "Field Artillery": (6, NA, FULL, CROSSING_POINTS, NA, False),
        "Heavy Artillery": (2, NA, NA, CROSSING_POINTS, NA, False),
        "Cavalry Brigade": (18, 27, HALF, FULL, 8, True),
        "Double Brigade": (16, 24, FULL, FULL, 6, True),
        "Irregular cavalry": (24, 36, FREE, HALF, 8, False),
        "Commanders": (24, NA, FREE, HALF, 12, False),
    },
)
TABLES = (MOVEMENT,)

# Which row each unit type reads. Dragoons are not on the sheet's table: mounted they move as a
# Cavalry Brigade, dismounted as Detachments (editable: ``movement_rows``).
ROWS: dict[str, Json] = {
    "tercio": "Early Tercios",
    "infantry_brigade": "Infantry brigades",
    "irregular_infantry": "Irregular infantry",
    "detachment": "Detachments",
    "rabble": "Rabble",
    "infantry_guns": "Infantry guns",
    "field_artillery": "Field Artillery",
    "heavy_artillery": "Heavy Artillery",
    "cavalry_brigade": "Cavalry Brigade",
    "double_brigade": "Double Brigade",
    "irregular_cavalry": "Irregular cavalry",
    "dragoons": "Cavalry Brigade",
    "dismounted_dragoons": "Detachments",
}
SILENT = "not on the sheet (see the package README)"
PARAMETERS = (
    Parameter("movement_rows", ROWS, "the Movement table row each unit type reads", SILENT),
    Parameter(
        "difficult_terrain",
        ["wood", "dense_wood", "rough", "marsh", "village"],
        "terrain kinds that are Difficult Terrain",
        SILENT,
    ),
    Parameter(
        "linear_obstacles",
        ["linear_obstacle", "stream", "fortification"],
        "terrain kinds crossed as Linear Obstacles",
        SILENT,
    ),
    Parameter(
        "impassable_terrain",
        ["river", "impassable"],
        "terrain kinds no unit enters (rivers: except at a bridge or ford)",
        SILENT,
    ),
)


def row_of(unit: Unit, params: Mapping[str, Json]) -> str:
    """The Movement table row a unit reads."""
    return row_for(unit.type, DISMOUNTED.of(unit), params)


def row_for(unit_type: str, dismounted: bool, params: Mapping[str, Json]) -> str:
    """The Movement table row a unit type reads (dragoons: mounted or on foot)."""
    rows = params.get("movement_rows", ROWS)
    assert isinstance(rows, Mapping)
    key = "dismounted_dragoons" if unit_type == "dragoons" and dismounted else unit_type
    return str(rows.get(key) or ROWS["infantry_brigade"])


def no_march_column(row: str) -> str | None:
    """Why a unit reading ``row`` may never be in march column (its cell is n/a), or None."""
    if MOVEMENT.lookup(row, "march_column") != NA:
        return None
    return f"{row} have no March Column (n/a on the Movement table): never in march column"


def entry_problems(entry: Mapping[str, Json]) -> list[tuple[str, str]]:
    """An army-list unit entry's problems as (field, message): march column where it is n/a."""
    if entry.get("march_column") is not True:
        return []
    kind = entry.get("type")
    row = row_for(kind if isinstance(kind, str) else "", entry.get("dismounted") is True, {})
    problem = no_march_column(row)
    return [] if problem is None else [("march_column", problem)]


def cell(unit: Unit, column: str, params: Mapping[str, Json]) -> Json:
    """One cell of the unit's row."""
    return MOVEMENT.lookup(row_of(unit, params), column)


def normal_rate(unit: Unit, params: Mapping[str, Json]) -> float:
    """The unit's Normal move in inches."""
    value = cell(unit, "normal", params)
    return float(value) if isinstance(value, int | float) else 0.0


def march_rate(unit: Unit, params: Mapping[str, Json]) -> float | None:
    """The unit's March Column move, None where the sheet says n/a."""
    value = cell(unit, "march_column", params)
    return float(value) if isinstance(value, int | float) else None


def rate(unit: Unit, params: Mapping[str, Json]) -> float:
    """The move it makes now: March Column if it is in march column, else Normal. A march
    column whose row says n/a is an error: no move is ever made at a rate the table lacks."""
    if not MARCH_COLUMN.of(unit):
        return normal_rate(unit, params)
    found = march_rate(unit, params)
    if found is None:
        raise ValueError(f"{unit.name} is in march column: {no_march_column(row_of(unit, params))}")
    return found


def commander_rate() -> float:
    """A commander's move (the Commanders row: 24")."""
    value = MOVEMENT.lookup("Commanders", "normal")
    assert isinstance(value, int | float)
    return float(value)
