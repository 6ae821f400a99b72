"""The skirmish rules with a terrain table: 1D3+1 pieces, each rolled on 1D6."""

from __future__ import annotations

from rules_core.rulesets.skirmish.rules import SkirmishRules
from rules_core.state import BattleState
from rules_core.tables import Band, ScoreTable
from rules_core.terrain_tables import NOTHING, TerrainPiece, TerrainTable

TERRAIN = TerrainTable(
    "Terrain table",
    count="1d3+1",
    roll="1d6",
    table=ScoreTable(
        "Terrain piece",
        (
            Band(1, 1, NOTHING, "open ground"),
            Band(2, 2, "wood"),
            Band(3, 3, "hill"),
            Band(4, 4, "gentle_hill"),
            Band(5, 5, "marsh"),
            Band(6, 6, "pond"),
        ),
    ),
    pieces={
        "wood": TerrainPiece("wood", "Copse", 8.0, 6.0),
        "hill": TerrainPiece("hill", "Hill", 10.0, 6.0),
        "gentle_hill": TerrainPiece("gentle_hill", "Rise", 10.0, 8.0),
        "marsh": TerrainPiece("marsh", "Bog", 6.0, 4.0),
        "pond": TerrainPiece("impassable", "Pond", 4.0, 4.0),
    },
)


class TerrainRollRules(SkirmishRules):
    """Skirmish, with terrain rolled on a table."""

    def terrain_table(self, state: BattleState) -> TerrainTable | None:
        """The one terrain table."""
        return TERRAIN
