"""Movement after combat, losing units first: fall back, retire, break; then the winners
follow up or pursue (the free hack on 3+); broken units flee until they outdistance pursuit."""

from __future__ import annotations

from rules_core.context import Context
from rules_core.decisions import QUICK_HOURS
from rules_core.dice import Purpose
from rules_core.geometry import facing_towards
from rules_core.rulesets.heroic_age import gods, measure, moves, tables
from rules_core.rulesets.heroic_age import units as u
from rules_core.rulesets.heroic_age.status import (
    AFTER_MOVE,
    BROKEN,
    COMBAT_ENEMIES,
    RETIRING,
)
from rules_core.rulesets.heroic_age.topics import FOLLOW_UP, FOLLOW_WORDS
from rules_core.state import Unit
from rules_core.unit_questions import options_of, unit_question

LOSERS = ("fall_back", "retire", "break")


def resolve(ctx: Context) -> None:
    """Losers move first, then winners; broken units that outdistanced pursuit are gone."""
    movers = [x for x in ctx.state.units if AFTER_MOVE.of(x)]
    for unit in movers:
        move = AFTER_MOVE.of(unit)
        if move in LOSERS and u.alive(ctx.state, unit.id):
            _lose(ctx, ctx.state.unit(unit.id), move)
    for unit in movers:
        if AFTER_MOVE.of(unit) == "pursue" and u.alive(ctx.state, unit.id):
            _win(ctx, ctx.state.unit(unit.id))
    for unit in list(ctx.state.units):
        if u.alive(ctx.state, unit.id) and AFTER_MOVE.of(unit):
            ctx.set_status(unit.id, None, after_move="")
    outdistanced(ctx)


def _lose(ctx: Context, unit: Unit, move: str) -> None:
    if move == "fall_back":
        fall_back(ctx, unit)
    elif move == "retire":
        moves.retire_move(ctx, unit.id, "retires after combat")
    else:
        ctx.set_status(unit.id, "breaks", broken=True, unformed=True, pursuing=False)
        u.knock_on_loss(ctx, ctx.state.unit(unit.id), "broke")
        u.standard_leaves(ctx, ctx.state.unit(unit.id), "routing")
        flee(ctx, unit.id)


def fall_back(ctx: Context, unit: Unit) -> None:
    """Back 1 base depth facing the enemy; unable: remain in place and take 1 DP."""
    depth = unit.profile.get("stand_depth", 1.0)
    length = float(depth) if isinstance(depth, int | float) else 1.0
    heading = (unit.facing + 180) % 360
    gone = moves.travel(ctx, unit, heading, length, unit.facing, "falls back", keep_off=False)
    if gone < length - 1e-3:
        dps = tables.whole(tables.AFTER_COMBAT, "fall_back", "dps_if_unable")
        u.add_dps(ctx, unit.id, dps, "unable to fall back", "combat")


def flee(ctx: Context, unit_id: str) -> None:
    """A broken unit's full unformed move away; unable to move, it surrenders to an enemy
    within 2"."""
    if not u.alive(ctx.state, unit_id):
        return
    unit = ctx.state.unit(unit_id)
    length = moves.fast_distance(ctx, unit, "Break")
    heading = measure.away_heading(ctx.state, unit)
    gone = moves.travel(ctx, unit, heading, length, heading, "flees", keep_off=False, unformed=True)
    if gone <= measure.EPS:
        near = u.nearest_enemy(ctx.state, unit)
        if near is not None and u.within(u.gap(ctx.state, unit, near), tables.SURRENDER_RANGE):
            u.lose_unit(ctx, unit_id, f"unable to move, surrenders to {near.name}", "surrendered")


def outdistanced(ctx: Context) -> None:
    """A broken unit no pursuer touches has outdistanced pursuit and is eliminated."""
    for unit in list(ctx.state.units):
        if BROKEN.of(unit) and u.alive(ctx.state, unit.id) and not u.engaged_with(ctx.state, unit):
            u.lose_unit(ctx, unit.id, "outdistanced pursuit: eliminated", "broken")


def fought(unit: Unit) -> list[str]:
    """The ids of the enemies the unit fought in its last combat (``combat.opponents``)."""
    kept = COMBAT_ENEMIES.of(unit)
    if isinstance(kept, str):
        return [kept] if kept else []  # a battle saved before #39 kept one id
    return [str(x) for x in kept] if isinstance(kept, list) else []


