"""Heroic Age's hints to the AI general (#36): a rest recovers a unit (a rally); a charge's
result bands name a win as "victory" or "success"; a unit turned away from the enemy changes
direction (a ``manoeuvre``) before it can advance. Its army is lost when ``loss_share`` of its
units are broken, destroyed or Shaken: the general reads how many are. In the Leadership step
each leader spends his LPs removing DPs from the most worn units within his reach (a unit
with 4 DPs loses aggression on its next DP). It does not signal the advance: in ai-bench its
armies then decided fewer games (16 seeds: 1 won, 1 lost against the defaults, where without
it 5 won, 0 lost), as the contingent's straight-ahead move breaks the line before contact.
Its Movement orders are ``general_drill``'s: close to charge reach, facing the enemy."""

from collections.abc import Mapping, Sequence

from rules_core.codec import Json
from rules_core.general_hints import DEFAULT_ROLES, GeneralHints, Weights
from rules_core.orders import Order
from rules_core.rulesets.heroic_age import ending, leadership
from rules_core.rulesets.heroic_age import units as u
from rules_core.rulesets.heroic_age.general_drill import drill
from rules_core.rulesets.heroic_age.lps import available
from rules_core.rulesets.heroic_age.status import DPS
from rules_core.state import BattleState, Leader, Unit
from rules_core.toolkit import param_number


def breaking(state: BattleState, side: str, params: Mapping[str, Json]) -> float:
    """Units lost against the army's loss share (1: the army is lost)."""
    if ending.army_lost(state, side, params):
        return 1.0
    lost, started = ending.units_lost(state, side)
    needed = param_number(params, "loss_share") * started
    return min(lost / needed, 1.0) if needed > 0 else 0.0


def worn(state: BattleState, unit: Unit) -> float:
    """1 for a unit one step above Shaken (``present``): a loss more counts it lost."""
    del state
    return 1.0 if u.level(unit) == "present" else 0.0


def leaders_orders(state: BattleState, side: str) -> Sequence[Order]:
    """The leaders' orders in the Leadership step: each removes DPs while his LPs last."""
    if state.cursor.step != "leadership":
        return ()
    found: list[Order] = []
    for leader in state.leaders:
        if leader.side == side:
            found.extend(_leader_orders(state, leader))
    return found


def _leader_orders(state: BattleState, leader: Leader) -> list[Order]:
    """One leader's orders, within the LPs he has left (each paid in the order given)."""
    left = available(state, leader)
    moving = leadership.contingent(state, leader)
    near = [
        x
        for x in moving
        if DPS.of(x) > 0 and u.within(leadership.reach(state, leader, x), leadership.ACTION_RANGE)
    ]
    near.sort(key=lambda x: (-DPS.of(x), x.id))
    cost = leadership.ACTION_LPS["remove_dp"]
    return [Order(leader.id, "remove_dp", {"unit": x.id}) for x in near[: max(left // cost, 0)]]


HINTS = GeneralHints(
    roles={**DEFAULT_ROLES, "rest": "rally", "manoeuvre": "face"},
    params={"manoeuvre": {"option": "change_direction"}},
    weights=Weights(charge=2.5, rally=0.2),
    win_words=("victory", "success"),
    lose_words=("set back", "defeat"),
    breaking=breaking,
    worn=worn,
    adds=leaders_orders,
    drill=drill,
)
