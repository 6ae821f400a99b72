"""Order kinds for every player action of the sheet, their previews and defaults.

- ``place`` (deployment), ``wing_order`` (a side to one of its wings: attack, hold or withdraw;
  the actor is the wing, a group), ``move`` (a unit along a path of points, ending with a
  facing, optionally forming or leaving march column), ``hold`` (stand), ``return`` (a pursuer
  off the table comes back within 6" of where it left, once sound), ``shoot`` (a target for the
  Combat step's shooting; read by ``combat.py``: a unit given none fires at the nearest target,
  and a side is asked for the Combat step only when a unit of it has a choice of targets),
  ``command_move`` (a commander moves up to 24" and may attach to a unit), ``stay`` (a
  commander stays).
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_core import orders as common
from rules_core.codec import Json
from rules_core.orders import Illegal, Order, OrderKind, Param, Preview, Verdict
from rules_core.rulesets.pike_and_shot import combat, command, movement
from rules_core.rulesets.pike_and_shot.combat_rolls import shooting_range
from rules_core.rulesets.pike_and_shot.status import (
    COHESION,
    LEFT_IN_PURSUIT,
    WING_ORDER,
    WING_ORDERS,
    WITHDRAW_NEXT_TURN,
)
from rules_core.state import OFF_TABLE, BattleState
from rules_core.toolkit import enemy_target

FORMATIONS = ("keep", "line", "march_column")

ORDER_KINDS = (
    common.PLACE,
    OrderKind(
        "wing_order",
        "Wing order",
        actor="group",
        params=(Param("order", "choice", True, WING_ORDERS),),
    ),
    OrderKind(
        "move",
        "Move (to a point, or along a path)",
        params=(
            Param("to", "point", False),  # a straight move; `path` gives the turns on the way
            Param("path", "path", False),
            Param("facing", "number", False),
            Param("formation", "choice", False, FORMATIONS),
        ),
    ),
    OrderKind("hold", "Hold"),
    OrderKind("return", "Return to the table after a pursuit", params=common.TO_AND_FACING),
    common.SHOOT,
    OrderKind(
        "command_move",
        "Commander moves",
        actor="leader",
        params=(Param("to", "point"), Param("attach", "unit", False)),
    ),
    OrderKind("stay", "Commander stays", actor="leader"),
)


def preview(state: BattleState, order: Order, params: Mapping[str, Json]) -> Verdict:
    """What an order will do, or why it is illegal."""
    if order.kind == "wing_order":
        return _wing_order(state, order)
    if order.kind in ("move", "hold", "return"):
        return movement.preview(state, order, params)
    if order.kind == "shoot":
        unit = state.unit(order.actor)
        target = enemy_target(state, unit, order)
        if isinstance(target, str):
            return Illegal(order, target)
        if state.cursor.step == "combat":  # planned earlier, it is checked when Combat comes
            problem = combat.firing_problem(state, unit, target)
            if problem is not None:
                return Illegal(order, problem)
            return Preview(order, f"{unit.name} shoots at {target.name}")
        return Preview(
            order,
            f"{unit.name} shoots at {target.name}",
            (
                "range and Firing Lane are checked when Combat comes; if it cannot fire at "
                f"{target.name} then, it fires at the nearest enemy it can",
            ),
        )
    if order.kind in ("command_move", "stay"):
        return command.preview_move(state, order, params)
    return Preview(order, order.kind)


def _wing_order(state: BattleState, order: Order) -> Verdict:
    wing = state.group(order.actor)
    if wing.kind != "wing":
        return Illegal(order, f"{wing.name} is not a wing")
    wanted = str(order.params["order"])
    if WITHDRAW_NEXT_TURN.of(state.side(wing.side)) and wanted != "withdraw":
        return Illegal(order, f"{state.side(wing.side).name} is ordered to withdraw this turn")
    now = WING_ORDER.of(wing) or "hold"
    if wanted == now:
        return Preview(order, f"{wing.name} keeps its {wanted.capitalize()} order")
    return Preview(order, f"{wing.name}: {now.capitalize()} → {wanted.capitalize()}")


def default_order(state: BattleState, actor: str) -> Order | None:
    """A wing keeps its order (Withdraw if its army is ordered to withdraw); units and
    commanders given no order hold and stay."""
    step = state.cursor.step
    if step == "orders":
        wing = next((g for g in state.groups if g.id == actor and g.kind == "wing"), None)
        if wing is None:
            return None
        forced = WITHDRAW_NEXT_TURN.of(state.side(wing.side))
        return Order(
            actor,
            "wing_order",
            {"order": "withdraw" if forced else (WING_ORDER.of(wing) or "hold")},
        )
    if step == "commanders_move" and any(ld.id == actor for ld in state.leaders):
        return Order(actor, "stay")
    return None


def has_business(state: BattleState, side: str, step: str, params: Mapping[str, Json]) -> bool:
    """Whether a side has anything to order in this step."""
    if step == "orders":
        return any(g.side == side and g.kind == "wing" for g in state.groups)
    if step == "movement":
        movable = any(
            COHESION.of(u) in ("sound", "disordered", "disrupted")
            for u in state.units_of(side, on_table=True)
        )
        back = any(u.location == OFF_TABLE and LEFT_IN_PURSUIT.of(u) for u in state.units_of(side))
        return movable or back
    if step == "combat":  # a shooter with a choice of targets (else it fires at the one)
        return any(
            len(combat.targets(state, unit)) > 1
            for unit in state.units_of(side, on_table=True)
            if shooting_range(unit) > 0
        )
    if step == "commanders_move":
        return any(ld.side == side and command.can_act(ld) for ld in state.leaders)
    return True
