"""Skirmish measurements: what a move costs through terrain, how far a unit can get, sight."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

from rules_core.codec import Json
from rules_core.geometry import (
    Footprint,
    Point,
    around,
    facing_towards,
    interpenetrated,
    near,
    range_from_front,
    within,
)
from rules_core.rulesets.skirmish.tables import kinds_where
from rules_core.state import WATER_KINDS, BattleState, TerrainFeature, Unit
from rules_core.terrain import Sight, line_of_sight, poses_along, trace_footprint
from rules_core.toolkit import param_number

K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True)
class MoveCost:
    """What a straight move costs: inches of allowance used, the allowance, notes, a bar."""

    cost: float
    allowance: float
    notes: tuple[str, ...]
    barred_by: str = ""

    @property
    def possible(self) -> bool:
        """True if the move is allowed and within the allowance."""
        return not self.barred_by and within(self.cost, self.allowance)


def allowance(unit: Unit) -> float:
    """A unit's move in inches, from its profile."""
    value = unit.get("move", 0)
    assert isinstance(value, int | float)
    return float(value)


def move_cost(state: BattleState, unit: Unit, end: Point, params: Mapping[str, Json]) -> MoveCost:
    """The cost of moving a unit straight to ``end`` through the terrain its base goes over."""
    report = trace_footprint(poses_along(Footprint.of(unit), [end]), state.terrain)
    notes: list[str] = []
    # The terrain table is read on every move, so a changed cell changes play.
    impassable = kinds_where("movement", "impassable")
    # Water that bars the way is crossed at a bridge or ford, if there is one on the path.
    water = impassable & WATER_KINDS
    barred = report.crossed(impassable - water) + report.crossed_outside(water)
    if barred or report.length_in(impassable):
        return MoveCost(report.length, allowance(unit), (), "impassable terrain")
    difficult = report.length_in(kinds_where("movement", "difficult"))
    extra = difficult * (param_number(params, "difficult_factor") - 1)
    if difficult:
        notes.append(f'{round(difficult, 1):g}" in difficult terrain counts double')
    obstacle = kinds_where("movement", "obstacle")
    # A line is crossed; an area (a fortification) is entered: each counts as one obstacle.
    obstacles = report.crossed(obstacle) + sum(1 for item in report.inside if item.kind in obstacle)
    extra += obstacles * param_number(params, "obstacle_cost")
    if obstacles:
        notes.append(f"crosses {obstacles} obstacle{'s' if obstacles > 1 else ''}")
    limit = allowance(unit)
    if report.all_on_road and "road" in kinds_where("movement", "road"):
        limit += param_number(params, "road_bonus")
        notes.append("follows the road")
    return MoveCost(round(report.length + extra, 6), limit, tuple(notes))


def farthest(state: BattleState, unit: Unit, end: Point, params: Mapping[str, Json]) -> Point:
    """The farthest point towards ``end`` the unit can reach (halving the search 30 times)."""
    if move_cost(state, unit, end, params).possible:
        return end
    low, high = 0.0, 1.0
    for _ in range(30):
        middle = (low + high) / 2
        point = _between((unit.x, unit.y), end, middle)
        low, high = (
            (middle, high) if move_cost(state, unit, point, params).possible else (low, middle)
        )
    x, y = _between((unit.x, unit.y), end, low)
    return (round(x, 2), round(y, 2))


def _between(a: Point, b: Point, share: float) -> Point:
    return (a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share)


def passes_through(state: BattleState, unit: Unit, end: Footprint, spare: str = "") -> str:
    """The name of the first other unit a move would pass through, or "" if none."""
    poses = [Footprint.of(unit), end]
    others = [
        (u.name, Footprint.of(u))
        for u in near(state.units_on_table, around(poses))
        if u.id not in (unit.id, spare)
    ]
    found = interpenetrated(poses, others)
    return found[0] if found else ""


def sight(state: BattleState, viewer: Unit, target: Unit) -> Sight:
    """Line of sight between two units; other units and blocking terrain block it."""
    seen, aimed = Footprint.of(viewer), Footprint.of(target)
    # Only units whose boxes meet the box of the two can block (line_of_sight tests exactly
    # within it): a box filter instead of a footprint for every unit on the table.
    others = tuple(
        (u.id, Footprint.of(u))
        for u in near(state.units_on_table, around((seen, aimed)))
        if u.id not in (viewer.id, target.id)
    )
    blockers = kinds_where("blocks_sight", True)
    # A shot is judged when ordered and measured again when fired, on the same ground.
    key = (seen, aimed, others, blockers, id(state.terrain))
    kept = _SIGHTS.get(key)
    if kept is not None and kept[0] is state.terrain:
        return kept[1]
    found = line_of_sight(seen, aimed, state.terrain, others, blockers)
    _keep(_SIGHTS, key, (state.terrain, found))
    return found


def charge_line(charger: Unit, target: Unit) -> tuple[Footprint, float]:
    """The charger turned to face the target, and how far its front must go to touch it."""
    here, there = Footprint.of(charger), Footprint.of(target)
    # Judged when ordered, again when the charge is made: the same two bases, the same line.
    found = _LINES.get((here, there))
    if found is None:
        turned = here.moved_to(
            (charger.x, charger.y), facing_towards((here.x, here.y), (there.x, there.y))
        )
        found = (turned, range_from_front(turned, there))
        _keep(_LINES, (here, there), found)
    return found


# What sight and charge_line worked out, by everything their answer depends on (kept
# bounded: a battle's questions repeat within a step, not across the whole game).
_SIGHTS: dict[tuple[object, ...], tuple[tuple[TerrainFeature, ...], Sight]] = {}
_LINES: dict[tuple[Footprint, Footprint], tuple[Footprint, float]] = {}
_KEPT = 4_096


def _keep(kept: dict[K, V], key: K, value: V) -> None:
    """Keep an answer, forgetting them all once there are too many."""
    if len(kept) >= _KEPT:
        kept.clear()
    kept[key] = value
