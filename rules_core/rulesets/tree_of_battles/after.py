"""Movement after combat: each result's troop-specific clauses, then halt, fall back, follow up,
retire, break and pursue (a pursuer meeting new enemy fights it at once as a new charge)."""

from __future__ import annotations

from rules_core.context import Context
from rules_core.decisions import Option
from rules_core.geometry import Footprint, within
from rules_core.rulesets.tree_of_battles import (
    charges,
    combat,
    losses,
    measure,
    movement,
    retreats,
)
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.status import (
    BROKEN,
    CHARGED,
    COMBAT_RESULT,
    FOUGHT_MELEE,
    RESPONSE,
    RETIRING,
)
from rules_core.rulesets.tree_of_battles.topics import AFTER_COMBAT, AFTER_WORDS
from rules_core.state import BattleState, Unit
from rules_core.toolkit import enemies_in_contact
from rules_core.unit_questions import unit_question

LOSERS = ("break", "retire", "fall_back")
MAX_NEW_CHARGES = 3


def _foot_may_halt(unit: Unit) -> bool:
    """Non-chivalrous A and B grade foot who did not charge or counter-charge."""
    plain = not u.mounted(unit) and not u.chivalrous(unit) and unit.quality in ("A", "B")
    return plain and not CHARGED.of(unit)


def _charged_good_foot(state: BattleState, unit: Unit, enemy: Unit) -> bool:
    """Mounted who frontally charged good array foot."""
    frontal = measure.quarter_of(enemy, unit) == "front"
    good_foot = not u.mounted(enemy) and u.array(enemy) == "good"
    return u.mounted(unit) and CHARGED.of(unit) and frontal and good_foot


def choices(state: BattleState, unit: Unit, enemy: Unit, result: str) -> list[str]:
    """The moves a result allows this contingent, the sheet's default first."""
    if result == "victory":
        return ["halt", "pursue"] if _foot_may_halt(unit) else ["pursue"]
    if result == "success":
        stood = not u.mounted(unit) and RESPONSE.of(unit) == "stand"
        if stood and u.mounted(enemy) and CHARGED.of(enemy):
            return ["halt"]
        if _charged_good_foot(state, unit, enemy):
            return ["retire"]
        return ["follow_up", "pursue"] + (["halt"] if _foot_may_halt(unit) else [])
    if result == "inconclusive":
        if not u.mounted(unit):
            return ["halt", "fall_back"]
        if _charged_good_foot(state, unit, enemy) or FOUGHT_MELEE.of(unit):
            return ["retire"]
        return ["halt", "follow_up", "retire"]
    return _beaten(unit, enemy, result)


def _beaten(unit: Unit, enemy: Unit, result: str) -> list[str]:
    """Set-back, defeat and rout."""
    if result == "rout" or (result != "set_back" and u.array(unit) in ("skirmish", "disarray")):
        return ["break"]
    if result == "defeat":
        return ["retire"]
    if u.array(unit) == "disarray":
        return ["break"]
    charged_by_mounted = u.mounted(enemy) and CHARGED.of(enemy) and not CHARGED.of(unit)
    if not u.mounted(unit) and charged_by_mounted:
        return ["halt"]
    return ["retire"] if u.array(unit) == "skirmish" else ["fall_back"]


def choose(ctx: Context, unit: Unit, enemy: Unit, result: str) -> str:
    """The move: forced if only one is allowed, else the owning player chooses."""
    allowed = choices(ctx.state, unit, enemy, result)
    if len(allowed) == 1:
        return allowed[0]
    options = tuple(Option(key, AFTER_WORDS[key]) for key in allowed)
    question = (
        f"{unit.name} ({result.replace('_', ' ')}) against {enemy.name}: what move after combat?"
    )
    key, pair = f"after:{unit.id}", (unit, enemy)
    return ctx.ask(unit_question(key, question, options, allowed[0], pair, AFTER_COMBAT))


def carry_out(ctx: Context, unit_id: str, enemy_id: str, move: str, depth: int = 0) -> None:
    """Carry out one move after combat."""
    if not u.alive(ctx.state, unit_id):
        return
    unit = ctx.state.unit(unit_id)
    enemy = ctx.state.unit(enemy_id) if u.alive(ctx.state, enemy_id) else None
    threat = (enemy.x, enemy.y) if enemy else retreats.threat_of(ctx, unit)
    if move == "fall_back":
        retreats.fall_back(ctx, unit, threat)
    elif move == "retire":
        if COMBAT_RESULT.of(unit) == "defeat":
            u.set_array(ctx, unit.id, "disarray", "defeated: falls into disarray")
        retreats.retire(ctx, ctx.state.unit(unit.id), threat, "after combat")
    elif move == "break":
        retreats.rout(ctx, unit, threat, "after combat")
    elif move == "follow_up" and enemy is not None:
        _follow_up(ctx, unit, enemy)
    elif move == "pursue":
        pursue(ctx, unit, enemy, depth)


