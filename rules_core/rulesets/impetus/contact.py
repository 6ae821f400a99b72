"""A charger closing with its target: the straight move into contact and where it ends.

Both a charge (``actions.charge_one``) and a reaction charge (``reactions``) close up here;
the melee that follows is theirs to start.
"""

from __future__ import annotations

import math

from rules_core import paths
from rules_core.context import Context
from rules_core.events import OrderRejected
from rules_core.geometry import Footprint, near, overlapping, quarter
from rules_core.rulesets.impetus import movement_tables as mt
from rules_core.rulesets.impetus.status import MELEE_WITH, MOVES
from rules_core.state import Unit


def contact(ctx: Context, unit: Unit, target: Unit) -> bool:
    """Move the charger straight at the target until it touches; True if it made contact."""
    bearing = math.degrees(math.atan2(target.x - unit.x, target.y - unit.y)) % 360
    reach = mt.distance(unit, "charge") + ctx.number("charge_reach_extra")
    swept = paths.sweep(ctx.state, unit, bearing, reach + unit.depth, facing=bearing)
    if swept.blocker is None or swept.blocker.id != target.id:
        why = "something else is in the way" if swept.blocker is not None else "it falls short"
        ctx.emit(OrderRejected(unit.id, "charge", f"the charge on {target.name}: {why}"))
        return False
    end = swept.end
    pose = aligned(ctx, unit, target, (end.x, end.y, bearing))
    if pose is None:
        ctx.emit(OrderRejected(unit.id, "charge", f"no room to close with {target.name}"))
        return False
    x, y, facing = pose
    ctx.move(unit.id, [(unit.x, unit.y), (end.x, end.y), (x, y)], facing, ("charges",))
    ctx.set_status(
        unit.id,
        f"charges {target.name}",
        charged=True,
        moves=MOVES.of(unit) + 1,
        melee_with=[target.id],
    )
    others = MELEE_WITH.of(target)
    listed = [str(x) for x in others] if isinstance(others, list) else []
    ctx.set_status(target.id, None, melee_with=[*listed, unit.id])
    return True


EDGE_TURN = {"front": 0.0, "right": 90.0, "rear": 180.0, "left": 270.0}


def aligned(
    ctx: Context, unit: Unit, target: Unit, touching: tuple[float, float, float]
) -> tuple[float, float, float] | None:
    """Where the charger ends: closed up to the edge of the target it hit, centre to centre
    and facing it (the edge its centre faces); where that pose would overlap another unit or
    leave the table, where it first touched; None if neither pose is free."""
    edge = quarter(Footprint.of(target), (unit.x, unit.y))
    outward = (target.facing + EDGE_TURN[edge]) % 360
    half = target.depth / 2 if edge in ("front", "rear") else target.frontage / 2
    reach = half + unit.depth / 2
    rad = math.radians(outward)
    x, y = target.x + math.sin(rad) * reach, target.y + math.cos(rad) * reach
    flush = (round(x, 3), round(y, 3), (outward + 180.0) % 360)
    for pose in (flush, touching):
        if _free(ctx, unit, target, pose):
            return pose
    return None


def _free(ctx: Context, unit: Unit, target: Unit, pose: tuple[float, float, float]) -> bool:
    x, y, facing = pose
    print_ = Footprint.of(unit).moved_to((x, y), facing)
    table = ctx.state.battlefield
    if not all(0 <= cx <= table.width and 0 <= cy <= table.depth for cx, cy in print_.corners()):
        return False
    return not any(
        overlapping(print_, Footprint.of(other))
        for other in near(ctx.state.units_on_table, print_.bounds)  # only those can overlap
        if other.id not in (unit.id, target.id)
    ) and not overlapping(print_, Footprint.of(target))
