"""Whether a side has anything to order in the open step, so that a step does not wait for a
side that could give no order in it.

A side has something to order when one of its units, leaders or groups (or the side itself)
could legally be given one of the step's order kinds: a unit in reserve or off the table
counts only for the kinds given off the table, a unit on the table only for the others; a
kind with no parameters counts when the rules accept it; a kind whose parameters are all
units counts when some unit on the table makes a legal target. A kind that takes a point, a
number or a choice cannot be tried in every way, so an actor that may take it counts.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules_core.orders import PLACE, Order, OrderKind, Preview
from rules_core.plugin import Rules
from rules_core.state import ON_TABLE, BattleState, Group, Leader, Side, Unit

_KEPT = "_orderable"  # worked out once per state, side and ruleset: states are frozen

Actor = Unit | Leader | Group | Side


def has_orders(rules: Rules, state: BattleState, side: str) -> bool:
    """Whether ``side`` could give a legal order in the step the battle stands at."""
    kept: dict[tuple[int, str], bool] = state.__dict__.setdefault(_KEPT, {})
    key = (id(rules), side)
    if key not in kept:
        kept[key] = _has_orders(rules, state, side)
    return kept[key]


def _has_orders(rules: Rules, state: BattleState, side: str) -> bool:
    step = rules.sequence.step(state.cursor.step)
    # The kinds that cost least to try first: a move to a point settles it without judging
    # every unit as a target of a charge.
    kinds = sorted((rules.order_kind(k) for k in step.order_kinds), key=_cost)
    for kind in kinds:
        if any(_could(rules, state, kind, actor) for actor in _actors(rules, state, kind, side)):
            return True
    return False


def _cost(kind: OrderKind) -> int:
    """How much trying a kind costs: 0 taken on trust (a point, a number), 1 judged once per
    actor (no parameters), 2 judged once per actor and unit on the table (units only)."""
    required = [param for param in kind.params if param.required]
    if not required:
        return 1
    return 2 if all(param.kind == "unit" for param in required) else 0


def _actors(rules: Rules, state: BattleState, kind: OrderKind, side: str) -> Iterator[Actor]:
    """The actors of ``side`` that may be given an order of this kind where they stand."""
    for actor in state.actors(kind.actor):
        owner = actor.id if isinstance(actor, Side) else actor.side
        if owner != side:
            continue
        if isinstance(actor, Unit) and (actor.location == ON_TABLE) == (
            kind.id in rules.off_table_orders
        ):
            continue  # in reserve for an order given on the table, or the other way round
        yield actor


def _could(rules: Rules, state: BattleState, kind: OrderKind, actor: Actor) -> bool:
    """Whether some order of this kind for this actor is legal (one with a point or a number
    taken on trust)."""
    cost = _cost(kind)
    if cost == 1:
        return isinstance(rules.judge(state, Order(actor.id, kind.id, {})), Preview)
    if cost == 2:
        return any(_legal(rules, state, kind, actor, unit) for unit in state.units_on_table)
    return True


def _legal(rules: Rules, state: BattleState, kind: OrderKind, actor: Actor, target: Unit) -> bool:
    """Whether the order of this kind naming ``target`` for every unit it takes is legal."""
    params = {p.name: target.id for p in kind.params if p.required}
    return isinstance(rules.judge(state, Order(actor.id, kind.id, params)), Preview)


def only_adjusting(rules: Rules, state: BattleState) -> bool:
    """Whether the open step takes only deployment orders while every unit already stands on
    the table: it exists only to let the players adjust their placement."""
    step = rules.sequence.step(state.cursor.step)
    placing = bool(step.order_kinds) and set(step.order_kinds) <= {PLACE.id}
    return placing and state.pending is None and len(state.units_on_table) == len(state.units)