def _follow_up(ctx: Context, unit: Unit, enemy: Unit) -> None:
    """Move forward to remain in combat with the opponent (if it fell back, not if it fled)."""
    if enemies_in_contact(ctx.state, unit):
        return
    need = measure.distance_to_contact(unit, enemy)
    if not within(need, enemy.depth):
        return
    # A follow-up is a move like any other: it may not pass through or end on another
    # contingent (found by the AI fuzzer, seed 69: crossbowmen followed up onto the bombards
    # beside them). With no room it stays where it stands.
    blocked = charges.room_problem(ctx.state, unit, enemy)
    if blocked:
        here = (unit.x, unit.y)
        ctx.move(unit.id, [here, here], unit.facing, [f"cannot follow up: {blocked}"])
        return
    pose = measure.contact_pose(unit, enemy)
    ctx.move(
        unit.id,
        [(unit.x, unit.y), (pose.x, pose.y)],
        pose.facing,
        ["follows up"],
    )


def pursue(ctx: Context, unit: Unit, quarry: Unit | None, depth: int = 0) -> None:
    """A full fast move in disarray after the opponent; catching it or new enemy means combat."""
    u.set_array(ctx, unit.id, "disarray", "pursues")
    u.set_flags(ctx, unit.id, "pursues", pursuing=True)
    u.mark(ctx, unit.id, stationary=False)
    if quarry is None:
        return
    unit = ctx.state.unit(unit.id)
    length, _ = movement.roll_distance(ctx, unit, "Fast move (pursuit)", movement.fast_dice(unit))
    need = measure.distance_to_contact(unit, quarry)
    pose = measure.contact_pose(unit, quarry)
    start = Footprint.of(unit)
    if within(need, length) and not measure.blockers(ctx.state, unit, [start, pose], {quarry.id}):
        fleeing = fled(quarry)
        why = "pursuit catches its quarry" if fleeing else _in_contact(quarry)
        ctx.move(unit.id, [(unit.x, unit.y), (pose.x, pose.y)], pose.facing, [why])
        if fleeing:
            caught(ctx, ctx.state.unit(unit.id), quarry)
        return
    movement.go(ctx, unit, (pose.x, pose.y), length, pose.facing, "pursues", halt=False)
    _new_enemy(ctx, ctx.state.unit(unit.id), quarry, depth)


def fled(quarry: Unit) -> bool:
    """A quarry that retired or broke: one that fell back or halted is only kept in contact.

    The sheet breaks only retiring troops caught ("Retire. ... Break if caught by pursuers and
    the pursuers get a free hack"); a pursuer tries "to remain in contact with opponent", so
    one that fell back ("Move back base depth facing the enemy") or halted stays in mêlée.
    """
    return RETIRING.of(quarry) or BROKEN.of(quarry)


def _in_contact(quarry: Unit) -> str:
    """The pursuit's note when the quarry did not retire or break."""
    return (
        f"pursues and stays in contact with {quarry.name}: the mêlée goes on"
        " (only retiring troops caught by pursuers break)"
    )


def caught(ctx: Context, pursuer: Unit, quarry: Unit) -> None:
    """Retiring or routing troops caught by pursuers break, and the pursuers get a free hack."""
    hack = int(ctx.number("free_hack_casualties"))
    losses.casualties(ctx, quarry, hack, f"free hack by {pursuer.name}")
    if u.alive(ctx.state, quarry.id):
        retreats.rout(
            ctx, ctx.state.unit(quarry.id), (pursuer.x, pursuer.y), f"caught by {pursuer.name}"
        )


def _new_enemy(ctx: Context, pursuer: Unit, quarry: Unit, depth: int) -> None:
    """Pursuers encountering new enemy come into combat with them, worked out as a new charge."""
    met = [e for e in enemies_in_contact(ctx.state, pursuer) if e.id != quarry.id]
    if not met or depth >= MAX_NEW_CHARGES:
        return
    enemy = met[0]
    u.mark(ctx, pursuer.id, charged=True, melee_with=None)
    first, second = combat.fight(ctx, pursuer, enemy)
    for outcome, other in ((first, enemy), (second, pursuer)):
        if u.alive(ctx.state, outcome.unit):
            archers = combat.mounted_charged_archers(ctx.state.unit(outcome.unit), other)
            combat.apply_losses(ctx, outcome, archers)
    resolve_pair(ctx, pursuer.id, enemy.id, depth + 1)


def resolve_pair(ctx: Context, a: str, b: str, depth: int = 0) -> None:
    """Choose and carry out both sides' moves after one combat, the beaten side first."""
    plans: list[tuple[str, str, str]] = []
    for mine, theirs in ((a, b), (b, a)):
        if not u.alive(ctx.state, mine):
            continue
        unit = ctx.state.unit(mine)
        result = COMBAT_RESULT.of(unit)
        if not result or not u.alive(ctx.state, theirs):
            continue
        plans.append((mine, theirs, choose(ctx, unit, ctx.state.unit(theirs), result)))
    plans.sort(key=lambda plan: plan[2] not in LOSERS)
    for mine, theirs, move in plans:
        carry_out(ctx, mine, theirs, move, depth)
