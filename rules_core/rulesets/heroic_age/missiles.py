"""The Missile Exchange: simultaneous, 2" range, 2 D6 a stand, halved against retinues or
cover, 6 hits; each hit drops a level above Present, otherwise gives a DP."""

from __future__ import annotations

import math

from rules_core.context import Context
from rules_core.dice import Modifier, Purpose
from rules_core.events import ShotFired, ShotResolved
from rules_core.geometry import EPSILON, Footprint, boxes_apart, range_from_front
from rules_core.odds import RollSpec
from rules_core.rulesets.heroic_age import gods, measure, tables
from rules_core.rulesets.heroic_age import units as u
from rules_core.rulesets.heroic_age.status import BROKEN, RETIRING, SKILLED_ARCHER
from rules_core.state import BattleState, Unit
from rules_core.toolkit import Shot, checked_orders

HIT_EFFECTS = "hit_effects"  # a shot's hits are applied once every unit has shot


def shoots(unit: Unit) -> bool:
    """Whether the unit's profile gives it missiles."""
    return unit.profile.get("missile") is True


def problem(state: BattleState, shooter: Unit, target: Unit) -> str | None:
    """Why ``shooter`` may not shoot at ``target``, or None."""
    held = shooter_problem(state, shooter)
    if held is not None:
        return held
    if target.side == shooter.side:
        return f"{target.name} is a friend"
    reach = tables.number(tables.MISSILE, "range", "value")
    apart = range_from_front(Footprint.of(shooter), Footprint.of(target))
    if not u.within(apart, reach):
        return f'{target.name} is {apart:.1f}" away; range is {reach:g}"'
    return None


def shooter_problem(state: BattleState, shooter: Unit) -> str | None:
    """Why ``shooter`` may not shoot at all, whatever the target, or None."""
    if not shoots(shooter):
        return f"{shooter.name} has no missiles"
    if BROKEN.of(shooter) or RETIRING.of(shooter):
        return f"{shooter.name} is broken or retiring"
    if u.engaged_with(state, shooter):
        return f"{shooter.name} is in combat"
    return None


def targets(state: BattleState, shooter: Unit) -> list[Unit]:
    """The enemies it may shoot at, nearest first."""
    reach = tables.number(tables.MISSILE, "range", "value")
    found = [
        e
        for e in state.enemies_of(shooter.side)
        if _may_reach(shooter, e, reach) and problem(state, shooter, e) is None
    ]
    return sorted(found, key=lambda e: u.gap(state, shooter, e))


def _may_reach(shooter: Unit, target: Unit, reach: float) -> bool:
    """False if the target is surely beyond ``reach``: the range is at least the boxes'
    distance, so one whose box lies further is (the exact range is ``problem``'s to measure)."""
    return not boxes_apart(Footprint.of(shooter), Footprint.of(target), reach + EPSILON)


def has_choice(state: BattleState, shooter: Unit) -> bool:
    """Whether it may shoot at more than one enemy (``len(targets(...)) > 1``, counted only
    as far as the second)."""
    if shooter_problem(state, shooter) is not None:
        return False  # no target at all: the shooter's own problem holds for each
    reach = tables.number(tables.MISSILE, "range", "value")
    found = 0
    for enemy in state.enemies_of(shooter.side):
        if _may_reach(shooter, enemy, reach) and problem(state, shooter, enemy) is None:
            found += 1
            if found > 1:
                return True
    return False


def resolve(ctx: Context) -> None:
    """Every eligible unit shoots (at its ordered target, else the nearest); all at once."""
    ordered = {o.actor: str(o.params["target"]) for o in checked_orders(ctx, ("shoot",))}
    held = {o.actor for o in checked_orders(ctx, ("hold",))}
    shots: list[Shot] = []
    for side in ctx.state.cursor.side_order:
        for shooter in ctx.state.units_of(side):
            if shooter.id in held or not shoots(shooter):
                continue
            target = _target(ctx.state, shooter, ordered.get(shooter.id))
            if target is not None:
                shots.append(Shot(shooter.id, target.id, _roll(ctx, shooter, target)))
    for shot in shots:
        _apply(ctx, shot)
    for unit in ctx.state.units:
        if SKILLED_ARCHER.of(unit):
            ctx.set_status(unit.id, "the skilled archer's exchange is over", skilled_archer=False)


