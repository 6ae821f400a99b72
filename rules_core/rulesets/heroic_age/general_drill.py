"""Heroic Age's drill for the AI general (#36): close to charge reach, facing the enemy.

The demo's drill moves each unit the full rolled distance toward where its nearest enemy
stood, and straight ahead when that enemy is more than 45° off its front: lines passed
through each other and spent their turns turning round, and games ended undecided. In the
Movement step the general's units go for the nearest enemy that still counts toward its
army's loss (not Shaken: a Shaken unit already counts as lost, and cannot charge). A unit
already within charge reach to its front holds (it charges in the Combat step); one facing
that enemy moves to the point just short of it, stopping there (``stop_short``, which a
unit in Blood Lust may not declare: it stops 2" short of an enemy to its front anyway); one
turned away from it changes direction to face it. Other steps are the demo's.
"""

from __future__ import annotations

import math

from rules_core.codec import Json
from rules_core.general_hints import Judge
from rules_core.geometry import facing_towards
from rules_core.orders import Order
from rules_core.rulesets.heroic_age import measure
from rules_core.rulesets.heroic_age import units as u
from rules_core.rulesets.heroic_age.status import BROKEN
from rules_core.state import BattleState, Unit
from rules_core.toolkit import gap, param_number

SHORT = 0.5  # the move aims this far inside the charge reach of the enemy's nearer edge
TURN = 45.0  # a move more than this far off the unit's front needs a change of direction
BEHIND = 135.0  # an enemy this far off the front is behind: an about face (½ move, formed)


def drill(rules: Judge, state: BattleState, side: str) -> list[Order] | None:
    """The side's Movement orders, closing to charge reach (None in other steps: the demo's)."""
    if state.cursor.step != "movement":
        return None
    reach = param_number(rules.parameter_values(state.parameters), "charge_reach")
    found: list[Order] = []
    for unit in state.units_of(side, on_table=True):
        if BROKEN.of(unit) or u.engaged_with(state, unit):
            continue
        enemy = _quarry(state, unit)
        if enemy is None:
            continue
        order = next(
            (o for o in _choices(state, unit, enemy, reach) if rules.legal(state, o) is not None),
            None,
        )
        if order is not None:
            found.append(order)
    return found


def _quarry(state: BattleState, unit: Unit) -> Unit | None:
    """The nearest enemy that still counts toward its army's loss, else the nearest."""
    enemies = [e for e in state.enemies_of(unit.side, on_table=True) if not BROKEN.of(e)]
    standing = [e for e in enemies if u.level(e) != "shaken"] or enemies
    return min(standing, key=lambda e: (gap(unit, e), e.id), default=None)


def _choices(state: BattleState, unit: Unit, enemy: Unit, reach: float) -> list[Order]:
    """The orders to try for a unit, best first."""
    if measure.enemy_to_front(state, unit, reach) is not None:
        return [Order(unit.id, "hold")]
    heading = facing_towards((unit.x, unit.y), (enemy.x, enemy.y))
    off = measure.angle_between(heading, unit.facing)
    if off > BEHIND:
        return [Order(unit.id, "manoeuvre", {"option": "about_face"})]
    # Where the enemy would stand square before the unit's front as it faces now (a move
    # keeps the unit's facing): ending there, it may charge; else straight at the enemy.
    back = (unit.depth + enemy.depth) / 2.0 + reach - SHORT
    fx, fy = measure.heading_vector(unit.facing)
    square = (enemy.x - fx * back, enemy.y - fy * back)
    found = [_move(unit, square), _move(unit, _short_of(unit, enemy, back))]
    if off > TURN:
        face: dict[str, Json] = {"option": "change_direction", "to": [enemy.x, enemy.y]}
        found.append(Order(unit.id, "manoeuvre", face))
    return found


def _move(unit: Unit, point: tuple[float, float]) -> Order:
    """A move toward the point with the extra D6, stopping there (a unit in Blood Lust may
    not stop short: it goes the full distance, halted 2" short by an enemy to its front)."""
    params: dict[str, Json] = {"to": [point[0], point[1]], "extra_d6": "yes"}
    if u.level(unit) != "blood lust":
        params["stop_short"] = "yes"
    return Order(unit.id, "move", params)


def _short_of(unit: Unit, enemy: Unit, back: float) -> tuple[float, float]:
    """The point ``back`` short of the enemy's centre on the line from the unit."""
    dx, dy = unit.x - enemy.x, unit.y - enemy.y
    length = max(math.hypot(dx, dy), 1e-9)
    back = min(back, length)
    return (enemy.x + dx / length * back, enemy.y + dy / length * back)
