"""The Leadership phase: LPs spent on leader actions, the signal to advance, camp followers.

"Allocate remaining LPs if not in combat." A leader's LPs (``Leader.points``) are what he may
spend each turn; ``lps_spent`` counts what he has spent this turn (a holy person's call in
Invoke the Gods included), so each order is judged against what is left. A leader gives
several orders in one phase (the kinds combine), each paid from his LPs, in the order given:

- ``remove_dp`` (2 LP): remove 1 DP from a unit within 2" not in combat;
- ``change_aggression`` (2 LP): raise or lower a unit within 2" one level;
- ``signal_advance`` (1 LP): his contingent moves at once by aggression level (Shaken none,
  Present 1", Ready for Battle 2", Blood Lust 3"; +1" if he asks for it, not in Blood Lust,
  with a battle standard within 2"); the units may move again in the Movement phase;
- ``challenge`` (3 LP): challenge an enemy leader; the personal combat is fought in the next
  step (``duel.resolve``);
- the side's ``skilled_archer`` order plays a Five it holds (``gods.play_five``).

Calling on a holy person (1 LP) is made when a card of the god pack is turned (Invoke the
Gods comes first in the turn): see ``gods.holy_person``. Camp followers then remove DPs.
Every order is a normal order of the Leadership step, so it can be planned ahead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules_core.context import Context
from rules_core.events import TestResolved
from rules_core.geometry import Footprint, edge_distance
from rules_core.orders import Illegal, Order, OrderKind, Param, Preview, Verdict, joined
from rules_core.plugin import Parameter
from rules_core.rulesets.heroic_age import measure, units
from rules_core.rulesets.heroic_age.duel_tables import CHALLENGE_LPS
from rules_core.rulesets.heroic_age.lps import available, in_combat, spend
from rules_core.rulesets.heroic_age.retained import held, play_five
from rules_core.rulesets.heroic_age.status import (
    ADVANCE_SIGNALLED,
    ADVANCED_IN_LEADERSHIP,
    AGGRESSION,
    AGGRESSION_ORDER,
    BATTLE_STANDARD,
    BROKEN,
    DPS,
    IN_COMBAT,
    RETIRING,
)
from rules_core.state import BattleState, Leader, Unit
from rules_core.toolkit import checked_orders, engaged, g

# "Leader Actions if not in combat", as the sheet prints them.
ACTION_LPS = {
    "remove_dp": 2,  # "2 LPs: Remove 1 DP from a unit within 2" not in combat."
    "change_aggression": 2,  # "2 LPs: Change aggression level of unit within 2""
    "signal_advance": 1,  # "1 LP: Signal the Advance and move immediately as follows"
    "challenge": CHALLENGE_LPS,  # "3 LPs: Issue or accept Challenge to personal combat."
}
ACTION_RANGE = 2.0  # "within 2"" (remove a DP, change aggression, battle standard)
REMOVED_DPS = 1  # "Remove 1 DP"
ADVANCE_INCHES = {  # "Shaken no move. Present move 1". Ready for Battle move 2". Blood Lust 3"."
    "shaken": 0.0,
    "present": 1.0,
    "ready for battle": 2.0,
    "blood lust": 3.0,
}
STANDARD_INCHES = 1.0  # "+1" optional for non-Blood Lust if battle standard within 2""

SILENT = "not on the sheet (see the package README)"
PARAMETERS = (
    Parameter("camp_followers_dps", 1, "DPs each camp followers unit removes a turn", SILENT),
    Parameter(
        "camp_followers_range", 2.0, "how near camp followers must be to the unit they tend", SILENT
    ),
)

YES_NO = ("yes", "no")
MAX_ACTIONS = 12  # of one kind a leader may give in a step: his LPs are the real limit
ORDER_KINDS = (
    OrderKind(
        "remove_dp",
        'Remove 1 DP from a unit within 2" (2 LP)',
        "leader",
        (Param("unit", "unit"),),
        combines=True,
        limit=MAX_ACTIONS,
    ),
    OrderKind(
        "change_aggression",
        'Change the aggression level of a unit within 2" (2 LP)',
        "leader",
        (Param("unit", "unit"), Param("change", "choice", True, ("raise", "lower"))),
        combines=True,
        limit=MAX_ACTIONS,
    ),
    OrderKind(
        "signal_advance",
        "Signal the advance: his contingent moves at once (1 LP)",
        "leader",
        (Param("standard", "choice", False, YES_NO),),
        combines=True,
        limit=1,
    ),
    OrderKind(
        "challenge",
        "Challenge an enemy leader to personal combat (3 LP)",
        "leader",
        (Param("leader", "leader"),),
        combines=True,
        limit=1,
    ),
    OrderKind(
        "skilled_archer",
        "Play the Five: a skilled archer with one of your units",
        "side",
        (Param("unit", "unit"),),
    ),
)
LEADER_KINDS = tuple(kind for kind in ACTION_LPS)
KINDS = tuple(kind.id for kind in ORDER_KINDS)


# -- reach and cost --------------------------------------------------------------------------


def reach(state: BattleState, leader: Leader, unit: Unit) -> float:
    """How far a unit is from a leader: from the unit he stands with, edge to edge (else from
    where he stands)."""
    home = next((u for u in state.units if u.id == leader.attached_to), None)
    if home is not None:
        return 0.0 if home.id == unit.id else edge_distance(Footprint.of(home), Footprint.of(unit))
    from shapely.geometry import Point as ShapelyPoint

    return float(Footprint.of(unit).polygon.distance(ShapelyPoint(leader.x, leader.y)))


def cost(order: Order) -> int:
    """The LPs an order costs (a side's order: none)."""
    return ACTION_LPS.get(order.kind, 0)


# -- judging orders -------------------------------------------------------------------------


def preview(state: BattleState, order: Order) -> Verdict:
    """The preview of a leadership order, or why it is illegal now."""
    if order.kind == "skilled_archer":
        return _five(state, order)
    leader = state.leader(order.actor)
    if in_combat(state, leader):
        return Illegal(order, f"{leader.name} is in combat: leaders in combat spend no LPs")
    lps = cost(order)
    if available(state, leader) < lps:
        return Illegal(order, f"{leader.name} has {available(state, leader)} LP left, not {lps}")
    if order.kind == "challenge":
        return _challenge(state, order, leader)
    if order.kind == "signal_advance":
        return _advance(state, order, leader)
    unit = next((u for u in state.units if u.id == order.params.get("unit")), None)
    if unit is None or unit.side != leader.side:
        return Illegal(order, f"{leader.name} may only order a unit of his own army")
    far = reach(state, leader, unit)
    if not units.within(far, ACTION_RANGE):
        return Illegal(order, f'{unit.name} is {g(far)}" from {leader.name}, beyond 2"')
    if order.kind == "remove_dp":
        if IN_COMBAT.of(unit) or engaged(state, unit):
            return Illegal(order, f"{unit.name} is in combat")
        if DPS.of(unit) <= 0:
            return Illegal(order, f"{unit.name} has no DPs to remove")
        return Preview(order, f"{leader.name} removes 1 DP from {unit.name} ({lps} LP)")
    level = AGGRESSION.of(unit) or "present"
    index = AGGRESSION_ORDER.index(level) if level in AGGRESSION_ORDER else 1
    step = 1 if order.params.get("change") == "raise" else -1
    if not 0 <= index + step < len(AGGRESSION_ORDER):
        return Illegal(order, f"{unit.name} is {level} already")
    new = AGGRESSION_ORDER[index + step]
    return Preview(order, f"{leader.name} takes {unit.name} from {level} to {new} ({lps} LP)")


def _five(state: BattleState, order: Order) -> Verdict:
    unit = next((u for u in state.units if u.id == order.params.get("unit")), None)
    if unit is None or unit.side != order.actor:
        return Illegal(order, "the skilled archer joins a unit of your own army")
    if not held(state, order.actor, "5"):
        return Illegal(order, "you hold no Five of the god pack")
    return Preview(order, f"plays the Five: a skilled archer with {unit.name}")


def _challenge(state: BattleState, order: Order, leader: Leader) -> Verdict:
    target = next((ld for ld in state.leaders if ld.id == order.params.get("leader")), None)
    if target is None or target.side == leader.side:
        return Illegal(order, "challenge a living enemy leader")
    return Preview(order, f"{leader.name} challenges {target.name} to personal combat (3 LP)")


def _advance(state: BattleState, order: Order, leader: Leader) -> Verdict:
    moving = contingent(state, leader)
    if not moving:
        return Illegal(order, f"{leader.name} has no unit of his contingent free to advance")
    words = ", ".join(f'{u.name} {g(advance_inches(state, u, order))}"' for u in moving)
    return Preview(order, f"{leader.name} signals the advance (1 LP): {words}")


def join_orders(
    state: BattleState, earlier: Sequence[Order], order: Order, kinds: dict[str, OrderKind]
) -> tuple[tuple[Order, ...], str | None]:
    """A leader's orders once ``order`` follows ``earlier``: refused when their LPs add up to
    more than he has left this turn."""
    orders, problem = joined(kinds, earlier, order)
    if problem is not None or order.kind not in ACTION_LPS:
        return orders, problem
    leader = next((ld for ld in state.leaders if ld.id == order.actor), None)
    if leader is None:
        return orders, problem
    total = sum(cost(o) for o in orders)
    if total > available(state, leader):
        left = available(state, leader)
        return tuple(earlier), f"{leader.name} has {left} LP this turn; these orders need {total}"
    return orders, None


# -- the step ----------------------------------------------------------------------------------


def resolve(ctx: Context) -> None:
    """The Leadership step: each leader's actions in roster order, paid from his LPs (an order
    he can no longer pay for is refused), the Five played, then camp followers."""
    for order in checked_orders(ctx, KINDS):
        if order.kind == "skilled_archer":
            play_five(ctx, order.actor, str(order.params.get("unit")))
            continue
        verdict = preview(ctx.state, order)
        leader = ctx.state.leader(order.actor)
        if isinstance(verdict, Illegal):
            ctx.emit(TestResolved(leader.id, "Leader action", 0, False, verdict.reason))
            continue
        spend(ctx, leader.id, cost(order), verdict.summary)
        _carry_out(ctx, leader, order)
    camp_followers(ctx)


def _carry_out(ctx: Context, leader: Leader, order: Order) -> None:
    _ACTIONS.get(order.kind, _change_aggression)(ctx, leader, order)


def _issue_challenge(ctx: Context, leader: Leader, order: Order) -> None:
    ctx.set_leader_status(leader.id, "issues a challenge", challenge=str(order.params["leader"]))


def _remove_dp(ctx: Context, leader: Leader, order: Order) -> None:
    unit = ctx.state.unit(str(order.params["unit"]))
    ctx.set_status(unit.id, f"{leader.name} removes a DP", dps=max(0, DPS.of(unit) - REMOVED_DPS))


def _change_aggression(ctx: Context, leader: Leader, order: Order) -> None:
    step = 1 if order.params.get("change") == "raise" else -1
    unit = ctx.state.unit(str(order.params["unit"]))
    units.change_aggression(ctx, unit.id, step, f"{leader.name}'s leadership")


def contingent(state: BattleState, leader: Leader) -> list[Unit]:
    """The units of a leader's contingent free to advance (not in combat, broken or
    retiring)."""
    return [
        u
        for u in state.units_of(leader.side)
        if u.group == leader.group
        and not IN_COMBAT.of(u)
        and not BROKEN.of(u)
        and not RETIRING.of(u)
        and not engaged(state, u)
    ]


def standard_near(state: BattleState, unit: Unit) -> bool:
    """Whether a battle standard of the unit's side is within 2"."""
    return any(
        BATTLE_STANDARD.of(ld) and units.within(reach(state, ld, unit), ACTION_RANGE)
        for ld in state.leaders
        if ld.side == unit.side
    )


def advance_inches(state: BattleState, unit: Unit, order: Order) -> float:
    """How far a unit moves on the signal: by aggression level, +1" with a battle standard
    near if the order asks for it (not in Blood Lust)."""
    level = AGGRESSION.of(unit) or "present"
    inches = ADVANCE_INCHES.get(level, 0.0)
    bonus = order.params.get("standard", "yes") == "yes"
    if bonus and inches and level != "blood lust" and standard_near(state, unit):
        inches += STANDARD_INCHES
    return inches


def signal_advance(ctx: Context, leader: Leader, order: Order) -> None:
    """The leader's contingent advances at once straight ahead, stopping 2" from an enemy to
    its front; each unit is marked as having had the advance signalled."""
    for unit in contingent(ctx.state, leader):
        ctx.set_status(unit.id, f"{leader.name} signals the advance", advance_signalled=True)
        inches = advance_inches(ctx.state, unit, order)
        if inches <= 0:
            continue
        unit = ctx.state.unit(unit.id)
        # friends stop it (no interpenetration); the enemy stop is the Movement phase's own
        path, got = measure.move_along(ctx.state, unit, unit.facing, inches, friends_pass=False)
        if got <= measure.EPS:
            continue
        end = path.pose(got)
        ctx.move(unit.id, [(unit.x, unit.y), (end.x, end.y)], unit.facing, ("signal to advance",))
        ctx.set_status(unit.id, None, advanced_in_leadership=True)


# Each leader action by its kind; any other kind changes a unit's aggression.
_ACTIONS: dict[str, Callable[[Context, Leader, Order], None]] = {
    "challenge": _issue_challenge,
    "signal_advance": signal_advance,
    "remove_dp": _remove_dp,
}


def camp_followers(ctx: Context) -> None:
    """Camp followers remove DPs: each camp followers unit not in combat takes
    ``camp_followers_dps`` DPs from the friendly unit within ``camp_followers_range`` (itself
    included) with the most DPs that is not in combat."""
    removed = int(ctx.number("camp_followers_dps"))
    near = ctx.number("camp_followers_range")
    for tender in ctx.state.units:
        if tender.type != "camp_followers" or IN_COMBAT.of(tender) or engaged(ctx.state, tender):
            continue
        tended = [
            u
            for u in ctx.state.units_of(tender.side)
            if DPS.of(u) > 0
            and not IN_COMBAT.of(u)
            and not engaged(ctx.state, u)
            and (
                u.id == tender.id
                or units.within(edge_distance(Footprint.of(tender), Footprint.of(u)), near)
            )
        ]
        if not tended or removed <= 0:
            continue
        unit = max(tended, key=lambda u: DPS.of(u))
        dps = max(0, DPS.of(unit) - removed)
        ctx.set_status(unit.id, f"camp followers ({tender.name}) remove DPs", dps=dps)


__all__ = ["ADVANCED_IN_LEADERSHIP", "ADVANCE_SIGNALLED", "ORDER_KINDS", "PARAMETERS"]