def _target(state: BattleState, shooter: Unit, wanted: str | None) -> Unit | None:
    if wanted and u.alive(state, wanted) and problem(state, shooter, state.unit(wanted)) is None:
        return state.unit(wanted)
    found = targets(state, shooter)
    return found[0] if found else None


def dice_for(
    state: BattleState, shooter: Unit, target: Unit, cover: tuple[str, ...]
) -> tuple[int, list[Modifier]]:
    """Dice before and the changes to them, each with its reason."""
    per_stand = tables.whole(tables.MISSILE, "dice_per_stand", "value")
    stands = u.front_stands(shooter)
    base = stands * per_stand
    mods: list[Modifier] = []
    if SKILLED_ARCHER.of(shooter):
        mods.append(Modifier(per_stand, "skilled archer: one stand's dice doubled (the Five)"))
    halved = target.type == "retinue" or measure.in_terrain(state, target, cover)
    if halved:
        share = tables.number(tables.MISSILE, "halved", "value")
        total = base + sum(m.value for m in mods)
        kept = math.ceil(total * share)
        why = "target is a retinue" if target.type == "retinue" else "target in cover"
        mods.append(Modifier(kept - total, f"½ dice, round up ({why})"))
    return base, mods


def missile_roll(
    state: BattleState, shooter: Unit, target: Unit, cover: tuple[str, ...]
) -> RollSpec:
    """The shooter's roll at the target: its dice (halved against a retinue or cover), 6 hits;
    rolled by the exchange and read by the odds."""
    base, mods = dice_for(state, shooter, target, cover)
    hit = tables.whole(tables.MISSILE, "hit", "value")
    label = f"Missiles: {shooter.name} at {target.name} ({u.front_stands(shooter)} stands)"
    why = Purpose(shooter.id, "missiles", target.id)
    return RollSpec(label, base, mode="pool", target=hit, dice_modifiers=tuple(mods), purpose=why)


def _roll(ctx: Context, shooter: Unit, target: Unit) -> int:
    cover = measure.kinds(ctx.params, "cover_terrain")
    roll = missile_roll(ctx.state, shooter, target, cover).roll(ctx.dice)
    roll = gods.reroll(ctx, shooter.side, f"missiles of {shooter.name}", roll)
    apart = range_from_front(Footprint.of(shooter), Footprint.of(target))
    ctx.emit(ShotFired(shooter.id, target.id, round(apart, 2)))
    hits, next_ = roll.total, HIT_EFFECTS if roll.total else ""
    # no line of its own: the roll and the hits' effects say it
    ctx.emit(
        ShotResolved(target.id, "", hits, hits > 0, "", False, shooter.id, target.id, hits, next_)
    )
    return hits


def _apply(ctx: Context, shot: Shot) -> None:
    """Each hit: a level off if above Present, otherwise a DP; leaders at risk if hit."""
    if not shot.hits or not u.alive(ctx.state, shot.target):
        return
    shooter = ctx.state.unit(shot.shooter).name if u.alive(ctx.state, shot.shooter) else "missiles"
    for _ in range(shot.hits):
        if not u.alive(ctx.state, shot.target):
            return
        target = ctx.state.unit(shot.target)
        if u.level_index(target) > 1:
            row = "above_present"
            levels = tables.whole(tables.MISSILE_HIT_EFFECT, row, "levels")
            text = tables.MISSILE_HIT_EFFECT.lookup(row, "sheet")
            u.change_aggression(ctx, target.id, levels, f"missile hit from {shooter}: {text}")
        else:
            dps = tables.whole(tables.MISSILE_HIT_EFFECT, "otherwise", "dps")
            text = tables.MISSILE_HIT_EFFECT.lookup("otherwise", "sheet")
            u.add_dps(ctx, target.id, dps, f"missile hit from {shooter}: {text}", "shooting")
    if u.alive(ctx.state, shot.target):
        u.risk_to_leaders(ctx, ctx.state.unit(shot.target), f"hit by {shooter}")