def quarry(ctx: Context, unit: Unit) -> Unit | None:
    """The enemy of its own the unit goes after: the first it fought that broke or is
    retiring (pursued), else the first still on the table (followed up); None if none is."""
    alive = [ctx.state.unit(x) for x in fought(unit) if u.alive(ctx.state, x)]
    fled = (e for e in alive if BROKEN.of(e) or RETIRING.of(e))
    return next(fled, alive[0] if alive else None)


def _win(ctx: Context, unit: Unit) -> None:
    """Victory or success: follow up an enemy it fought that fell back; pursue one that broke
    or retired."""
    enemy = quarry(ctx, unit)
    if enemy is None or u.engaged_with(ctx.state, unit):
        return
    if BROKEN.of(enemy) or RETIRING.of(enemy):
        # it keeps only its quarry, so the pursuit goes on after the same unit in later turns
        ctx.set_status(
            unit.id, f"pursues {enemy.name}", pursuing=True, unformed=True, combat_enemy=[enemy.id]
        )
        pursue_on(ctx, unit.id)
        return
    question = f"{enemy.name} fell back from {unit.name}: follow up or halt?"
    key, options = f"follow_up:{unit.id}", options_of(FOLLOW_WORDS)
    pair = (unit, enemy)
    asked = unit_question(key, question, options, "follow_up", pair, FOLLOW_UP, QUICK_HOURS)
    if ctx.ask(asked) == "follow_up":
        _close(ctx, unit, enemy, "follows up")
        if u.engaged_with(ctx.state, ctx.state.unit(unit.id)):
            ctx.set_status(unit.id, "followed up an opponent that fell back", following_up=True)


def _close(ctx: Context, unit: Unit, enemy: Unit, note: str, length: float | None = None) -> float:
    heading = facing_towards((unit.x, unit.y), (enemy.x, enemy.y))
    reach = u.gap(ctx.state, unit, enemy) + 0.5 if length is None else length
    return moves.travel(
        ctx, unit, heading, reach, heading, note, keep_off=False, unformed=length is not None
    )


def pursue_on(ctx: Context, unit_id: str) -> None:
    """A full unformed move after the unit pursued; catching it gives the free hack and breaks
    a retiring unit."""
    unit = ctx.state.unit(unit_id)
    chased = quarry(ctx, unit)
    if chased is None:
        ctx.set_status(unit_id, "nothing left to pursue", pursuing=False)
        return
    quarry_id = chased.id
    length = moves.fast_distance(ctx, unit, "Pursue")
    _close(ctx, unit, chased, f"pursues {chased.name}", length)
    unit = ctx.state.unit(unit_id)
    caught = [e for e in u.engaged_with(ctx.state, unit)]
    if any(e.id == quarry_id for e in caught):
        free_hack(ctx, unit, chased)
        if u.alive(ctx.state, quarry_id) and RETIRING.of(ctx.state.unit(quarry_id)):
            ctx.set_status(quarry_id, "caught by pursuers while retiring: breaks", broken=True)
            u.knock_on_loss(ctx, ctx.state.unit(quarry_id), "broke")
    elif caught:
        ctx.set_status(
            unit_id,
            f"pursuers encountering new enemy {caught[0].name} charge",
            charged=True,
            charge_combat=True,
        )


def free_hack(ctx: Context, pursuer: Unit, quarry: Unit) -> None:
    """One die per engaged stand, a casualty for every 3+."""
    stands = u.front_stands(pursuer) * tables.FREE_HACK_DICE_PER_STAND
    lowest = next(b.low for b in tables.FREE_HACK.bands if b.result == "casualty")
    assert lowest is not None
    why = Purpose(pursuer.id, "free hack", quarry.id)
    roll = ctx.dice.pool(
        f"Free hack: {pursuer.name} on {quarry.name} ({stands} stands)", stands, lowest, purpose=why
    )
    roll = gods.reroll(ctx, pursuer.side, f"free hack of {pursuer.name}", roll)
    if roll.total:
        u.casualties(
            ctx,
            quarry.id,
            roll.total,
            f"free hack by {pursuer.name} ({tables.FREE_HACK.bands[-1].row})",
        )
