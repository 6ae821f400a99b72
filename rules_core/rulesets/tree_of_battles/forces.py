"""Armies as the bot builds them: battles and leaders from an army list, the start, losses.

A contingent is one unit on the table. Contingents are grouped into *battles* (vaward, main
battle, rearward), one for each leader of the army list; a unit entry's ``battle`` names the
leader whose battle it marches in (units naming none stay in the side's main group). Ids from
an army list are prefixed with the side (``a_henry``) so two armies, even two copies of one
list, never clash. A leader fights with the contingent his ``with`` names; one with none, or
whose contingent is not on the table, joins the first contingent of his battle as play begins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules_core.codec import Json
from rules_core.roster import entries as roster_entries
from rules_core.roster import unit_ids
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.profiles import leader_from_entry
from rules_core.rulesets.tree_of_battles.status import RANK
from rules_core.state import BattleState, Group, Leader, Unit


def prefixed(side: str, key: str) -> str:
    """An army list's id made unique on the table by its side."""
    return f"{side}_{key}"


def battle_group(side: str, leader_key: str) -> str:
    """The group id of the battle a leader (by his army-list id) commands."""
    return prefixed(side, f"{leader_key}_battle")


def group_of(entry: Mapping[str, Json], side: str, default: str) -> str:
    """The group a unit entry's ``battle`` puts it in, else ``default``."""
    battle = entry.get("battle")
    return battle_group(side, battle) if isinstance(battle, str) and battle else default


def _leader(entry: Mapping[str, Json], side: str, index: int, units: dict[str, str]) -> Leader:
    """One leader of an army list: prefixed id, his battle, the contingent he is with."""
    key = str(entry.get("id") or f"leader{index}")
    made = leader_from_entry({**entry, "id": key}, side, battle_group(side, key))
    home = units.get(str(entry.get("with") or "").casefold())
    return replace(made, id=prefixed(side, key), attached_to=home)


def forces(roster: Mapping[str, Json], side: str) -> tuple[tuple[Group, ...], tuple[Leader, ...]]:
    """The battles (each led by its leader) and the leaders an army list brings."""
    units = unit_ids(roster, side)
    entries = [e for e in roster_entries(roster, "leaders") if isinstance(e.get("name"), str)]
    leaders = tuple(_leader(e, side, i, units) for i, e in enumerate(entries, start=1))
    groups = tuple(
        Group(str(leader.group), f"{leader.name}'s battle", side, "battle", leader.id)
        for leader in leaders
    )
    return groups, leaders


def prepare(state: BattleState) -> BattleState:
    """Units in known groups, each leader with a contingent, the main groups led by marshals."""
    known = {group.id for group in state.groups}
    for unit in state.units:
        if unit.group not in known:
            state = state.with_unit(replace(unit, group=f"{unit.side}_main"))
    for leader in state.leaders:
        state = _post(state, leader)
    for group in state.groups:
        if group.leader is None and group.kind == "army":
            marshal = next(
                (ld for ld in state.leaders if ld.side == group.side and _rank(ld) == "marshal"),
                None,
            )
            if marshal is not None:
                state = state.with_group(replace(group, leader=marshal.id))
    return follow_leaders(state)


def _rank(leader: Leader) -> str:
    """A leader's rank: captain or marshal."""
    return RANK.of(leader)


def _post(state: BattleState, leader: Leader) -> BattleState:
    """A leader whose contingent is missing joins the first of his battle (else of his side)."""
    if leader.attached_to and u.alive(state, leader.attached_to):
        return state
    if leader.attached_to is None and (leader.x, leader.y) != (0.0, 0.0):
        return state  # placed by hand, riding free
    own = [x for x in state.units_of(leader.side, on_table=True) if x.type != "baggage"]
    home = next((x for x in own if x.group == leader.group), own[0] if own else None)
    if home is None:
        return state
    return state.with_leader(replace(leader, attached_to=home.id, x=home.x, y=home.y))


def follow_leaders(state: BattleState) -> BattleState:
    """Leaders with a contingent stand where it stands (the map draws them there)."""
    for leader in state.leaders:
        if leader.attached_to and u.alive(state, leader.attached_to):
            home = state.unit(leader.attached_to)
            if (leader.x, leader.y) != (home.x, home.y):
                state = state.with_leader(replace(leader, x=home.x, y=home.y))
    return state


def carry_over(entry: Mapping[str, Json], unit: Unit | None) -> dict[str, Json]:
    """After a battle: a contingent gone from the table is lost; survivors keep the stands left.

    Casualties are stands lost for good, so the roster's ``stands`` falls by them; DPs, array,
    rout and pursuit are states of one battle and do not carry over.
    """
    if unit is None or u.stands_left(unit) <= 0:
        return {**entry, "status": "destroyed"}
    if not u.casualties(unit):
        return dict(entry)
    return {**entry, "stands": u.stands_left(unit)}
