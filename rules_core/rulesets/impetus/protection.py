"""What stands between a unit and an enemy, found from the table (not passed by a caller):
fortification pieces (the pre-battle ``fortify`` step lays them), cover (woods, villages,
linear obstacles, a pavise, a W), sight, evaders.

Shooting reads it for its situational modifiers; melee for the impact nullified against
"troops in Fortifications" and the cohesion row "Defending ... Fortification".

"Behind" (silent on the sheet): the piece or obstacle lies across the line from the enemy's
centre to the unit's, and within ``behind_reach`` H of the unit (``prebattle.PARAMETERS``).
A fortification protects the side that laid it (its ``fortified_by``; one no side laid, any
side); a unit whose centre stands in one is in it, whichever way the enemy comes.
"""

from __future__ import annotations

from dataclasses import replace

from shapely.geometry import LineString, Polygon

from rules_core.geometry import Footprint, quarter, within
from rules_core.rulesets.impetus.prebattle import params_of
from rules_core.rulesets.impetus.spots import holds
from rules_core.state import BattleState, TerrainFeature, Unit
from rules_core.terrain import SIGHT_BLOCKING, feature_shape
from rules_core.toolkit import sight

Terrain = tuple[TerrainFeature, ...]
FORTIFICATION = "fortification"
COVER_KINDS = ("wood", "dense_wood", "village", "town")  # "on a Wood edge, BUA"
OBSTACLE_KINDS = ("linear_obstacle",)  # "behind Linear Obstacles"
# A field fortification is shot over ("behind fortifications"), not a screen: it does not
# make the shooting indirect.
SCREENS = SIGHT_BLOCKING - {FORTIFICATION}


def _reach(state: BattleState) -> float:
    value = params_of(state)["behind_reach"]
    return float(value) if isinstance(value, int | float) else 1.0


def _in(feature: TerrainFeature, unit: Unit) -> bool:
    return holds(feature, unit.x, unit.y)


def _behind(state: BattleState, unit: Unit, enemy: Unit, feature: TerrainFeature) -> bool:
    """The feature lies across the line from the enemy to the unit, close to the unit."""
    shape = feature_shape(feature)
    line = LineString([(enemy.x, enemy.y), (unit.x, unit.y)])
    body = Polygon(Footprint.of(unit).corners())
    return bool(shape.intersects(line)) and within(float(shape.distance(body)), _reach(state))


def fortification(state: BattleState, unit: Unit, enemy: Unit) -> TerrainFeature | None:
    """The fortification piece that protects the unit from this enemy (it stands in it, or
    behind it as the enemy sees it), or None."""
    for feature in state.terrain:
        owner = feature.properties.get("fortified_by")
        if feature.kind != FORTIFICATION or (isinstance(owner, str) and owner != unit.side):
            continue
        if _in(feature, unit) or _behind(state, unit, enemy, feature):
            return feature
    return None


def cover(state: BattleState, target: Unit, shooter: Unit) -> str | None:
    """Why the target is in cover from the shooter (the sheet's cover row), or None: a W, a
    target whose centre is in a wood or village, behind a linear obstacle, or behind its
    pavise (the shooter before its front)."""
    if target.type == "W":
        return "a W"
    for feature in state.terrain:
        if feature.kind in COVER_KINDS and _in(feature, target):
            return f"in {feature.name or feature.kind}"
        if feature.kind in OBSTACLE_KINDS and _behind(state, target, shooter, feature):
            return f"behind {feature.name or 'a linear obstacle'}"
    facing = quarter(Footprint.of(target), (shooter.x, shooter.y)) == "front"
    if target.profile.get("pavise") is True and facing:
        return "behind its pavise"
    return None


def indirect(state: BattleState, shooter: Unit, target: Unit) -> bool:
    """Whether the shooting is indirect: no sight line from the shooter reaches the target
    (other units and screening terrain block it; not the ground the target stands in, which
    is cover, nor a fortification, which is shot over)."""
    dropped = tuple(n for n, f in enumerate(state.terrain) if _in(f, target))
    terrain = _without(state.terrain, dropped)
    seen = sight(
        state if not dropped else replace(state, terrain=terrain), shooter, target, SCREENS
    )
    return not seen.clear


# Terrain without the features a target stands in, kept by the whole terrain's identity and
# what was left out: the same tuple again keeps ``line_of_sight``'s prepared layout of it.
_WITHOUT: dict[tuple[int, tuple[int, ...]], tuple[Terrain, Terrain]] = {}
_WITHOUT_MAX = 256


def _without(terrain: Terrain, dropped: tuple[int, ...]) -> Terrain:
    """``terrain`` without the features at the ``dropped`` places (itself if none)."""
    if not dropped:
        return terrain
    key = (id(terrain), dropped)
    kept = _WITHOUT.get(key)
    if kept is not None and kept[0] is terrain:
        return kept[1]
    found = tuple(f for n, f in enumerate(terrain) if n not in dropped)
    if len(_WITHOUT) >= _WITHOUT_MAX:
        _WITHOUT.clear()
    _WITHOUT[key] = (terrain, found)
    return found
