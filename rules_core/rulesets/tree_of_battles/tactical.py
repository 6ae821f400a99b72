"""The approach and tactical movement phases: march moves, routs and pursuits, forced moves,
ordered moves and manoeuvres (skirmishers may shoot at any point in their move)."""

from __future__ import annotations

import math
from dataclasses import replace

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.geometry import Footprint, facing_towards
from rules_core.orders import Order, point_param
from rules_core.rulesets.tree_of_battles import (
    measure,
    movement,
    retreats,
    shooting,
    tables,
)
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.orders import ARRAY_CHANGES, move_dice
from rules_core.rulesets.tree_of_battles.status import (
    BROKEN,
    CONTROL,
    LAST_MOVE,
    PURSUING,
    RETIRING,
    SHOOTING_DPS,
)
from rules_core.state import Unit
from rules_core.toolkit import engaged, landing_on


def march(ctx: Context, order: Order) -> None:
    """A march move: straight to the point, no dice."""
    unit = ctx.state.unit(order.actor)
    end = point_param(order, "to")
    facing = order.params.get("facing", movement.final_facing(unit, end, None))
    assert isinstance(facing, int | float)
    start = (unit.x, unit.y)
    pose = Footprint.of(unit).moved_to(end, float(facing))
    blocked = movement.barrier_problem(ctx.state, unit, end, float(facing))
    if blocked or landing_on(ctx.state, unit, pose) is not None:
        # Impassable ground came in the way after the order was checked, or a contingent moved
        # (earlier this phase) to where it ends: it stops short of either.
        length = math.dist(start, end)
        movement.go(ctx, unit, end, length, float(facing), "march move", halt=False)
    else:
        ctx.move(unit.id, [start, end], float(facing), ["march move"])
    movement.terrain_dps(ctx, unit, start, ())
    _moved(ctx, unit)


def _moved(ctx: Context, unit: Unit) -> None:
    """Remember a contingent moved (not stationary) and how, for "repeat last move"."""
    now = ctx.state.unit(unit.id)
    last: list[Json] = [round(now.x - unit.x, 3), round(now.y - unit.y, 3), round(now.facing, 3)]
    u.mark(ctx, unit.id, stationary=False, last_move=last)


def routs_and_pursuits(ctx: Context) -> None:
    """Broken contingents rout on; pursuers chase; both before any ordered move."""
    for unit_id in [x.id for x in ctx.state.units_on_table]:
        if not u.alive(ctx.state, unit_id):
            continue
        unit = ctx.state.unit(unit_id)
        if BROKEN.of(unit):
            retreats.keep_routing(ctx, unit)
        elif PURSUING.of(unit) and not engaged(ctx.state, unit):
            _chase(ctx, unit)


def _chase(ctx: Context, unit: Unit) -> None:
    """A pursuer's fast move toward the nearest fleeing enemy (else the nearest enemy)."""
    enemies = ctx.state.enemies_of(unit.side, on_table=True)
    fleeing = [e for e in enemies if BROKEN.of(e) or RETIRING.of(e)]
    quarry = measure.nearest(fleeing, unit) or measure.nearest(enemies, unit)
    if quarry is None:
        return
    length, _ = movement.roll_distance(ctx, unit, "Fast move (pursuit)", movement.fast_dice(unit))
    pose = measure.contact_pose(unit, quarry)
    movement.go(ctx, unit, (pose.x, pose.y), length, pose.facing, "pursues", halt=False)
    if engaged(ctx.state, ctx.state.unit(unit.id)):
        u.mark(ctx, unit.id, charged=True)
    _moved(ctx, unit)


def forced(ctx: Context) -> set[str]:
    """Moves a control test (or chivalry within 6 SF) imposes; the ids of those moved."""
    done: set[str] = set()
    for unit in list(ctx.state.units_on_table):
        how = CONTROL.of(unit)
        if how not in ("charge_a", "charge_a_max", "advance", "repeat", "full_speed"):
            continue
        if engaged(ctx.state, unit) or BROKEN.of(unit):
            continue
        done.add(unit.id)
        if how == "repeat":
            _repeat(ctx, unit)
        else:
            _advance(ctx, unit, how)
    return done


def quarry_for(ctx: Context, unit: Unit, how: str) -> Unit | None:
    """Chivalry goes for the nearest A grade; others for the nearest enemy."""
    present = ctx.state.enemies_of(unit.side, on_table=True)
    enemies = [e for e in present if e.type != "baggage"] or list(present)
    if how in ("charge_a", "charge_a_max"):
        best = [e for e in enemies if e.quality == "A"]
        enemies = best or enemies
    return measure.nearest(enemies, unit)


def _advance(ctx: Context, unit: Unit, how: str) -> None:
    target = quarry_for(ctx, unit, how)
    if target is None:
        return
    fast = how in ("charge_a_max", "full_speed")
    dice = movement.fast_dice(unit) if fast else movement.normal_dice(unit, 2, "all", False)
    what = "Move at max speed" if fast else "Advance"
    length, faces = movement.roll_distance(ctx, unit, what, dice)
    facing = facing_towards((unit.x, unit.y), (target.x, target.y))
    start = (unit.x, unit.y)
    movement.wheel_dps(ctx, unit, facing)
    movement.go(
        ctx,
        ctx.state.unit(unit.id),
        (target.x, target.y),
        length,
        facing,
        f"advances on {target.name}",
    )
    movement.terrain_dps(ctx, unit, start, faces)
    _moved(ctx, unit)


def _repeat(ctx: Context, unit: Unit) -> None:
    last = LAST_MOVE.of(unit)
    if not isinstance(last, list) or len(last) != 3 or not any(last[:2]):
        return
    dx, dy, facing = (float(v) for v in last if isinstance(v, int | float))
    movement.go(
        ctx, unit, (unit.x + dx, unit.y + dy), math.hypot(dx, dy), facing, "repeats its last move"
    )
    _moved(ctx, unit)


