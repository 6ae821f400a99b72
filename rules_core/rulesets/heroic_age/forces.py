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
from rules_core.forces import (
    LedGroups,
    alive,
    follow_leaders,
    join_first,
    regroup_strays,
    stands_carried,
)
from rules_core.rulesets.heroic_age.profiles import leader_from_entry
from rules_core.rulesets.heroic_age.status import CASUALTIES, CINC
from rules_core.state import BattleState, Leader, Unit

# The contingents (each led by its leader) and the leaders an army list brings; the group a
# unit entry's ``contingent`` puts it in.
CONTINGENTS = LedGroups("contingent", leader_from_entry)
forces = CONTINGENTS.forces
group_of = CONTINGENTS.group_of


def prepare(state: BattleState) -> BattleState:
    """Units in known groups, each leader with a unit; the first leader of a side with none
    marked commander-in-chief."""
    state = regroup_strays(state)
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
    return join_first(state, leader, state.units_of(leader.side))


def carry_over(entry: Mapping[str, Json], unit: Unit | None) -> dict[str, Json]:
    """After a battle: a unit gone from the table is lost; survivors keep the stands left."""
    return stands_carried(entry, unit, CASUALTIES.of)
