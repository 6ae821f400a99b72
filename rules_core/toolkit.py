"""Helpers every ruleset needs: checking a step's orders, contacts, lookups, the turn limit.

A ruleset calls these rather than writing its own; each answers one question the way every
ruleset so far has answered it, so a new ruleset starts from the same behaviour.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules_core.codec import Json, number_or
from rules_core.events import OrderRejected
from rules_core.geometry import (
    EPSILON,
    Footprint,
    edge_distance,
    in_contact,
    near,
    overlapping,
    within,
)
from rules_core.orders import Illegal, Order, point_param
from rules_core.state import OFF_TABLE, BattleState, Leader, Outcome, Point, Unit
from rules_core.terrain import Sight, line_of_sight

if TYPE_CHECKING:
    from rules_core.context import Context, RulesView


@dataclass(frozen=True)
class Shot:
    """One unit's shooting, rolled before any shot lands: who shot at whom and the hits that
    count (in Pike and Shot, those left unsaved)."""

    shooter: str
    target: str
    hits: int


def g(value: float) -> str:
    """A distance for a sentence: one decimal place at most."""
    return f"{round(value, 1):g}"


def zone_words(state: BattleState, side: str, zone: Sequence[tuple[float, float]]) -> str:
    """Where a side's deployment zone is, for a refusal: "Red's deployment zone (y from 0 to 8
    inch, the south edge)"; a zone not running edge to edge gives both spans."""
    table, eps = state.battlefield, 1e-9
    xs, ys = [x for x, _ in zone], [y for _, y in zone]
    (west, east), (south, north) = (min(xs), max(xs)), (min(ys), max(ys))
    wide, deep = (
        west <= eps and east >= table.width - eps,
        south <= eps and north >= table.depth - eps,
    )
    if wide and not deep:
        span = f"y from {g(south)} to {g(north)} {table.measure}"
        edge = _edge(south <= eps, north >= table.depth - eps, "south", "north")
    elif deep and not wide:
        span = f"x from {g(west)} to {g(east)} {table.measure}"
        edge = _edge(west <= eps, east >= table.width - eps, "west", "east")
    else:
        span = f"x from {g(west)} to {g(east)}, y from {g(south)} to {g(north)} {table.measure}"
        edge = ""
    where = f"{span}, {edge}" if edge else span
    return f"{state.side(side).name}'s deployment zone ({where})"


def _edge(low: bool, high: bool, low_name: str, high_name: str) -> str:
    """Which table edge a band of the table runs along, in words."""
    if low:
        return f"the {low_name} edge"
    return f"the {high_name} edge" if high else "across the middle"


def param_number(params: Mapping[str, Json], name: str) -> float:
    """A numeric parameter's value (``Context.number`` inside a resolver)."""
    value = params[name]
    assert isinstance(value, int | float)
    return float(value)


# -- orders -------------------------------------------------------------------------------


def deploy_placed(ctx: Context, to: str = "to") -> None:
    """Carry out this step's ``place`` orders: each unit goes to its order's point (the
    ``to`` parameter) facing the order's ``facing`` (else as it stood)."""
    for order in checked_orders(ctx, ("place",)):
        unit = ctx.state.unit(order.actor)
        facing = number_or(order.params.get("facing", unit.facing), 0.0)
        end = point_param(order, to)
        ctx.move(unit.id, [(unit.x, unit.y), end], facing, ("deploys",))


def checked_orders(ctx: Context, kinds: Collection[str]) -> list[Order]:
    """This step's orders of these kinds in roster order, each re-checked against the state.

    Units come first, then leaders, groups and sides, each in roster order; one actor's several
    orders keep the order they were given in. An order whose actor has gone earlier in the step
    and one the state now makes illegal are refused with an ``OrderRejected`` event saying why.
    """
    position = _roster_positions(ctx.state)
    chosen = sorted(
        (order for order in ctx.orders if order.kind in kinds),
        key=lambda order: position.get(_actor_key(ctx, order), len(position)),
    )
    legal = []
    for order in chosen:
        if _actor_key(ctx, order) not in position:
            reject_gone(ctx, order)
            continue
        verdict = ctx.rules.judge(ctx.state, order)
        if isinstance(verdict, Illegal):
            ctx.emit(OrderRejected(order.actor, order.kind, verdict.reason))
        else:
            legal.append(order)
    return legal


GONE = "it was destroyed or removed earlier in this step"


def reject_gone(ctx: Context, order: Order) -> None:
    """Refuse, on record, an order whose actor was destroyed or removed earlier in the step."""
    ctx.emit(OrderRejected(order.actor, order.kind, GONE))


def _roster_positions(state: BattleState) -> Mapping[tuple[str, str], int]:
    """Each actor's place in roster order: units, leaders, groups, then sides."""
    return state.roster_positions()  # kept by the state while the ids stay the same


def _actor_key(ctx: Context, order: Order) -> tuple[str, str]:
    """Who gives an order: its kind's actor kind and the actor's id."""
    return (ctx.rules.order_kind(order.kind).actor, order.actor)


def enemy_target(state: BattleState, unit: Unit, order: Order, param: str = "target") -> Unit | str:
    """The enemy unit an order's parameter names, or why it cannot be the target."""
    key = order.params.get(param)
    target = next((other for other in state.units_on_table if other.id == key), None)
    if target is None:
        return f"no unit {key!r} on the table"
    if target.side == unit.side:
        return f"{target.name} is a friendly unit"
    return target


# -- contact ------------------------------------------------------------------------------


def enemies_in_contact(state: BattleState, unit: Unit) -> list[Unit]:
    """The enemy units touching this one, in the state's order (none while it is off the
    table)."""
    return list(_in_contact(state, unit))


