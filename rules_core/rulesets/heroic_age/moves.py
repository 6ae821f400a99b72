"""A unit's moves themselves: the dice thrown for a move, the straight journey that stops short
of the enemy, and the fast moves of retiring, breaking and pursuing.

Below the Movement phase and the moves after combat (``after``), which both make them.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core.context import Context
from rules_core.dice import Purpose
from rules_core.geometry import Footprint
from rules_core.rulesets.heroic_age import gods, measure, tables
from rules_core.rulesets.heroic_age import units as u
from rules_core.state import Unit
from rules_core.toolkit import landing_on


@dataclass(frozen=True)
class Thrown:
    """The dice of one move: inches and every face thrown (for fatigue)."""

    inches: float
    faces: tuple[int, ...]


def throw(ctx: Context, side: str, label: str, avd: int, d6: int, why: Purpose) -> Thrown:
    """Roll the AvD and D6 of a move (each set offered to the Seven's re-roll)."""
    first = ctx.dice.avd(f"{label} ({avd} AvD)", avd, purpose=why)
    rolls = [gods.reroll(ctx, side, f"{label} ({avd} AvD)", first)]
    if d6:
        extra = ctx.dice.nd6(f"{label} (+{d6} D6)", d6, purpose=why)
        rolls.append(gods.reroll(ctx, side, f"{label} (+{d6} D6)", extra))
    return Thrown(float(sum(r.total for r in rolls)), tuple(f for r in rolls for f in r.faces))


def travel(
    ctx: Context,
    unit: Unit,
    heading: float,
    length: float,
    facing: float,
    note: str,
    *,
    keep_off: bool = True,
    unformed: bool = False,
) -> float:
    """Move a unit straight, stopping 2" from an enemy to its front; difficult terrain and
    friends passed through leave it (and them) unformed. Returns the distance gone."""
    swept, reached = measure.move_along(
        ctx.state, unit, heading, length, facing=facing, keep_off=keep_off
    )
    if reached <= measure.EPS:
        return 0.0
    end = swept.pose(reached)
    if _lands_on_a_unit(ctx, unit, end):
        return 0.0
    ctx.move(unit.id, [(unit.x, unit.y), (end.x, end.y)], facing, (note,))
    dx, dy = end.x - unit.x, end.y - unit.y
    ctx.set_status(unit.id, None, last_move=[dx, dy, facing], stationary=False)
    difficult = measure.kinds(ctx.params, "difficult_terrain")
    if unformed:
        ctx.set_status(unit.id, "moving unformed", unformed=True)
    elif measure.crosses_difficult(ctx.state, [swept.start, end], difficult):
        ctx.set_status(unit.id, "moved through difficult terrain", unformed=True)
    for friend in swept.passed:
        if u.alive(ctx.state, friend):
            ctx.set_status(friend, f"interpenetrated by {unit.name}", unformed=True)
            ctx.set_status(unit.id, "interpenetration", unformed=True)
    return reached


def _lands_on_a_unit(ctx: Context, unit: Unit, end: Footprint) -> bool:
    """Whether the move would end on another unit. The sweep leaves behind what the unit's
    turned start overlaps, but a short move may never get clear of it: then it stays put."""
    return landing_on(ctx.state, unit, end) is not None


def fast_distance(ctx: Context, unit: Unit, why: str) -> float:
    """The move "Rout, retire, pursue: Unformed. Roll max dice": 1 AvD and the optional D6,
    both rolled."""
    avd = tables.whole(tables.MOVE, "fast", "avd")
    d6 = tables.whole(tables.MOVE, "fast", "optional_d6")
    purpose = Purpose(unit.id, "fast move", row=why)
    return throw(ctx, unit.side, f"{why}: {unit.name}", avd, d6, purpose).inches


def retire_move(ctx: Context, unit_id: str, why: str) -> bool:
    """A full unformed move away from the enemy; unable to move: remain and take 1 DP."""
    unit = ctx.state.unit(unit_id)
    u.mark_retiring(ctx, unit_id, why)
    if not u.alive(ctx.state, unit_id):
        return False
    unit = ctx.state.unit(unit_id)
    length = fast_distance(ctx, unit, "Retire")
    heading = measure.away_heading(ctx.state, unit)
    gone = travel(ctx, unit, heading, length, heading, "retires", keep_off=False, unformed=True)
    if gone <= measure.EPS:
        dps = tables.whole(tables.AFTER_COMBAT, "retire", "dps_if_unable")
        u.add_dps(ctx, unit_id, dps, "unable to retire", "combat")
        return False
    return True
