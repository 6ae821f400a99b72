"""What a piece of terrain is on the table, what it is called, and whose it is.

A feature's ``kind`` is how the rules treat its ground (a baggage camp is fought over as a
village). Its ``piece`` property says what it is when that is more than its kind (one of
``PIECES``), and a side's id under one of ``OWNER_KEYS`` whose it is. A map draws a feature by
``piece_of``, names it in ``WORDS`` and says its owner once, in its key (``owner_of``).
"""

from __future__ import annotations

from rules_core.state import TerrainFeature

PIECE = "piece"
# Pieces beyond the kinds of ground, each with the kind the rules usually treat it as.
PIECES: dict[str, str] = {
    "baggage": "village",  # a side's baggage camp: wagons and the army's train
    "camp": "fortification",  # a side's fortified camp: tents behind a ditch and rampart
}
# The properties naming the side a piece belongs to: ``owner``, or a ruleset's own word for it
# (Impetus: the side whose ``baggage`` camp it is, the side a fortification is ``fortified_by``).
OWNER_KEYS = ("owner", "baggage", "fortified_by")

# Each kind of ground and each piece in full words, as a map and its key name them.
WORDS: dict[str, str] = {
    "hill": "hill",
    "gentle_hill": "gentle hill",
    "wood": "wood",
    "dense_wood": "dense wood",
    "rough": "rough ground",
    "marsh": "marsh",
    "river": "river",
    "stream": "stream",
    "road": "road",
    "village": "village",
    "linear_obstacle": "obstacle",
    "fortification": "fortification",
    "impassable": "impassable ground",
    "bridge": "bridge",
    "ford": "ford",
    "baggage": "baggage camp",
    "camp": "fortified camp",
}


def piece_of(feature: TerrainFeature) -> str:
    """What the feature is on the table: its ``piece`` property, else its kind."""
    piece = feature.properties.get(PIECE)
    return piece if isinstance(piece, str) and piece in PIECES else feature.kind


def owner_of(feature: TerrainFeature) -> str | None:
    """The id of the side the piece belongs to, if it belongs to one."""
    for key in OWNER_KEYS:
        side = feature.properties.get(key)
        if isinstance(side, str) and side:
            return side
    return None


def words_for(piece: str) -> str:
    """A kind of ground or a piece in full words."""
    return WORDS.get(piece, piece.replace("_", " "))
