"""Heroic Age's hints to the AI general (#36): a rest recovers a unit (a rally); a charge's
result bands name a win as "victory" or "success"; a unit turned away from the enemy changes
direction (a ``manoeuvre``) before it can advance. Its army is lost when ``loss_share`` of its
units are broken, destroyed or Shaken: the general reads how many are, and advances on and
turns to face the enemies not yet counted (``lost``). In the Leadership step each leader
spends his LPs raising the aggression of his units that are fighting (in combat, or with an
enemy within 2" to the front, where moves stop and charges are declared), lowest level
first: a level is a die more in the fight (Ready for Battle +1, Blood Lust +2, and the charge
made at once). Removing DPs instead drew games out (ai-bench, 120 seeds AI against AI: 41
ended, against 69 raising). It does not signal the advance: in ai-bench its armies then
decided fewer games (16 seeds: 1 won, 1 lost against the defaults, where without it 5 won,
0 lost), as the contingent's straight-ahead move breaks the line before contact.
Its Movement orders are ``general_drill``'s: close to charge reach, facing the enemy."""

from collections.abc import Mapping, Sequence

from rules_core.codec import Json
from rules_core.general_hints import DEFAULT_ROLES, GeneralHints, Weights
from rules_core.orders import Order
from rules_core.rulesets.heroic_age import ending, leadership, measure, tables
from rules_core.rulesets.heroic_age import units as u
from rules_core.rulesets.heroic_age.general_drill import drill
from rules_core.rulesets.heroic_age.lps import available
from rules_core.rulesets.heroic_age.status import BROKEN
from rules_core.state import BattleState, Leader, Unit
from rules_core.toolkit import param_number

RAISED = ("present", "ready for battle")  # the levels a leader raises (Shaken is lost: it waits)


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


def lost(state: BattleState, unit: Unit) -> bool:
    """Whether a unit already counts toward its army's loss: broken or Shaken."""
    del state
    return bool(BROKEN.of(unit)) or u.level(unit) == "shaken"


def leaders_orders(state: BattleState, side: str) -> Sequence[Order]:
    """The leaders' orders in the Leadership step: each raises his fighting units' aggression
    while his LPs last."""
    if state.cursor.step != "leadership":
        return ()
    found: list[Order] = []
    for leader in state.leaders:
        if leader.side == side:
            found.extend(_leader_orders(state, leader))
    return found


def _leader_orders(state: BattleState, leader: Leader) -> list[Order]:
    """One leader's orders, within the LPs he has left (each paid in the order given): his
    units within reach that fight now, neither Shaken nor in Blood Lust, lowest level first."""
    left = available(state, leader)
    near = [
        x
        for x in state.units_of(leader.side, on_table=True)
        if u.level(x) in RAISED
        and not BROKEN.of(x)
        and _fighting(state, x)
        and u.within(leadership.reach(state, leader, x), leadership.ACTION_RANGE)
    ]
    near.sort(key=lambda x: (u.level_index(x), x.id))
    cost = leadership.ACTION_LPS["change_aggression"]
    return [
        Order(leader.id, "change_aggression", {"unit": x.id, "change": "raise"})
        for x in near[: max(left // cost, 0)]
    ]


def _fighting(state: BattleState, unit: Unit) -> bool:
    """Whether a unit is in combat or has an enemy before its front as near as a move stops
    (the sheet's 2", where a charge is declared)."""
    near = measure.enemy_to_front(state, unit, tables.ENEMY_STOP)
    return bool(u.engaged_with(state, unit)) or near is not None


HINTS = GeneralHints(
    roles={**DEFAULT_ROLES, "rest": "rally", "manoeuvre": "face"},
    params={"manoeuvre": {"option": "change_direction"}},
    weights=Weights(charge=2.5, rally=0.2),
    win_words=("victory", "success"),
    lose_words=("set back", "defeat"),
    breaking=breaking,
    worn=worn,
    adds=leaders_orders,
    lost=lost,
    drill=drill,
)
