"""The map as one side sees it: enemies out of sight are drawn where last seen, or not at all."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from shapely import MultiPoint, STRtree

from rules_core.geometry import Footprint, distance
from rules_core.state import BattleState, Leader, Unit
from rules_core.terrain import SIGHT_BLOCKING, line_of_sight

LEADER_SIZE = 0.1  # a leader is seen as a point; a footprint this small stands in for it


@dataclass(frozen=True)
class SideView:
    """Draw the map for one side (fog of war).

    ``visible`` lists the enemy units the side can see; None works it out with the core's line
    of sight (terrain of the ``blocking`` kinds and other units block it). ``last_known`` holds
    enemy units as they were last seen, drawn as pale ghosts when out of sight now.
    """

    side: str
    visible: frozenset[str] | None = None
    last_known: Mapping[str, Unit] = field(default_factory=dict)
    blocking: frozenset[str] = SIGHT_BLOCKING


def visible_enemies(state: BattleState, view: SideView) -> frozenset[str]:
    """Ids of the enemy units the side sees (given, or worked out by line of sight)."""
    if view.visible is not None:
        return view.visible
    sight = _Sight(state, view)
    enemies = state.enemies_of(view.side, on_table=True)
    return frozenset(unit.id for unit in enemies if sight.sees(unit))


def visible_leaders(state: BattleState, view: SideView, seen: frozenset[str]) -> list[Leader]:
    """The side's own leaders and the enemy leaders it can see."""
    sight = _Sight(state, view)
    return [
        leader
        for leader in state.leaders
        if leader.side == view.side or leader.attached_to in seen or sight.sees_point(leader)
    ]


class _Sight:
    """Line of sight from any of the side's units, nearest first, with units as screens."""

    def __init__(self, state: BattleState, view: SideView) -> None:
        self.state, self.view = state, view
        self.feet = {unit.id: Footprint.of(unit) for unit in state.units_on_table}
        self.ids = [unit.id for unit in state.units_on_table]
        self.tree = STRtree([self.feet[key].polygon for key in self.ids])
        self.friends = state.units_of(view.side, on_table=True)

    def sees(self, enemy: Unit) -> bool:
        """True if some friendly unit has a clear line to the enemy unit."""
        return self._sees_footprint(enemy.id, self.feet[enemy.id])

    def sees_point(self, leader: Leader) -> bool:
        """True if some friendly unit has a clear line to a leader's position."""
        spot = Footprint(leader.x, leader.y, 0.0, LEADER_SIZE, LEADER_SIZE)
        return self._sees_footprint(leader.attached_to or "", spot)

    def _sees_footprint(self, key: str, target: Footprint) -> bool:
        near = sorted(self.friends, key=lambda u: distance((u.x, u.y), (target.x, target.y)))
        return any(self._line(friend.id, key, target) for friend in near)

    def _line(self, viewer_id: str, target_id: str, target: Footprint) -> bool:
        viewer = self.feet[viewer_id]
        corridor = MultiPoint([viewer.front_centre, *target.corners()]).convex_hull
        between = [self.ids[i] for i in self.tree.query(corridor)]
        others = [(k, self.feet[k]) for k in between if k not in (viewer_id, target_id)]
        seen = line_of_sight(viewer, target, self.state.terrain, others, self.view.blocking)
        return seen.clear
