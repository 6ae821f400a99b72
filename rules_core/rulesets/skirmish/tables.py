"""The skirmish ruleset's reference tables, laid out as its (imaginary) sheet prints them."""

from __future__ import annotations

from rules_core.tables import Band, GridTable, ScoreTable

# Score needed on each die to hit, by range band (short = up to half the weapon's range).
TO_HIT = GridTable("To hit", ("short", "long"), {"shooting": (4, 5), "melee": (4, 4)})

# Modifiers to the hits a pool scores, by situation (None: the situation does not apply).
MODIFIERS = GridTable(
    "Modifiers",
    ("shooting", "melee"),
    {
        "partly_obscured": (-1, None),  # the target is partly obscured
        "disordered": (-1, -1),  # the unit rolling is disordered
        "charged": (None, 1),  # the unit charged this turn
    },
)


def modifier(row: str, column: str) -> int:
    """A modifier of the table; KeyError where the sheet gives none."""
    value = MODIFIERS.lookup(row, column)
    if not isinstance(value, int):
        raise KeyError(f"{MODIFIERS.name}: no {column} modifier for {row!r}")
    return value


RALLY = ScoreTable(
    "Rally test",
    (
        Band(None, 3, "disordered", "stays disordered"),
        Band(4, None, "rallied", "rallies"),
    ),
)

# What each kind of terrain does to a move, and whether it blocks sight.
TERRAIN = GridTable(
    "Terrain",
    ("movement", "blocks_sight"),
    {
        "hill": ("open", True),
        "wood": ("difficult", True),
        "dense_wood": ("difficult", True),
        "rough": ("difficult", False),
        "marsh": ("difficult", False),
        "river": ("impassable", False),
        "stream": ("obstacle", False),
        "road": ("road", False),
        "village": ("difficult", True),
        "linear_obstacle": ("obstacle", False),
        "fortification": ("obstacle", True),
        "impassable": ("impassable", True),
        "gentle_hill": ("open", False),
        "bridge": ("open", False),  # a river barred elsewhere is crossed here (measure.py)
        "ford": ("difficult", False),
    },
)


# kinds_where's answers, for the table they were read from: a move asks four times, so the
# sheet is read once per table (a table swapped for another, as a test does, is read afresh).
_KINDS: dict[tuple[str, object], frozenset[str]] = {}
_KINDS_OF: list[GridTable] = []


def kinds_where(column: str, value: object) -> frozenset[str]:
    """The terrain kinds whose cell in ``column`` equals ``value``."""
    if not _KINDS_OF or _KINDS_OF[0] is not TERRAIN:
        _KINDS.clear()
        _KINDS_OF[:] = [TERRAIN]
    key = (column, value)
    found = _KINDS.get(key)
    if found is None:
        found = frozenset(kind for kind in TERRAIN.rows if TERRAIN.lookup(kind, column) == value)
        _KINDS[key] = found
    return found
