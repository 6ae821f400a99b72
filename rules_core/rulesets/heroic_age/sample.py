"""A sample battle from the two sample armies: Saxons against Danes on a 36 by 24 inch table.

Positions, terrain and every profile value are editable defaults for tests and demonstrations.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.codec import Json
from rules_core.rulesets.heroic_age import forces
from rules_core.rulesets.heroic_age.profiles import load_army, unit_from_entry
from rules_core.samples import Army, Places, placed_army, sample_state
from rules_core.state import BattleState, Group, Side, TerrainFeature, Unit

WIDTH, DEPTH = 36.0, 24.0
# Where each unit of the sample armies stands (x, y), in army file order.
SAXONS_AT = ((6.0, 4.0), (11.0, 4.0), (15.5, 4.0), (20.5, 4.0), (28.0, 5.0))
DANES_AT = ((8.0, 20.0), (13.0, 20.0), (18.0, 20.0), (23.0, 20.0), (30.0, 19.0))
TERRAIN = (
    TerrainFeature("wood", "wood", ((0, 9), (3, 9), (3, 15), (0, 15)), "Selwood"),
    TerrainFeature("hill", "hill", ((31, 10), (36, 10), (36, 15), (31, 15)), "Barrow hill"),
)


def _army(data: Mapping[str, Json], side: str, places: Places, facing: float) -> Army:
    """The units, leaders and contingents of one sample army, placed."""

    def make(entry: Mapping[str, Json], unit_id: str) -> Unit:
        """One unit, in the contingent its entry names (else the side's main group)."""
        return unit_from_entry(entry, unit_id, side, forces.group_of(entry, side, f"{side}_main"))

    return placed_army(data, side, places, facing, forces.forces, make)


def sample_battle(battle_id: str = "heroic-ethandun", max_turns: int = 6) -> BattleState:
    """The Saxon and Danish sample armies deployed for battle, ready for ``engine.begin``."""
    saxons, danes = load_army("saxons"), load_army("danes")
    armies = (
        (
            Side("saxons", "Wessex", {"deploy_zone": [0.0, 8.0]}),
            _army(saxons, "saxons", SAXONS_AT, 0.0),
        ),
        (
            Side("danes", "The Danes", {"deploy_zone": [16.0, 24.0]}),
            _army(danes, "danes", DANES_AT, 180.0),
        ),
    )
    mains = (
        Group("saxons_main", str(saxons["name"]), "saxons", "army"),
        Group("danes_main", str(danes["name"]), "danes", "army"),
    )
    state = sample_state(
        battle_id,
        "heroic_age",
        (WIDTH, DEPTH),
        armies,
        TERRAIN,
        mains,
        parameters={"max_turns": max_turns},
    )
    return forces.prepare(state)
