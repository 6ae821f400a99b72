"""One unit's state in words (``/battle unit``), as the one who asks may see it.

Positions, profiles and status are on the map for everyone; a side's hidden state is shown
only to that side's players and the GMs (``rules_core.secrets.view`` takes it out for others).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.services.base import Service
from bot.services.battle_state import find_unit, load_battle
from bot.services.campaigns import Place
from rules_core import secrets
from rules_core.codec import Json
from rules_core.state import BattleState, Unit
from rules_core.status import Scope, StatusSheet


@dataclass(frozen=True)
class UnitSheet:
    """A unit as ``/battle unit`` words it."""

    name: str
    unit_id: str
    side_name: str
    group_name: str
    type: str
    quality: str
    stands: int
    formation: str
    frontage: float
    depth: float
    x: float
    y: float
    facing: float
    measure: str
    profile: tuple[tuple[str, Json], ...]  # the roster values the rules read
    status: tuple[str, ...]  # its declared status in words (the map's badges)
    leaders: tuple[str, ...]  # leaders attached to it
    secret: tuple[str, ...] = ()  # its side's hidden state, for that side and the GMs only


class UnitSheetService(Service):
    """Reads one unit of the channel's battle; one read session per call."""

    async def sheet(self, place: Place, user_id: int, ref: str) -> UnitSheet:
        """The unit named or id'd ``ref`` as the user's seat sees the battle."""
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
            viewer = loaded.seat(user_id).viewer()
            state = secrets.view(loaded.state, viewer)
            unit = find_unit(state, ref)
            sides = {s.side_id: s.name for s in loaded.battle.sides}
            return sheet_of(state, unit, loaded.rules.statuses, sides, viewer)


def sheet_of(
    state: BattleState,
    unit: Unit,
    statuses: StatusSheet,
    sides: Mapping[str, str],
    viewer: secrets.Viewer,
) -> UnitSheet:
    """A unit of a state the viewer may see (``secrets.view`` applied) as its sheet words it;
    the war table's cards read the same words."""
    groups = {g.id: g.name for g in state.groups}
    secret: tuple[str, ...] = ()
    if viewer.may_see(unit.side):
        hidden = state.hidden.get(unit.side, {})
        names = {u.id: u.name for u in state.units}
        secret = tuple(statuses.describe(Scope.HIDDEN, hidden, names))
    return UnitSheet(
        name=unit.name,
        unit_id=unit.id,
        side_name=sides.get(unit.side, unit.side),
        group_name=groups.get(unit.group, unit.group),
        type=unit.type,
        quality=unit.quality,
        stands=unit.stands,
        formation=unit.formation,
        frontage=unit.frontage,
        depth=unit.depth,
        x=unit.x,
        y=unit.y,
        facing=unit.facing,
        measure=state.battlefield.measure,
        profile=tuple(sorted(unit.profile.items())),
        status=tuple(statuses.describe(Scope.UNIT, unit.status)),
        leaders=tuple(ld.name for ld in state.leaders if ld.attached_to == unit.id),
        secret=secret,
    )
