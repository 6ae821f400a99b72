"""Impetus's drill for the AI general (#36): how far each unit of the activating command moves.

The demo's drill moves a full move, twice when the enemy is far, and stops short by a fixed
distance; so units failed the test for a second move and stood disordered, or stopped outside
their charge reach and waited. The general's drill measures the move: a unit already within
its charge reach stays (it charges from there in this activation's charge step); otherwise it
moves just far enough to end within its charge reach of the nearest enemy, at most a full
move; a second move is made only while the enemy is still beyond reach and the test for it
is nearly sure to pass (a failed test disorders the unit).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

from rules_core.codec import Json
from rules_core.general_hints import Judge
from rules_core.geometry import Footprint, edge_distance
from rules_core.orders import Order
from rules_core.rulesets.impetus import discipline
from rules_core.rulesets.impetus import movement_tables as mt
from rules_core.rulesets.impetus import orders as unit_orders
from rules_core.rulesets.impetus.status import DISORDERED, RALLIED
from rules_core.state import BattleState, Unit

INSIDE = 0.3  # how far inside its charge reach a measured move ends (H): a margin for the angle
SURE = Fraction(5, 6)  # a second move only where its discipline test passes at least this often
TRIES = 3  # a move the judge refuses (ground, friends) is tried at half the distance this often


def drill(rules: Judge, view: BattleState, side: str) -> list[Order] | None:
    """The moves of the activating command, if it is ``side``'s and the step is the move;
    None in every other step (the demo's drill)."""
    subject = view.cursor.subject
    if view.cursor.step != "move":
        return None
    if subject is None or subject.side != side:
        return []
    foes = [u for u in view.units_on_table if u.side != side]
    params = rules.parameter_values(view.parameters)
    found: list[Order] = []
    for unit in view.units_on_table:
        if unit.group != subject.id or unit_orders.in_melee(unit) or RALLIED.of(unit):
            continue
        found.extend(_moves(rules, view, unit, foes, params))
    return found


def reach(unit: Unit, params: Mapping[str, Json]) -> float:
    """The unit's charge reach in H (its charge move and the parameters' extra)."""
    extra = params.get("charge_reach_extra", 0.0)
    return mt.distance(unit, "charge") + float(extra if isinstance(extra, int | float) else 0)


def _moves(
    rules: Judge, view: BattleState, unit: Unit, foes: list[Unit], params: Mapping[str, Json]
) -> list[Order]:
    """One unit's measured moves toward its nearest enemy (none where it is within reach)."""
    if not foes:
        return []
    here = Footprint.of(unit)
    gap = min(edge_distance(here, Footprint.of(foe)) for foe in foes)
    short = gap - reach(unit, params) + INSIDE  # the move that brings it within reach
    step = mt.distance(unit, "normal")
    if short <= INSIDE or step <= 0:
        return []
    first = _legal(rules, view, unit, min(step, math.ceil(short * 10) / 10))
    if first is None:
        return []
    moves = [first]
    rest = short - first.number("distance", 0.0)
    if rest > INSIDE and not DISORDERED.of(unit) and _sure(view, unit, params):
        second = _legal(rules, view, unit, min(step, math.ceil(rest * 10) / 10))
        if second is not None:
            moves.append(second)
    return moves


def _legal(rules: Judge, view: BattleState, unit: Unit, distance: float) -> Order | None:
    """A forward move of ``distance`` H the judge accepts, halved until it does (or None)."""
    for _ in range(TRIES):
        order = Order(unit.id, "move", {"manoeuvre": "forward", "distance": distance})
        if rules.legal(view, order) is not None:
            return order
        distance = math.floor(distance * 5) / 10  # half, to a tenth of an H
        if distance <= 0:
            break
    return None


def _sure(view: BattleState, unit: Unit, params: Mapping[str, Json]) -> bool:
    """Whether the unit's test for a second move passes at least ``SURE`` of the time."""
    target, _ = discipline.target_of(view, unit, "second_move", params, moves=2)
    return discipline.pass_chance(target, params).chance(1) >= SURE
