"""Armies as the bot builds them: divisions and generals from an army list, the start, losses.

Ids from an army list are prefixed with the side (``a_rom_legio``, ``a_rom_legate``) so two
armies, even two copies of one list, never clash. Generals arrive at (0, 0), meaning not yet
placed; when play begins each stands behind the first unit of his division.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from rules_core.codec import Json
from rules_core.forces import prefixed
from rules_core.geometry import Footprint
from rules_core.rulesets.hail_caesar.status import CASUALTIES, DIVISION_UNITS, STATUSES
from rules_core.state import BattleState, Group, Leader, Point, Unit
from rules_core.status import Scope

START_COUNTS = DIVISION_UNITS.key  # each division's units as play began
BEHIND = 1.0  # inches between a general and the rear of his division's first unit


def division_of(entry: Mapping[str, Json], side: str) -> str | None:
    """The (prefixed) division a roster entry names, or None."""
    division = entry.get("division")
    return prefixed(side, str(division)) if isinstance(division, str) and division else None


def group_of(entry: Mapping[str, Json], side: str, default: str) -> str:
    """The division a roster entry names, else ``default``."""
    return division_of(entry, side) or default


def leader_entries(roster: Mapping[str, Json]) -> list[Mapping[str, Json]]:
    """The well-formed entries of an army list's ``leaders``."""
    found = roster.get("leaders")
    if not isinstance(found, Sequence) or isinstance(found, str):
        return []
    return [entry for entry in found if isinstance(entry, Mapping) and entry.get("name")]


def leader_from_roster(entry: Mapping[str, Json], side: str, index: int) -> Leader:
    """A general: Leadership in ``points`` (0 means the campaign's default), rank in status."""
    key = entry.get("id")
    leader_id = prefixed(side, str(key) if key else f"general{index}")
    leadership = entry.get("leadership")
    points = leadership if isinstance(leadership, int) and not isinstance(leadership, bool) else 0
    rank = "army" if entry.get("rank") == "army" else "general"
    return Leader(
        leader_id,
        str(entry["name"]),
        side,
        division_of(entry, side),
        0.0,
        0.0,
        points=max(0, points),
        status={"rank": rank},
    )


def forces(roster: Mapping[str, Json], side: str) -> tuple[tuple[Group, ...], tuple[Leader, ...]]:
    """The divisions (each with its first general) and the generals an army list brings."""
    entries = leader_entries(roster)
    leaders = tuple(leader_from_roster(e, side, i) for i, e in enumerate(entries, start=1))
    units = roster.get("units")
    rows = units if isinstance(units, Sequence) and not isinstance(units, str) else []
    named = [division_of(e, side) for e in rows if isinstance(e, Mapping)]
    named += [leader.group for leader in leaders]
    groups = []
    for division in dict.fromkeys(d for d in named if d):
        chief = next((ld.id for ld in leaders if ld.group == division), None)
        groups.append(Group(division, title(division, side), side, "division", chief))
    return tuple(groups), leaders


def title(division: str, side: str) -> str:
    """A division's name from its id: ``a_rom_legio`` is "Legio"."""
    bare = division.removeprefix(f"{side}_")
    return bare.split("_", 1)[-1].replace("_", " ").title()


def prepare(state: BattleState) -> BattleState:
    """Generals behind their divisions, and each division's units counted as play begins."""
    for leader in state.leaders:
        if _unplaced(leader):
            spot = _post(state, leader)
            if spot is not None:
                state = state.with_leader(replace(leader, x=spot[0], y=spot[1]))
    for side in state.sides:
        if START_COUNTS not in side.status:
            counts: dict[str, int] = {}
            for unit in state.units_of(side.id):
                counts[unit.group] = counts.get(unit.group, 0) + 1
            marked: dict[str, Json] = dict(counts)
            state = STATUSES.apply(state, Scope.SIDE, side.id, {START_COUNTS: marked})
    return state


def _unplaced(leader: Leader) -> bool:
    """True for a general still where the army list put him: nowhere, at (0, 0)."""
    return leader.x == 0.0 and leader.y == 0.0 and leader.attached_to is None


def _post(state: BattleState, leader: Leader) -> Point | None:
    """Behind the first unit of his division (else of his side), kept on the table."""
    own = state.units_of(leader.side, on_table=True)
    first = next((u for u in own if u.group == leader.group), own[0] if own else None)
    if first is None:
        return None
    x, y = Footprint.of(first).at(-(first.depth / 2 + BEHIND), 0.0)
    field = state.battlefield
    return (round(min(max(x, 0.0), field.width), 2), round(min(max(y, 0.0), field.depth), 2))


def carry_over(entry: Mapping[str, Json], unit: Unit | None) -> dict[str, Json]:
    """After a battle: a unit that broke, shattered or fled is lost; survivors note casualties.

    Casualties are recovered between battles (each battle starts fresh), so the count is a
    record of how the unit fared, not a starting value.
    """
    if unit is None:
        return {**entry, "status": "destroyed"}
    kept = {key: value for key, value in entry.items() if key != "casualties"}
    casualties = CASUALTIES.of(unit)
    if casualties > 0:
        kept["casualties"] = casualties
    return kept
