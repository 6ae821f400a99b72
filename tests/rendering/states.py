"""Battle states and events the rendering tests draw, built here so the golden images change
only when the renderer does (not when a ruleset's sample battle or names change)."""

from __future__ import annotations

from dataclasses import replace

from rules_core.codec import Json
from rules_core.events import Event, MeleeFought, ShotFired, StatusChanged, UnitMoved
from rules_core.state import (
    TERRAIN_KINDS,
    Battlefield,
    BattleState,
    Group,
    Leader,
    Side,
    TerrainFeature,
    Unit,
)
from rules_core.steps import Cursor

RULESET = "rendering-tests"  # not registered: titles show the step id, names stay put
PROFILES: dict[str, dict[str, Json]] = {
    "infantry": {"move": 6},
    "archers": {"move": 6, "range": 12},
    "skirmishers": {"move": 6, "range": 9},
    "cavalry": {"move": 9},
}


def _unit(key: str, name: str, side: str, kind: str, x: float) -> Unit:
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
        profile=PROFILES[kind],
    )


def start() -> BattleState:
    """A small battle at deployment, like the skirmish ruleset's sample: 48 by 36 inches."""
    return BattleState(
        battle_id="skirmish-1",
        ruleset=RULESET,
        battlefield=Battlefield(48.0, 36.0, "inch", 25.4),
        cursor=Cursor(0, "setup", "deploy", ("red", "blue")),
        sides=(
            Side("red", "Red", {"deploy_zone": [0, 8]}),
            Side("blue", "Blue", {"deploy_zone": [28, 36]}),
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
            _unit("r1", "Red Spearmen", "red", "infantry", 12.0),
            _unit("r2", "Red Archers", "red", "archers", 24.0),
            _unit("r3", "Red Horse", "red", "cavalry", 36.0),
            _unit("b1", "Blue Warriors", "blue", "infantry", 12.0),
            _unit("b2", "Blue Slingers", "blue", "skirmishers", 24.0),
            _unit("b3", "Blue Riders", "blue", "cavalry", 36.0),
        ),
        terrain=(
            TerrainFeature("wood1", "wood", ((14, 14), (22, 14), (22, 22), (14, 22)), "Thornwood"),
            TerrainFeature("stream1", "stream", ((26, 16), (48, 20)), "Mill Stream"),
            TerrainFeature("road1", "road", ((36, 0), (36, 36)), "North Road", {"width": 2}),
            TerrainFeature("hill1", "hill", ((2, 24), (10, 24), (10, 30), (2, 30)), "Gallows Hill"),
        ),
    )


def mid_battle() -> tuple[BattleState, tuple[Event, ...]]:
    """Turn 2, Red's movement: a charge into contact, a move on the road, a shot, wounds."""
    state = start()
    cursor = Cursor(2, "main", "move", ("red", "blue"))
    moved = {
        "r1": dict(x=12.0, y=20.0, facing=0.0),  # front edge at y 21 touches b1's front
        "b1": dict(x=12.0, y=22.0, facing=180.0),
        "r3": dict(x=36.0, y=12.0, facing=0.0),
        "b2": dict(x=25.0, y=27.0, facing=200.0, status={"wounds": 1, "disordered": True}),
        "r2": dict(x=24.0, y=10.0, facing=10.0, status={"charged": True}),
    }
    units = tuple(replace(u, **moved.get(u.id, {})) for u in state.units)  # type: ignore[arg-type]
    state = replace(state, cursor=cursor, units=units)
    events: tuple[Event, ...] = (
        UnitMoved("r1", ((12.0, 4.0), (12.0, 20.0)), 16.0, 0.0, ("charges home",)),
        UnitMoved("r3", ((36.0, 4.0), (36.0, 12.0)), 8.0, 0.0, ("follows the road",)),
        ShotFired("r2", "b2"),
        StatusChanged("b2", "wounds", None, 1, "shot by Red Archers"),
        MeleeFought("r1", "b1"),
    )
    return state, events


# A value that shows for each default badge key.
BADGE_VALUES: dict[str, Json] = {
    "dps": 3,
    "casualties": 2,
    "losses": 1,
    "wounds": 1,
    "cohesion": "Disrupted",
    "aggression": "Blood Lust",
    "array": "disarray",
    "freshness": "exhausted",
    "disordered": True,
    "shaken": True,
    "routed": True,
}


