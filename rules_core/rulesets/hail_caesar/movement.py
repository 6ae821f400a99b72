"""Carrying out moves: ordered, initiative and free moves, charges, formations, blunders."""

from __future__ import annotations

import math
from dataclasses import replace

from rules_core.codec import number_or
from rules_core.context import Context
from rules_core.events import StatusChanged
from rules_core.geometry import Footprint, facing_towards, quarter
from rules_core.orders import Order, point_param
from rules_core.rulesets.hail_caesar import measure, morale, shooting
from rules_core.rulesets.hail_caesar.orders import superseded
from rules_core.state import Unit
from rules_core.toolkit import g


def carry_out(ctx: Context, order: Order, moves: int, note: str) -> None:
    """Carry out a unit's move, charge, change of formation or retirement with ``moves``."""
    if moves <= 0 or not morale.alive(ctx.state, order.actor):
        return
    unit = ctx.state.unit(order.actor)
    if order.kind == "charge":
        target = order.params["target"]
        assert isinstance(target, str)
        if morale.alive(ctx.state, target):
            charge(ctx, unit, ctx.state.unit(target), moves, note)
    elif order.kind == "form":
        set_formation(ctx, unit, str(order.params["option"]), note)
    elif order.kind in ("move", "retire"):
        facing = order.params.get("facing")
        turn = None if facing is None else number_or(facing, 0.0)
        move_to(ctx, unit, point_param(order, "to"), moves, turn, note)


def move_to(
    ctx: Context, unit: Unit, goal: tuple[float, float], moves: int, facing: float | None, note: str
) -> None:
    """Move towards a point as far as ``moves`` allow; under proximity it turns to face."""
    length = moves * measure.rate(unit)
    heading = facing_towards((unit.x, unit.y), goal) if goal != (unit.x, unit.y) else unit.facing
    keep_off = ctx.number("enemy_keep_off")
    near = measure.turn_too_close(ctx.state, unit, heading, keep_off)
    if near:
        words = f'does not move: turning would bring it within {g(keep_off)}" of {near}'
        relocate(ctx, unit, (unit.x, unit.y), unit.facing, [note, words])
        return
    pose, beside = measure.reach(ctx.state, unit, goal, length, heading, keep_off)
    if beside:  # the order check refused this (orders._no_room); the state changed since
        words = f"does not move: no room to turn where it stands (it would swing into {beside})"
        relocate(ctx, unit, (unit.x, unit.y), unit.facing, [note, words])
        return
    end_facing = pose.facing
    if facing is not None and math.dist((pose.x, pose.y), goal) < 1e-6:
        end_facing = facing
    enemy = superseded(ctx.state, measure.placed(unit, pose), ctx.params)
    notes = [note]
    if enemy is not None:
        pose, end_facing, turned = _turn_to_face(ctx, unit, pose, enemy, end_facing)
        notes.append(turned)
    if math.dist((pose.x, pose.y), goal) > 1e-6:
        notes.append(f'stops short after {g(math.dist((unit.x, unit.y), (pose.x, pose.y)))}"')
        ground = _barred_before(ctx, unit, goal, length, heading)
        if ground:
            notes.append(f"stops short of {ground}, impassable ground")
    relocate(ctx, unit, (pose.x, pose.y), end_facing, notes)


def _barred_before(
    ctx: Context, unit: Unit, goal: tuple[float, float], length: float, heading: float
) -> str:
    """The impassable ground a move of ``length`` towards ``goal`` would cross, or ""."""
    start = (unit.x, unit.y)
    share = min(1.0, length / max(math.dist(start, goal), 1e-9))
    end = (start[0] + (goal[0] - start[0]) * share, start[1] + (goal[1] - start[1]) * share)
    ground = measure.barrier(ctx.state, unit, Footprint.of(unit).moved_to(end, heading))
    return "" if ground is None else ground.name or ground.id


def _turn_to_face(
    ctx: Context, unit: Unit, pose: Footprint, enemy: Unit, facing: float
) -> tuple[Footprint, float, str]:
    """Turn to face an enemy within proximity at the end of a move, where there is room.

    A unit may not end a move on another unit nor nearer an enemy than the keep-off: if the
    turn would, it stops where along its path it has room to turn; with room nowhere it keeps
    its facing.
    """
    turn = measure.face(measure.placed(unit, pose), enemy)
    words = f"turns to face {enemy.name} (proximity)"
    keep_off = ctx.number("enemy_keep_off")

    def free(there: Footprint) -> bool:
        # Turning may swing a corner nearer the enemy than the keep-off the move stopped at.
        near = measure.too_close(ctx.state, unit, there, keep_off)
        return not measure.crowded(ctx.state, unit, there) and not near

    if free(pose.moved_to((pose.x, pose.y), turn)):
        return pose, turn, words
    length = math.dist((unit.x, unit.y), (pose.x, pose.y))
    room = measure.reachable(ctx.state, unit, (pose.x, pose.y), length, turn, keep_off)
    if room.facing == turn % 360 and free(room):  # reachable leaves it unturned if barred
        return room, turn, f"{words}, where it has room to turn"
    return pose, facing, f"no room to turn to face {enemy.name} (proximity)"


