"""Leadership points: a leader's allowance for the turn, what he spends, gains and loses.

Below the phases that spend LPs (leadership, personal combat, the gods), so that each of them
reads and changes LPs without importing another.
"""

from __future__ import annotations

from dataclasses import replace

from rules_core.context import Context
from rules_core.events import TestResolved
from rules_core.rulesets.heroic_age import units
from rules_core.rulesets.heroic_age.status import HOLY_CALLED, IN_COMBAT, LPS_SPENT
from rules_core.state import BattleState, Leader
from rules_core.toolkit import engaged


def available(state: BattleState, leader: Leader) -> int:
    """LPs a leader may still spend this turn ."""
    return max(0, leader.points - LPS_SPENT.of(leader))


def new_allowance(ctx: Context) -> None:
    """Every leader's LPs are whole again and no holy person has been called: a new turn's
    spending (bookkeeping, not logged)."""
    for leader in ctx.state.leaders:
        if LPS_SPENT.of(leader):
            ctx.set_leader_status(leader.id, None, lps_spent=0)
    for side in ctx.state.sides:
        if HOLY_CALLED.of(side):
            ctx.set_side_status(side.id, None, holy_called=False)


def spend(ctx: Context, leader_id: str, lps: int, reason: str) -> None:
    """Record LPs a leader spends this turn."""
    leader = ctx.state.leader(leader_id)
    ctx.set_leader_status(leader_id, None, lps_spent=LPS_SPENT.of(leader) + lps)
    ctx.emit(TestResolved(leader_id, "LPs spent", lps, False, reason, False))


def change_lps(ctx: Context, leader_id: str, delta: int, reason: str) -> None:
    """A leader's LPs go up or down for good; a loss goes through ``units.lose_lps`` ("0 LPs =
    Leader killed")."""
    leader = next((ld for ld in ctx.state.leaders if ld.id == leader_id), None)
    if leader is None or not delta:
        return
    if delta < 0:
        units.lose_lps(ctx, leader_id, -delta, reason)
        return
    points = leader.points + delta
    ctx.state = ctx.state.with_leader(replace(leader, points=points))
    ctx.emit(
        TestResolved(leader_id, reason, points, False, f"LPs {leader.points} → {points}", False)
    )


def in_combat(state: BattleState, leader: Leader) -> bool:
    """Whether a leader is in combat: the unit he stands with is engaged."""
    home = next((u for u in state.units if u.id == leader.attached_to), None)
    return home is not None and (IN_COMBAT.of(home) or engaged(state, home))
