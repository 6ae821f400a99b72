"""Pike and Shot's drill for the AI general (#36): stand off and shoot, go in at the end.

The demo's drill walks every unit straight on at its full rate, so horse (18") reaches the
enemy's line a turn or two before the foot (10-12") and is beaten one unit at a time. Going in
against a line that stands lost more than it won (``python -m bot ai-bench``: 4 won, 13 lost of
20 with the whole line going in together), so the general's units stop short (``stand_off``):
within their own range of an enemy they outrange (foot's 3" against horse's 2"; they shoot
unanswered), else beyond the enemy's muskets; the guns shoot from where they stand. A unit
whose nearest enemy is a gun, or that would wait under a gun's fire, goes in at once; on the
last turns (``LATE``) every unit does, as the demo's drill does, but for one that expects to
take more unsaved hits than it inflicts (``GIVE``): its rout would only count toward its own
army's General Will. Other steps are the demo's.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.codec import Json
from rules_core.general_hints import Judge
from rules_core.geometry import Footprint, edge_distance
from rules_core.orders import Order
from rules_core.rulesets.pike_and_shot import movement_tables as mt
from rules_core.rulesets.pike_and_shot.chances import unsaved
from rules_core.rulesets.pike_and_shot.demo import forward_move
from rules_core.rulesets.pike_and_shot.kept import engaged, nearest_enemy
from rules_core.rulesets.pike_and_shot.profiles import ARTILLERY
from rules_core.rulesets.pike_and_shot.status import COHESION
from rules_core.rulesets.pike_and_shot.tables import shooting_range
from rules_core.state import BattleState, Unit

MARGIN = 0.5  # the stand-off line keeps this far beyond the enemy's range, in inches
GIVE = 0.0  # a unit expecting to take more unsaved hits than it inflicts in a melee stays out
LATE = 1  # from this many turns before the turn limit, the line goes in


def drill(rules: Judge, state: BattleState, side: str) -> list[Order] | None:
    """The side's movement orders, standing off until the last turns (None in other steps:
    the demo's drill)."""
    if state.cursor.step != "movement":
        return None
    params = rules.parameter_values(state.parameters)
    movers = [u for u in state.units_of(side, on_table=True) if _free(state, u)]
    together = _late(state, params)
    found: list[Order] = []
    for unit in movers:
        enemy = nearest_enemy(state, unit)
        if enemy is None:
            continue
        gap = edge_distance(Footprint.of(unit), Footprint.of(enemy))
        rate = mt.rate(unit, params)
        wait = gap - stand_off(state, unit, enemy, rate)
        charge = together or enemy.type in ARTILLERY or _under_guns(state, unit, max(wait, 0.0))
        if charge and _edge(state, params, unit, enemy) < -GIVE:
            charge = False  # a fight it would lose only feeds the enemy's count of routs
        distance = gap + 1.0 if charge else wait
        order = _forward(rules, state, unit, min(rate, distance))
        if order is not None:
            found.append(order)
    return found


def stand_off(state: BattleState, unit: Unit, enemy: Unit, rate: float) -> float:
    """How far from its nearest ``enemy`` the unit waits: within its own range where it
    outranges that enemy (it shoots unanswered), else beyond the range of every enemy but the
    guns (they outrange any move); within its own ``rate`` (else it could not go in)."""
    own = shooting_range(unit)
    if own - MARGIN > shooting_range(enemy):
        return own - MARGIN
    enemies = state.enemies_of(unit.side, on_table=True)
    reach = max((shooting_range(e) for e in enemies if e.type not in ARTILLERY), default=0.0)
    return min(reach + MARGIN, rate - MARGIN)


def _edge(state: BattleState, params: Mapping[str, Json], unit: Unit, enemy: Unit) -> float:
    """What the unit may expect of a melee with ``enemy``: the unsaved hits it would inflict
    less those it would take, one against one (the melee's own dice and saves, as they stand)."""
    ours, _ = unsaved(state, params, unit, enemy, "melee")
    theirs, _ = unsaved(state, params, enemy, unit, "melee")
    return float(sum(v * p for v, p in ours.items()) - sum(v * p for v, p in theirs.items()))


def _under_guns(state: BattleState, unit: Unit, advance: float) -> bool:
    """Whether an enemy gun would have the unit in range where it waits (after ``advance``):
    waiting under fire loses more than going in."""
    here = Footprint.of(unit)
    return any(
        edge_distance(here, Footprint.of(gun)) - advance <= shooting_range(gun)
        for gun in state.enemies_of(unit.side, on_table=True)
        if gun.type in ARTILLERY
    )


def _free(state: BattleState, unit: Unit) -> bool:
    """Whether the unit moves of its own will: not routed, not in contact, not a gun."""
    cohesion = COHESION.of(unit)
    if cohesion in ("routed", "destroyed") or unit.type in ARTILLERY:
        return False
    return not engaged(state, unit)


def _late(state: BattleState, params: Mapping[str, Json]) -> bool:
    """Whether the turn limit is so near that waiting for the line costs the battle."""
    limit = params.get("max_turns")
    return isinstance(limit, int) and state.cursor.turn >= limit - LATE


def _forward(rules: Judge, state: BattleState, unit: Unit, distance: float) -> Order | None:
    """A legal move straight ahead by ``distance`` (cut short where it must), else None."""
    return forward_move(rules, state, unit, distance) if distance > 0 else None
