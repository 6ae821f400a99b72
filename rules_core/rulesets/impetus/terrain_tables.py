"""The two terrain tables of the DEPLOYMENT box (steps 2-4), as the sheet prints them.

Each row is the sheet's text, read by ``choices``: a comma-separated list of features, where a
size ("Small", "Large" or "Small/Large") carries over to the following features of the row
that take a size until another size is named ("Small Brk, Dft, Gentle Hill" offers a small
broken ground, a small difficult ground and a small gentle hill). That reading is listed in
``README_prebattle.md``. The player rolls 2D6 on the table of his army and chooses one feature
of the row; what a feature is on the table (its terrain kind, its size) is ``FEATURES``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core.tables import Band, ScoreTable

NONE = "none"
MOVE_ENEMY = "move_enemy"  # "can move enemy terrain"
REMOVE_ENEMY = "remove_enemy"  # "Can remove enemy terrain"
ACTIONS = frozenset({MOVE_ENEMY, REMOVE_ENEMY})

SMALL = "small"
LARGE = "large"


@dataclass(frozen=True)
class Feature:
    """What one choice of a row lays: ``kind`` a terrain kind (None for no piece or an
    action on enemy terrain), ``size`` small or large for an area piece, ``grade`` the sheet's
    class of ground (broken, difficult, impassable) where it has one."""

    key: str
    label: str
    kind: str | None = None
    size: str | None = None
    grade: str | None = None

    @property
    def linear(self) -> bool:
        """A road or a river: it runs from one table edge to the opposite."""
        return self.kind in ("road", "river")

    @property
    def crossing(self) -> bool:
        """A bridge or a ford: laid over a river."""
        return self.kind in ("bridge", "ford")

    @property
    def words(self) -> str:
        """The feature in full words, as a map names it ("Small Brk": "small broken ground")."""
        return " ".join(ABBREVIATIONS.get(word, word.lower()) for word in self.label.split())


def _sized(key: str, label: str, kind: str, grade: str | None) -> dict[str, Feature]:
    return {
        f"{size}_{key}": Feature(f"{size}_{key}", f"{size.capitalize()} {label}", kind, size, grade)
        for size in (SMALL, LARGE)
    }


# The sheet's abbreviations, in full words.
ABBREVIATIONS = {"Brk": "broken ground", "Dft": "difficult ground", "Imp": "impassable ground"}

FEATURES: dict[str, Feature] = {
    NONE: Feature(NONE, "None"),
    **_sized("brk", "Brk", "rough", "broken"),
    **_sized("dft", "Dft", "wood", "difficult"),
    **_sized("gentle_hill", "Gentle Hill", "gentle_hill", None),
    **_sized("imp", "Imp", "impassable", "impassable"),
    "road": Feature("road", "Road", "road"),
    "river": Feature("river", "River", "river"),
    "village": Feature("village", "Village", "village", SMALL),
    "bridge": Feature("bridge", "Bridge", "bridge"),
    "ford": Feature("ford", "Ford", "ford"),
    MOVE_ENEMY: Feature(MOVE_ENEMY, "Move enemy terrain"),
    REMOVE_ENEMY: Feature(REMOVE_ENEMY, "Remove enemy terrain"),
}

# Each kind of ground the sheet grades, in its grade's words ("rough": "broken ground"), for
# a map's key: the same words as the pieces' labels ("small broken ground").
GRADE_WORDS: dict[str, str] = {
    f.kind: ABBREVIATIONS[f.label.split()[-1]]
    for f in FEATURES.values()
    if f.kind is not None and f.grade is not None
}

# The sheet's names of a feature, lower case, to the key without its size.
_NAMES = {
    "none": NONE,
    "brk": "brk",
    "dft": "dft",
    "gentle hill": "gentle_hill",
    "imp": "imp",
    "road": "road",
    "river": "river",
    "village": "village",
    "bridge": "bridge",
    "ford": "ford",
    "can move enemy terrain": MOVE_ENEMY,
    "can remove enemy terrain": REMOVE_ENEMY,
}
_SIZES = {"small/large": (SMALL, LARGE), "small": (SMALL,), "large": (LARGE,)}
_TAKES_SIZE = frozenset({"brk", "dft", "gentle_hill", "imp"})

FOOT = "foot"
MOUNTED = "mounted"

# + FOOT Units
FOOT_TABLE = ScoreTable(
    "Terrain Table (FOOT Units)",
    (
        Band(2, 4, "None"),
        Band(5, 7, "Small Brk, Dft, Gentle Hill"),
        Band(8, 9, "None, Road, Small/Large Dft"),
        Band(10, 11, "Large Brk, Dft, Small/Large Imp"),
        Band(12, 12, "None, River, Village"),
    ),
)

# + Mtd Units (not EL, W)
MOUNTED_TABLE = ScoreTable(
    "Terrain Table (Mtd Units, not EL, W)",
    (
        Band(2, 4, "Large Brk"),
        Band(5, 6, "None, Road, Small/Large Gentle Hill, Small Brk"),
        Band(7, 9, "None, Small/Large Dft, Imp"),
        Band(10, 11, "None, Bridge, Ford, can move enemy terrain"),
        Band(12, 12, "Can remove enemy terrain"),
    ),
)

TERRAIN_TABLES = {FOOT: FOOT_TABLE, MOUNTED: MOUNTED_TABLE}


def choices(band: Band) -> tuple[Feature, ...]:
    """The features a row offers, in the sheet's order (see the module's note on sizes)."""
    found: list[Feature] = []
    sizes: tuple[str, ...] = ()
    for item in band.result.split(","):
        words = item.strip()
        lower = words.lower()
        for prefix, named in _SIZES.items():
            if lower.startswith(prefix + " "):
                sizes = named
                lower = lower[len(prefix) + 1 :]
                break
        key = _NAMES.get(lower)
        if key is None:
            raise ValueError(f"terrain table row {band.scores}: unknown feature {words!r}")
        if key in _TAKES_SIZE:
            if not sizes:
                raise ValueError(f"terrain table row {band.scores}: {words!r} has no size")
            found.extend(FEATURES[f"{size}_{key}"] for size in sizes)
        else:
            found.append(FEATURES[key])
    return tuple(found)


def row_choices(table: str, score: int) -> tuple[Feature, ...]:
    """The features the row of ``table`` (foot or mounted) for a 2D6 ``score`` offers."""
    return choices(TERRAIN_TABLES[table].lookup(score))