def move(ctx: Context, order: Order) -> None:
    """A normal move (or road move), then any skirmish shooting during it."""
    unit = ctx.state.unit(order.actor)
    end = point_param(order, "to")
    raw = order.params.get("facing")
    facing = movement.final_facing(unit, end, float(raw) if isinstance(raw, int | float) else None)
    start = (unit.x, unit.y)
    if order.params.get("option") == "road":
        road = tables.MOVE_DISTANCES.lookup("road", "foot")
        assert isinstance(road, float)
        movement.go(ctx, unit, end, road, facing, "moves along the road")
        _moved(ctx, unit)
        return
    dice = move_dice(ctx.state, unit, order)
    assert not isinstance(dice, str)
    length, faces = movement.roll_distance(ctx, unit, "Move", dice)
    movement.wheel_dps(ctx, unit, facing)
    movement.go(ctx, ctx.state.unit(unit.id), end, length, facing, "moves")
    movement.terrain_dps(ctx, unit, start, faces)
    _moved(ctx, unit)
    if "target" in order.params and u.skirmishers(unit):
        _skirmish_shot(ctx, unit.id, str(order.params["target"]))


def _skirmish_shot(ctx: Context, unit_id: str, target_id: str) -> None:
    """Skirmishers may shoot at any point in their move: from its end, else not at all."""
    if not u.alive(ctx.state, unit_id) or not u.alive(ctx.state, target_id):
        return
    shot = shooting.plan(ctx.state, ctx.state.unit(unit_id), ctx.state.unit(target_id), ctx.params)
    if isinstance(shot, str):
        return
    hits = shooting.resolve(ctx, shot)
    apply_shooting(ctx, shot, hits)


def apply_shooting(ctx: Context, shot: shooting.Shot, hits: int) -> None:
    """Record a shot on its target: DPs, shot at, shooting DPs, shot by artillery or handguns."""
    if not u.alive(ctx.state, shot.target.id):
        return
    target = ctx.state.unit(shot.target.id)
    kind = u.missile(shot.shooter)
    changes = {"shot_at": True, "shooting_dps": SHOOTING_DPS.of(target) + hits}
    if kind == "artillery":
        changes["shot_by_artillery"] = True
    if kind == "hand_gunners":
        changes["shot_by_handguns"] = True
    u.mark(ctx, target.id, **changes)
    u.add_dps(ctx, target.id, hits, f"shot by {shot.shooter.name}")


def manoeuvre(ctx: Context, order: Order) -> None:
    """A manoeuvre with its cost from the sheet; a ½ move ones may then move the other half."""
    unit = ctx.state.unit(order.actor)
    option = str(order.params["option"])
    key = "change_array" if option in ARRAY_CHANGES else option
    dps = tables.MANOEUVRES.lookup(key, "dps")
    within = tables.MANOEUVRES.lookup(key, "enemy_within")
    spared = str(tables.MANOEUVRES.lookup(key, "spared")).split(",")
    assert isinstance(dps, int)
    assert within is None or isinstance(within, int | float)
    near = within is None or measure.enemy_within(ctx.state, unit, float(within))
    if near and unit.quality not in spared and u.array(unit) not in spared:
        sheet = str(tables.MANOEUVRES.lookup(key, "sheet"))
        u.add_dps(ctx, unit.id, dps, sheet.split(":")[0].lower())
    _change(ctx, ctx.state.unit(unit.id), option, order)
    share = tables.MANOEUVRES.lookup(key, "move")
    assert isinstance(share, float)
    if option == "pass_gap" and u.mounted(unit):
        share = 0.0
    if "to" in order.params and share < 1.0:
        _half_move(ctx, ctx.state.unit(unit.id), point_param(order, "to"), share)
    u.mark(ctx, unit.id, stationary=False)


def _change(ctx: Context, unit: Unit, option: str, order: Order) -> None:
    """What the manoeuvre changes: array, facing, frontage, mounted."""
    if option == "rally":
        u.set_array(ctx, unit.id, "good", "rallies from disarray")
    elif option in ARRAY_CHANGES:
        u.set_array(ctx, unit.id, ARRAY_CHANGES[option], "change of array")
    elif option == "about_face":
        ctx.move(unit.id, [(unit.x, unit.y)], unit.facing + 180, ["about face"])
    elif option == "change_frontage":
        count = order.params["count"]
        assert isinstance(count, int)
        ranks = math.ceil(u.stands_left(unit) / count)
        stand = unit.depth / u.ranks(unit)
        ctx.set_status(unit.id, "change frontage", ranks=ranks)
        ctx.state = ctx.state.with_unit(
            replace(ctx.state.unit(unit.id), frontage=float(count), depth=ranks * stand)
        )
    elif option in ("mount", "dismount"):
        ctx.set_status(unit.id, option, mounted=option == "mount")
    elif option == "exchange_ranks":
        ctx.set_status(unit.id, "exchange ranks", ranks_exchanged=True)


def _half_move(ctx: Context, unit: Unit, end: tuple[float, float], share: float) -> None:
    """The part of the move a manoeuvre leaves."""
    rough, _ = movement.rough_on(ctx.state, Footprint.of(unit), end)
    length, faces = movement.roll_distance(
        ctx, unit, "Move", movement.normal_dice(unit, 2, "plain", rough)
    )
    start = (unit.x, unit.y)
    movement.go(
        ctx,
        unit,
        end,
        length * (1 - share),
        unit.facing,
        f"moves the remaining {1 - share:g} of its move",
    )
    movement.terrain_dps(ctx, unit, start, faces)
    _moved(ctx, unit)
