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
from rules_core.forces import (
    LedGroups,
    follow_leaders,
    join_first,
    regroup_strays,
    stands_carried,
)
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.profiles import leader_from_entry
from rules_core.rulesets.tree_of_battles.status import RANK
from rules_core.state import BattleState, Leader, Unit

# The battles (each led by its leader) and the leaders an army list brings; the group a unit
# entry's ``battle`` puts it in. Unnamed entries are dropped before numbering: "leader2" is the
# second named leader.
BATTLES = LedGroups("battle", leader_from_entry, named_only=True)
forces = BATTLES.forces
group_of = BATTLES.group_of


def prepare(state: BattleState) -> BattleState:
    """Units in known groups, each leader with a contingent, the main groups led by marshals."""
    state = regroup_strays(state)
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
    for side in state.sides:
        count = len([x for x in state.units_of(side.id) if x.type != "baggage"])
        state = state.with_side(replace(side, status={**side.status, "start_contingents": count}))
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
    return join_first(state, leader, own)


def carry_over(entry: Mapping[str, Json], unit: Unit | None) -> dict[str, Json]:
    """After a battle: a contingent gone from the table is lost; survivors keep the stands left.

    Casualties are stands lost for good, so the roster's ``stands`` falls by them; DPs, array,
    rout and pursuit are states of one battle and do not carry over.
    """
    return stands_carried(entry, unit, u.casualties)
