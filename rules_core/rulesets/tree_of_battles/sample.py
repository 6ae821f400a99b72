"""A sample battle from the two sample armies: Agincourt, 1415, on a 24 by 20 SF table.

Positions, terrain and every profile value are editable defaults for tests and demonstrations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules_core.codec import Json
from rules_core.forces import placed_units
from rules_core.rulesets.tree_of_battles.profiles import (
    leader_from_entry,
    load_army,
    unit_from_entry,
)
from rules_core.state import Battlefield, BattleState, Group, Leader, Side, TerrainFeature, Unit
from rules_core.steps import Cursor

WIDTH, DEPTH = 24.0, 20.0
# Where each unit of the sample armies stands: x, y and facing, in army file order.
ENGLISH_AT = ((4.0, 3.0), (8.5, 3.0), (12.0, 3.0), (15.5, 3.0), (20.0, 3.0), (12.0, 0.8))
FRENCH_AT = ((4.0, 15.5), (9.0, 16.0), (13.0, 16.0), (18.0, 15.0), (22.0, 18.0), (15.0, 13.5))
TERRAIN = (
    TerrainFeature("azincourt", "wood", ((0, 7), (2, 7), (2, 13), (0, 13)), "Azincourt wood"),
    TerrainFeature(
        "tramecourt", "dense_wood", ((22.5, 6), (24, 6), (24, 12), (22.5, 12)), "Tramecourt wood"
    ),
    TerrainFeature("ploughland", "rough", ((6, 8), (16, 8), (16, 11), (6, 11)), "Ploughed field"),
    TerrainFeature(
        "stakes",
        "linear_obstacle",
        ((1.5, 4.2), (6.5, 4.2)),
        "Archers' stakes",
        {"defensive": True},
    ),
    TerrainFeature("road", "road", ((12, 0), (12, 20)), "Road to Calais", {"width": 1}),
)


def _army(
    data: Mapping[str, Json], side: str, places: tuple[tuple[float, float], ...], facing: float
) -> tuple[list[Unit], list[Leader]]:
    """The units and leaders of one sample army, placed."""

    def make(entry: Mapping[str, Json], unit_id: str) -> Unit:
        """One contingent, in its side's host."""
        return unit_from_entry(entry, unit_id, side, f"{side}_host")

    units = placed_units(data, side[0], places, facing, make)
    by_name = {unit.name: unit for unit in units}
    leaders = []
    listed = data.get("leaders") or []
    assert isinstance(listed, list)
    for entry in listed:
        assert isinstance(entry, dict)
        leader = leader_from_entry(entry, side, f"{side}_host")
        home = by_name[str(entry["with"])]
        leaders.append(replace(leader, attached_to=home.id, x=home.x, y=home.y))
    return units, leaders


def sample_battle(battle_id: str = "tob-agincourt", max_turns: int = 4) -> BattleState:
    """The English and French sample armies deployed for battle, ready for ``engine.begin``."""
    english, french = load_army("english"), load_army("french")
    e_units, e_leaders = _army(english, "english", ENGLISH_AT, 0.0)
    f_units, f_leaders = _army(french, "french", FRENCH_AT, 180.0)
    return BattleState(
        battle_id=battle_id,
        ruleset="tree_of_battles",
        battlefield=Battlefield(WIDTH, DEPTH, "SF", 40.0),
        cursor=Cursor(0, "setup", "", ("english", "french")),
        sides=(Side("english", "England"), Side("french", "France")),
        groups=(
            Group("english_host", str(english["name"]), "english", "army", "henry"),
            Group("french_host", str(french["name"]), "french", "army", "albret"),
        ),
        leaders=tuple(e_leaders + f_leaders),
        units=tuple(e_units + f_units),
        terrain=TERRAIN,
        parameters={"max_turns": max_turns},
    )