def one_unit(status: dict[str, Json] | None = None, facing: float = 0.0) -> BattleState:
    """A bare 24 by 16 inch table with one unit in the middle."""
    unit = Unit(
        "u1",
        "Hearth Guard",
        "red",
        "g",
        "infantry",
        "A",
        4.0,
        2.0,
        12.0,
        8.0,
        facing,
        stands=2,
        status=status or {},
    )
    return BattleState(
        "one",
        "no_rules_yet",
        Battlefield(24.0, 16.0, "inch", 25.4),
        Cursor(1, "main", "movement", ("red", "blue")),
        (Side("red", "Red", {"edge": "S"}), Side("blue", "Blue", {"edge": "N"})),
        units=(unit,),
    )


def with_terrain(*features: TerrainFeature) -> BattleState:
    """The bare table with some terrain and no units."""
    return replace(one_unit(), units=(), terrain=features)


def feature_of(kind: str, style: str = "") -> TerrainFeature:
    """A feature of a kind across the middle of the bare table (a line for linear kinds)."""
    if kind in ("river", "stream", "road", "linear_obstacle"):
        points: tuple[tuple[float, float], ...] = ((4.0, 6.0), (12.0, 9.0), (20.0, 8.0))
    else:
        points = ((6.0, 4.0), (18.0, 4.0), (18.0, 12.0), (6.0, 12.0))
    return TerrainFeature(f"{kind}-{style}", kind, points, "", {"type": style} if style else {})


def showcase() -> BattleState:
    """Every kind of terrain and every default badge, with leaders, on a 48 by 36 table."""
    spots = [(x, y) for y in (6.0, 18.0, 30.0) for x in (6.0, 16.0, 26.0, 36.0)]
    areas = [k for k in TERRAIN_KINDS if k not in ("river", "stream", "road", "linear_obstacle")]
    terrain = [
        TerrainFeature(
            kind,
            kind,
            ((x - 4, y - 3), (x + 4, y - 3), (x + 4, y + 3), (x - 4, y + 3)),
            kind.replace("_", " ").title(),
        )
        for kind, (x, y) in zip(areas, spots, strict=False)
    ]
    terrain += [
        TerrainFeature("river", "river", ((0, 24), (20, 22), (48, 25)), "Great River"),
        TerrainFeature("stream", "stream", ((30, 36), (32, 24)), "Brook"),
        TerrainFeature("road", "road", ((0, 12), (48, 14)), "Old Road", {"width": 1.5}),
    ]
    terrain += [
        TerrainFeature(
            style, "linear_obstacle", ((x, 33), (x + 8, 34)), style.title(), {"type": style}
        )
        for style, x in (("hedge", 2.0), ("wall", 13.0), ("stakes", 24.0), ("fence", 35.0))
    ]
    units = [
        Unit(
            f"u{i}",
            f"Warband {i + 1}",
            "red" if i % 2 else "blue",
            "g",
            "warband",
            "B",
            4.0,
            2.0,
            4.0 + (i % 6) * 8.0,
            3.0 + (i // 6) * 10.0,
            0.0 if i % 2 else 180.0,
            stands=2,
            status={key: value},
        )
        for i, (key, value) in enumerate(BADGE_VALUES.items())
    ]
    leaders = (
        Leader("king", "King Hrothgar", "blue", None, 20.0, 35.0, wounds=1),
        Leader("earl", "Earl Beorn", "red", None, 28.0, 1.0, status={"killed": True}),
    )
    return BattleState(
        "showcase",
        "no_rules_yet",
        Battlefield(48.0, 36.0, "inch", 25.4),
        Cursor(4, "main", "combat", ("blue", "red")),
        (Side("blue", "Blue"), Side("red", "Red")),
        leaders=leaders,
        units=tuple(units),
        terrain=tuple(terrain),
    )


def behind_the_wood() -> BattleState:
    """Red faces north towards a wood; one Blue unit stands behind it, one in the open."""
    red = Unit("watch", "Watchmen", "red", "g", "infantry", "B", 4.0, 2.0, 12.0, 3.0, 0.0)
    hidden = replace(red, id="hidden", name="Hidden Band", side="blue", y=14.0, facing=180.0)
    seen = replace(hidden, id="open", name="Open Band", x=21.0, y=10.0)
    wood = TerrainFeature("wood", "wood", ((8.0, 7.0), (16.0, 7.0), (16.0, 11.0), (8.0, 11.0)))
    return replace(one_unit(), units=(red, hidden, seen), terrain=(wood,))
