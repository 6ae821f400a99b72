"""A sample battle from the two sample armies: the King's Army against Parliament on the
default 72 by 48 inch table.

Positions, terrain and every profile value are editable defaults for tests and demonstrations.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.codec import Json
from rules_core.rulesets.pike_and_shot import command
from rules_core.rulesets.pike_and_shot.profiles import forces, group_of, load_army, unit_from_entry
from rules_core.samples import Army, Places, placed_army, sample_state
from rules_core.state import BattleState, Side, TerrainFeature, Unit

WIDTH, DEPTH = 72.0, 48.0
# Where each unit of the sample armies stands (x, y), in army file order.
ROYALISTS_AT = (
    (8.0, 5.0),
    (15.0, 5.0),
    (24.0, 5.0),
    (32.0, 5.0),
    (40.0, 5.0),
    (46.0, 5.0),
    (56.0, 5.0),
    (64.0, 5.0),
)
PARLIAMENT_AT = (
    (64.0, 43.0),
    (26.0, 43.0),
    (34.0, 43.0),
    (42.0, 43.0),
    (50.0, 43.0),
    (56.0, 43.0),
    (8.0, 43.0),
    (16.0, 43.0),
)
TERRAIN = (
    TerrainFeature("wood", "wood", ((0, 20), (5, 20), (5, 28), (0, 28)), "Radway Wood"),
    TerrainFeature("hedge", "linear_obstacle", ((44, 33), (54, 33)), "Hedge"),
)


def _army(data: Mapping[str, Json], side: str, places: Places, facing: float) -> Army:
    """The units, commanders and wings of one sample army, placed."""

    def make(entry: Mapping[str, Json], unit_id: str) -> Unit:
        """One unit, in the wing its entry names."""
        return unit_from_entry(entry, unit_id, side, group_of(entry, side, ""))

    return placed_army(data, side, places, facing, forces, make)


def sample_battle(battle_id: str = "pas-edgehill", max_turns: int = 6) -> BattleState:
    """The King's Army and Parliament deployed for battle, ready for ``engine.begin``."""
    king, parliament = load_army("royalists"), load_army("parliament")
    armies = (
        (
            Side("royalists", str(king["name"]), {"deploy_zone": [0.0, 12.0]}),
            _army(king, "royalists", ROYALISTS_AT, 0.0),
        ),
        (
            Side("parliament", str(parliament["name"]), {"deploy_zone": [36.0, 48.0]}),
            _army(parliament, "parliament", PARLIAMENT_AT, 180.0),
        ),
    )
    state = sample_state(
        battle_id,
        "pike_and_shot",
        (WIDTH, DEPTH),
        armies,
        TERRAIN,
        parameters={"max_turns": max_turns},
        status={"name": "Edgehill (sample)"},
    )
    return command.prepare(state)