def engaged(state: BattleState, unit: Unit) -> bool:
    """True if the unit touches an enemy (never while it is off the table)."""
    return bool(_in_contact(state, unit))


_CONTACTS = "_contacts"  # where a state keeps the enemies found touching each unit


def _in_contact(state: BattleState, unit: Unit) -> tuple[Unit, ...]:
    """The enemies touching a unit, worked out once per state and unit (a state is frozen:
    kept beside its fields, for this very unit object, as ``engine.waiting`` keeps its
    answer; rules ask it for every pair of charger and target)."""
    kept: dict[str, tuple[Unit, tuple[Unit, ...]]] | None = state.__dict__.get(_CONTACTS)
    if kept is None:
        kept = state.__dict__[_CONTACTS] = {}
    found = kept.get(unit.id)
    if found is not None and found[0] is unit:
        return found[1]
    touching: tuple[Unit, ...] = ()
    if unit.on_table:
        here = Footprint.of(unit)
        touching = tuple(
            e
            for e in _touching(state, here)
            if e.side != unit.side and in_contact(here, Footprint.of(e))
        )
    kept[unit.id] = (unit, touching)
    return touching


def _touching(state: BattleState, here: Footprint) -> list[Unit]:
    """The units that may touch a footprint (their boxes meet its box), in the state's order."""
    return near(state.units_on_table, here.bounds, EPSILON)


def contact_pairs(
    state: BattleState,
    prefer: Callable[[Unit, Unit], bool] | None = None,
    busy: Iterable[str] = (),
) -> list[tuple[str, str]]:
    """Each fight once: a unit in contact with an enemy and the first such enemy still free.

    Units are taken in the state's order; ``prefer(unit, enemy)`` puts the enemies it likes
    first (a front contact, say), keeping the state's order among equals. Units in ``busy``
    already have their fight and are left out.
    """
    found: list[tuple[str, str]] = []
    taken: set[str] = set(busy)
    for unit in state.units_on_table:
        if unit.id in taken:
            continue
        enemies = [e for e in enemies_in_contact(state, unit) if e.id not in taken]
        if prefer is not None:
            enemies.sort(key=lambda enemy: not prefer(unit, enemy))
        if enemies:
            found.append((unit.id, enemies[0].id))
            taken.update((unit.id, enemies[0].id))
    return found


def landing_on(state: BattleState, unit: Unit, end: Footprint) -> Unit | None:
    """Another unit that ``unit``'s base would overlap at ``end``, if any."""
    # Only units whose boxes meet the end pose's box can overlap it (``near`` narrows them).
    return next(
        (
            other
            for other in near(state.units_on_table, end.bounds)
            if other.id != unit.id and overlapping(end, Footprint.of(other))
        ),
        None,
    )


def gap(a: Unit, b: Unit) -> float:
    """Edge-to-edge distance between two units."""
    return edge_distance(Footprint.of(a), Footprint.of(b))


def nearest(units: Iterable[Unit], unit: Unit) -> Unit | None:
    """The nearest of some units to this one, edge to edge; ties go to the first."""
    found = list(units)
    return min(found, key=lambda other: gap(unit, other)) if found else None


def nearest_enemy(state: BattleState, unit: Unit) -> Unit | None:
    """The closest enemy unit, edge to edge (leaders are never units, so never counted)."""
    return nearest(state.enemies_of(unit.side, on_table=True), unit)


def sight(state: BattleState, viewer: Unit, target: Unit, blockers: frozenset[str]) -> Sight:
    """Line of sight between two units; other units and terrain of these kinds block it."""
    others = [
        (u.id, Footprint.of(u)) for u in state.units_on_table if u.id not in (viewer.id, target.id)
    ]
    return line_of_sight(
        Footprint.of(viewer), Footprint.of(target), state.terrain, others, blockers
    )


def within_of_exit(unit: Unit, at: Point, distance: float) -> bool:
    """True if ``at`` is no further than ``distance`` from where an off-table unit left the
    table (centre to centre): "comes back within 6 inches of where it left"."""
    if unit.left_at is None:
        return False
    return within(math.dist(unit.left_at, at), distance)


def off_table_for(state: BattleState, unit: Unit) -> int | None:
    """How many turns a unit has been off the table (0 in the turn it left), None if it is
    not off the table."""
    if unit.location != OFF_TABLE or unit.left_turn is None:
        return None
    return state.cursor.turn - unit.left_turn


# -- finding ------------------------------------------------------------------------------


def _matches(ref: str) -> Callable[[Unit | Leader], bool]:
    """A test of an id or name against what a player typed (case and spacing ignored)."""
    key = " ".join(ref.split()).casefold()
    return lambda item: key in (item.id.casefold(), item.name.casefold())


def find_unit(state: BattleState, ref: str, sides: Sequence[str] | None = None) -> Unit | None:
    """A unit by id or name, optionally only among some sides; None if there is none."""
    found = _matches(ref)
    return next((u for u in state.units if found(u) and (sides is None or u.side in sides)), None)


def find_leader(state: BattleState, ref: str, sides: Sequence[str] | None = None) -> Leader | None:
    """A leader by id or name, optionally only among some sides; None if there is none."""
    found = _matches(ref)
    return next(
        (ld for ld in state.leaders if found(ld) and (sides is None or ld.side in sides)), None
    )


# -- the end of the battle ------------------------------------------------------------------


def turn_limit_outcome(rules: RulesView, state: BattleState) -> Outcome | None:
    """A draw once more turns are played than the ``max_turns`` parameter allows, else None."""
    limit = rules.parameter_values(state.parameters)["max_turns"]
    assert isinstance(limit, int)
    if state.cursor.turn > limit:
        return Outcome(None, f"{limit} turns played with neither army broken")
    return None
