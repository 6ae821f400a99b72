"""Ways forward for a refused order: the ruleset's own where it knows better, else what the
core can always find (other targets the same order reaches, the order kinds the actor has
now, the steps that take the order)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

from rules_core.orders import (
    Illegal,
    Instead,
    Order,
    OrderKind,
    Preview,
    another_step,
    other_actors,
    other_kinds,
    other_targets,
)
from rules_core.plugin import Rules
from rules_core.state import BattleState, Group, Leader, Side, Unit

A = TypeVar("A", bound=Unit | Leader | Group | Side)  # a piece with an id

# At most this many targets or kinds are named: a player reads a refusal, not a list.
MOST_NAMED = 6
# At most this many of the nearest units are tried as other targets: a refusal is judged while
# the war table's pointer moves, and a 120-unit table judged whole cost 47 ms (#35).
MOST_TRIED = 24


def way_forward(rules: Rules, state: BattleState, refused: Illegal) -> tuple[Instead, ...]:
    """What the player may do instead of a refused order: its ruleset's way forward, else
    the targets the same order reaches, the kinds its actor has now and the others it may be
    given to, else the steps that take the order."""
    if refused.instead:
        return refused.instead
    order = refused.order
    found: list[Instead] = []
    targets = reachable_targets(rules, state, order)
    if targets:
        found.append(other_targets(*targets))
    kinds = kinds_now(rules, state, order)
    if kinds:
        found.append(other_kinds(*kinds))
    actors = able_actors(rules, state, order)
    if actors:
        found.append(other_actors(*actors))
    if found:
        return tuple(found)
    steps = tuple(s.id for s in rules.sequence.steps if order.kind in s.order_kinds)
    return (another_step(*steps),)


def _unit_params(kind: OrderKind) -> tuple[str, ...]:
    """The parameters of a kind naming a unit (a target)."""
    return tuple(p.name for p in kind.params if p.kind == "unit")


def reachable_targets(rules: Rules, state: BattleState, order: Order) -> tuple[str, ...]:
    """The units on the table the same order would be legal against now (its first unit
    parameter changed), the nearest few (of the nearest ``MOST_TRIED``); none when it names
    no unit."""
    kind = rules.order_kind(order.kind)
    names = [name for name in _unit_params(kind) if name in order.params]
    if not names:
        return ()
    name = names[0]
    found: list[str] = []
    for unit in _nearest_first(state, state.units_on_table, order.actor)[:MOST_TRIED]:
        if unit.id in (order.params[name], order.actor):
            continue
        tried = Order(order.actor, order.kind, {**order.params, name: unit.id})
        if isinstance(rules.judge(state, tried), Preview):
            found.append(unit.id)
        if len(found) >= MOST_NAMED:
            break
    return tuple(found)


def _nearest_first(state: BattleState, pieces: Sequence[A], near: object) -> Sequence[A]:
    """``pieces`` with the units among them nearest to unit ``near`` first (the others after,
    in their order); as they are when ``near`` is no unit on the table."""
    try:
        centre = state.unit(near) if isinstance(near, str) else None
    except KeyError:
        centre = None
    if centre is None or not centre.on_table:
        return pieces

    def apart(piece: A) -> float:
        if not isinstance(piece, Unit):
            return math.inf
        return math.hypot(piece.x - centre.x, piece.y - centre.y)

    return sorted(pieces, key=apart)


def able_actors(rules: Rules, state: BattleState, order: Order) -> tuple[str, ...]:
    """The others of the actor's side the same order would be legal for now, the nearest to
    its target (else to the actor) first, of the nearest ``MOST_TRIED``."""
    kind = rules.order_kind(order.kind)
    side = state.owner(kind.actor, order.actor)
    targets = [order.params[name] for name in _unit_params(kind) if name in order.params]
    near = targets[0] if targets else order.actor
    mine = [
        actor
        for actor in state.actors(kind.actor)
        if actor.id != order.actor and state.owner(kind.actor, actor.id) == side
    ]
    found: list[str] = []
    for actor in _nearest_first(state, mine, near)[:MOST_TRIED]:
        if isinstance(rules.judge(state, Order(actor.id, order.kind, order.params)), Preview):
            found.append(actor.id)
        if len(found) >= MOST_NAMED:
            break
    return tuple(found)


def kinds_now(rules: Rules, state: BattleState, order: Order) -> tuple[str, ...]:
    """The other order kinds the current step takes from this actor: those with nothing to
    fill in if they are legal now, those naming a unit if some unit suits them, the rest
    (a point, a number) as they may be legal somewhere."""
    step = rules.sequence.step(state.cursor.step)
    actor_kind = rules.order_kind(order.kind).actor
    found: list[str] = []
    for kind_id in step.order_kinds:
        kind = rules.order_kind(kind_id)
        if kind_id == order.kind or kind.actor != actor_kind:
            continue
        if _open_now(rules, state, order.actor, kind):
            found.append(kind_id)
    return tuple(found[:MOST_NAMED])


def _open_now(rules: Rules, state: BattleState, actor: str, kind: OrderKind) -> bool:
    """Whether ``actor`` may be given an order of ``kind`` now, as far as can be tried."""
    required = [p for p in kind.params if p.required]
    if not required:
        return isinstance(rules.judge(state, Order(actor, kind.id)), Preview)
    if all(p.kind == "unit" for p in required):
        for unit in state.units_on_table:
            tried = Order(actor, kind.id, {p.name: unit.id for p in required})
            if unit.id != actor and isinstance(rules.judge(state, tried), Preview):
                return True
        return False
    return rules.actor_problem(state, Order(actor, kind.id)) is None
