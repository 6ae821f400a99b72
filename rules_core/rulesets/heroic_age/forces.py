"""Armies as the bot builds them: contingents and leaders from an army list, the start, losses.

A unit is one retinue, follower band or camp followers on the table. Units are grouped into
*contingents*, one for each leader of the army list (group kind ``contingent``, led by him); a
unit entry's ``contingent`` names the leader whose contingent it is in (units naming none stay in
the side's main group). Ids from an army list are prefixed with the side (``saxons_alfred``). A
leader stands with the unit his ``with`` names; one with none, or whose unit is not on the table,
joins the first unit of his contingent as play begins, and leaders move with their units.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules_core.codec import Json
from rules_core.roster import entries as roster_entries
from rules_core.roster import unit_ids
from rules_core.rulesets.heroic_age.profiles import leader_from_entry
from rules_core.rulesets.heroic_age.status import CASUALTIES, CINC
from rules_core.state import BattleState, Group, Leader, Unit


def prefixed(side: str, key: str) -> str:
    """An army list's id made unique on the table by its side."""
    return f"{side}_{key}"


def contingent_group(side: str, leader_key: str) -> str:
    """The group id of the contingent a leader (by his army-list id) commands."""
    return prefixed(side, f"{leader_key}_contingent")


def group_of(entry: Mapping[str, Json], side: str, default: str) -> str:
    """The group a unit entry's ``contingent`` puts it in, else ``default``."""
    key = entry.get("contingent")
    return contingent_group(side, key) if isinstance(key, str) and key else default


def forces(roster: Mapping[str, Json], side: str) -> tuple[tuple[Group, ...], tuple[Leader, ...]]:
    """The contingents (each led by its leader) and the leaders an army list brings."""
    units = unit_ids(roster, side)
    leaders = []
    for index, entry in enumerate(roster_entries(roster, "leaders"), start=1):
        if not isinstance(entry.get("name"), str):
            continue
        key = str(entry.get("id") or f"leader{index}")
        made = leader_from_entry({**entry, "id": key}, side, contingent_group(side, key))
        home = units.get(str(entry.get("with") or "").casefold())
        leaders.append(replace(made, id=prefixed(side, key), attached_to=home))
    groups = tuple(
        Group(str(ld.group), f"{ld.name}'s contingent", side, "contingent", ld.id) for ld in leaders
    )
    return groups, tuple(leaders)


def alive(state: BattleState, unit_id: str | None) -> bool:
    """Whether a unit is still on the table."""
    return unit_id is not None and any(unit.id == unit_id for unit in state.units)


def prepare(state: BattleState) -> BattleState:
    """Units in known groups, each leader with a unit; the first leader of a side with none
    marked commander-in-chief."""
    known = {group.id for group in state.groups}
    for unit in state.units:
        if unit.group not in known:
            state = state.with_unit(replace(unit, group=f"{unit.side}_main"))
    for leader in state.leaders:
        state = _post(state, leader)
    for side in state.sides:
        mine = [ld for ld in state.leaders if ld.side == side.id]
        if mine and not any(CINC.of(ld) for ld in mine):
            first = mine[0]
            state = state.with_leader(replace(first, status={**first.status, "cinc": True}))
    for side in state.sides:
        count = len(state.units_of(side.id))
        state = state.with_side(replace(side, status={**side.status, "start_units": count}))
    return follow_leaders(state)


def _post(state: BattleState, leader: Leader) -> BattleState:
    """A leader whose unit is missing joins the first of his contingent (else of his side)."""
    if leader.attached_to and alive(state, leader.attached_to):
        return state
    own = state.units_of(leader.side)
    home = next((x for x in own if x.group == leader.group), own[0] if own else None)
    if home is None:
        return state
    return state.with_leader(replace(leader, attached_to=home.id, x=home.x, y=home.y))


def follow_leaders(state: BattleState) -> BattleState:
    """Leaders with a unit stand where it stands (the map draws them there)."""
    for leader in state.leaders:
        if leader.attached_to and alive(state, leader.attached_to):
            home = state.unit(leader.attached_to)
            if (leader.x, leader.y) != (home.x, home.y):
                state = state.with_leader(replace(leader, x=home.x, y=home.y))
    return state


def carry_over(entry: Mapping[str, Json], unit: Unit | None) -> dict[str, Json]:
    """After a battle: a unit gone from the table is lost; survivors keep the stands left."""
    if unit is None or unit.stands - CASUALTIES.of(unit) <= 0:
        return {**entry, "status": "destroyed"}
    if not CASUALTIES.of(unit):
        return dict(entry)
    return {**entry, "stands": unit.stands - CASUALTIES.of(unit)}