def relocate(
    ctx: Context, unit: Unit, end: tuple[float, float], facing: float, notes: list[str]
) -> None:
    """Move a unit and any general riding with it."""
    ctx.move(unit.id, [(unit.x, unit.y), end], facing, tuple(notes))
    for leader in ctx.state.leaders:
        if leader.attached_to == unit.id:
            ctx.state = ctx.state.with_leader(replace(leader, x=end[0], y=end[1]))


def set_formation(ctx: Context, unit: Unit, formation: str, note: str) -> None:
    """Change a unit's formation (it uses one move)."""
    ctx.state = ctx.state.with_unit(replace(unit, formation=formation))
    ctx.emit(StatusChanged(unit.id, "formation", unit.formation, formation, note))


def charge(ctx: Context, unit: Unit, target: Unit, moves: int, note: str) -> None:
    """Charge home if ``moves`` reach the target (closing shots first), else fall short.

    Where the charger would strike is found again now (units may have moved since the order):
    with no room at the target's edge, or a unit in its path, it falls short as far as it may.
    """
    reach = moves * measure.rate(unit)
    room = measure.charge_room(ctx.state, unit, target)
    pose, edge = measure.charge_pose(unit, target) if room is None else room
    through = "" if room is None else measure.blocker(ctx.state, unit, pose, (target.id,))
    why = f"no room at {target.name}" if room is None else through and f"{through} in the way"
    ground = measure.barrier(ctx.state, unit, pose)
    if why or ground is not None or _beyond(unit, pose, reach):
        stop = measure.reachable(
            ctx.state, unit, (pose.x, pose.y), reach, pose.facing, ctx.number("enemy_keep_off")
        )
        notes = [note, "the charge falls short" + (f": {why}" if why else "")]
        ahead = _barred_before(ctx, unit, (pose.x, pose.y), reach, pose.facing)
        if ahead:
            notes.append(f"stops short of {ahead}, impassable ground")
        relocate(ctx, unit, (stop.x, stop.y), stop.facing, notes)  # unturned if the turn was barred
        return
    if shooting.may_close_shoot(ctx.state, target, unit):
        shooting.closing_shots(ctx, target, unit)
        if not morale.alive(ctx.state, unit.id):
            return
        unit = ctx.state.unit(unit.id)
    relocate(
        ctx, unit, (pose.x, pose.y), pose.facing, [note, f"charges the {edge} of {target.name}"]
    )
    ctx.set_status(unit.id, "charged", charged=True)


def _beyond(unit: Unit, pose: Footprint, reach: float) -> bool:
    """True if the charger's place at the target is farther than it may go."""
    return math.dist((unit.x, unit.y), (pose.x, pose.y)) > reach + 1e-6


def forward(ctx: Context, unit: Unit, note: str) -> None:
    """One move straight ahead (General Advance), stopping short of other units."""
    goal = measure.shifted(unit, "forward", measure.rate(unit))
    keep_off = ctx.number("enemy_keep_off")
    pose = measure.reachable(ctx.state, unit, goal, measure.rate(unit), unit.facing, keep_off)
    relocate(ctx, unit, (pose.x, pose.y), unit.facing, [note])


def blunder(ctx: Context, unit: Unit, result: str) -> None:
    """Carry out a blunder result ``kind:moves``: back, retreat, left, right, forward, charge."""
    kind, count = result.split(":")
    moves = int(count)
    length = moves * measure.rate(unit)
    if kind in ("forward", "charge"):
        target = _ahead(ctx, unit, length)
        if target is not None:
            charge(ctx, unit, target, moves, f"blunder: {kind}")
            return
    direction = {"retreat": "back", "back": "back", "left": "left", "right": "right"}.get(
        kind, "forward"
    )
    goal = measure.shifted(unit, direction, length)
    pose = measure.reachable(ctx.state, unit, goal, length, unit.facing, 0.0)
    relocate(ctx, unit, (pose.x, pose.y), unit.facing, [f"blunder: {kind}"])


def _ahead(ctx: Context, unit: Unit, length: float) -> Unit | None:
    """The nearest enemy to the unit's front that ``length`` inches of charge would reach."""
    here = Footprint.of(unit)
    found = [
        e
        for e in ctx.state.enemies_of(unit.side, on_table=True)
        if quarter(here, (e.x, e.y)) == "front"
        and measure.charge_distance(unit, e, ctx.state) <= length + 1e-6
        and measure.sight(ctx.state, unit, e).clear
    ]
    return min(found, key=lambda e: measure.gap(unit, e)) if found else None
