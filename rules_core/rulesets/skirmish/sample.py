"""A sample skirmish battle: two small armies across a table with a wood, stream, road, hill.

These are editable defaults for tests and the design note, not a balanced scenario.
"""

from __future__ import annotations

from rules_core.codec import Json
from rules_core.state import (
    Battlefield,
    BattleState,
    Group,
    Leader,
    Side,
    TerrainFeature,
    Unit,
)
from rules_core.steps import Cursor

INFANTRY = {"move": 6, "melee": 3, "stamina": 3}
ARCHERS = {"move": 6, "range": 12, "shoot": 3, "melee": 1, "stamina": 2}
SLINGERS = {"move": 6, "range": 9, "shoot": 2, "melee": 1, "stamina": 2}
HORSE = {"move": 9, "melee": 3, "stamina": 2}
SAMPLE_ARMIES: tuple[dict[str, Json], ...] = (
    {
        "name": "Red Host",
        "units": [
            {"name": "Red Spearmen", "type": "infantry", "move": 6, "stamina": 3},
            {"name": "Red Archers", "type": "archers", "move": 6, "stamina": 2},
            {"name": "Red Horse", "type": "cavalry", "move": 9, "stamina": 2},
        ],
    },
    {
        "name": "Blue Host",
        "units": [
            {"name": "Blue Warriors", "type": "infantry", "move": 6, "stamina": 3},
            {"name": "Blue Slingers", "type": "skirmishers", "move": 6, "stamina": 2},
            {"name": "Blue Riders", "type": "cavalry", "move": 9, "stamina": 2},
        ],
    },
)
PROFILES = {"infantry": INFANTRY, "archers": ARCHERS, "skirmishers": SLINGERS, "cavalry": HORSE}


def _unit(key: str, name: str, side: str, kind: str, x: float, profile: dict[str, int]) -> Unit:
    y, facing = (4.0, 0.0) if side == "red" else (32.0, 180.0)
    return Unit(
        key,
        name,
        side,
        f"{side}_main",
        kind,
        "B",
        4.0,
        2.0,
        x,
        y,
        facing,
        stands=2,
        formation="line",
        profile=dict(profile),
    )


def sample_battle(battle_id: str = "skirmish-1") -> BattleState:
    """A ready-to-begin skirmish: 48 by 36 inches, three units a side."""
    return BattleState(
        battle_id=battle_id,
        ruleset="skirmish",
        battlefield=Battlefield(48.0, 36.0, "inch", 25.4),
        cursor=Cursor(0, "setup", "deploy", ("red", "blue")),
        sides=(
            Side("red", "Red", {"units": 3, "deploy_zone": [0, 8]}),
            Side("blue", "Blue", {"units": 3, "deploy_zone": [28, 36]}),
        ),
        groups=(
            Group("red_main", "Red Host", "red", "contingent", "red_lord"),
            Group("blue_main", "Blue Host", "blue", "contingent", "blue_lord"),
        ),
        leaders=(
            Leader("red_lord", "Earl Aelfric", "red", "red_main", 24.0, 2.0, points=3),
            Leader("blue_lord", "Jarl Sigurd", "blue", "blue_main", 24.0, 34.0, points=3),
        ),
        units=(
            _unit("r1", "Red Spearmen", "red", "infantry", 12.0, INFANTRY),
            _unit("r2", "Red Archers", "red", "archers", 24.0, ARCHERS),
            _unit("r3", "Red Horse", "red", "cavalry", 36.0, HORSE),
            _unit("b1", "Blue Warriors", "blue", "infantry", 12.0, INFANTRY),
            _unit("b2", "Blue Slingers", "blue", "skirmishers", 24.0, SLINGERS),
            _unit("b3", "Blue Riders", "blue", "cavalry", 36.0, HORSE),
        ),
        terrain=(
            TerrainFeature("wood1", "wood", ((14, 14), (22, 14), (22, 22), (14, 22)), "Thornwood"),
            TerrainFeature("stream1", "stream", ((26, 16), (48, 20)), "Mill Stream"),
            TerrainFeature("road1", "road", ((36, 0), (36, 36)), "North Road", {"width": 2}),
            TerrainFeature("hill1", "hill", ((2, 24), (10, 24), (10, 30), (2, 30)), "Gallows Hill"),
        ),
    )
