"""Steps 7-10: the deployment roll, then the commands placed, biggest first."""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.context import Context
from rules_core.decisions import Decision, Option
from rules_core.dice import Modifier, Purpose, Roll
from rules_core.orders import Preview, point_param
from rules_core.plugin import Rules
from rules_core.rulesets.impetus.prebattle.declared import (
    CS_REROLLS,
    DEPLOY_ORDER,
    DEPLOY_REROLL,
    ORDER_WORDS,
    REROLL_WORDS,
)
from rules_core.rulesets.impetus.prebattle.judging import deploy_problem
from rules_core.rulesets.impetus.prebattle.reading import (
    command_structure,
    exploration_points,
    facing_of,
    other_side,
    role_side,
)
from rules_core.state import RESERVE, BattleState, Point, Unit


def deploy_roll(ctx: Context) -> None:
    """Each side rolls 2D6 + unused exploration points, re-rolls as its command structure
    allows, and the winner chooses who deploys first."""
    state = ctx.state
    sides = tuple(state.cursor.side_order)
    rolls = {side: _deploy_roll(ctx, side, "") for side in sides}
    questions = [q for q in (_reroll_question(ctx, side, rolls) for side in sides) if q]
    answers = ctx.ask_all(questions) if questions else ()
    for question, answer in zip(questions, answers, strict=True):
        side = question.who
        indexes = {"keep": (), "first": (0,), "second": (1,), "both": (0, 1)}[answer]
        if indexes:
            rolls[side] = ctx.dice.reroll(
                rolls[side],
                indexes,
                f"Deployment roll of {state.side(side).name}, re-rolled "
                f"({command_structure(state, side)} CS)",
            )
    attempt = 1
    while rolls[sides[0]].total == rolls[sides[1]].total and attempt < 20:
        if str(ctx.params["deploy_ties"]) != "reroll":
            break
        attempt += 1
        rolls = {side: _deploy_roll(ctx, side, f" (tie, roll {attempt})") for side in sides}
    first, second = sides
    if rolls[first].total == rolls[second].total:
        winner = role_side(state, "defender") or first
    else:
        winner = max(sides, key=lambda s: rolls[s].total)
    loser = other_side(state, winner)
    choice = ctx.ask(
        Decision(
            "deploy_order",
            f"{state.side(winner).name} won the deployment roll ({rolls[winner].total} against "
            f"{rolls[loser].total}): deploy first or second?",
            tuple(Option(k, v) for k, v in ORDER_WORDS.items()),
            "second",
            winner,
            topic=DEPLOY_ORDER,
        )
    )
    deploying = winner if choice == "first" else loser
    ctx.set_battle_status(
        f"{state.side(winner).name} chose to {ORDER_WORDS[choice]}", deploy_first=deploying
    )
    ctx.set_side_order((deploying, other_side(state, deploying)), "deploys first")


def _deploy_roll(ctx: Context, side: str, again: str) -> Roll:
    points = exploration_points(ctx.state, side)
    modifiers = [Modifier(points, "unused exploration points")] if points else []
    why = Purpose(side, "deployment roll")
    return ctx.dice.two_d6(
        f"Deployment roll of {ctx.state.side(side).name}{again}", modifiers, purpose=why
    )


def _reroll_question(ctx: Context, side: str, rolls: Mapping[str, Roll]) -> Decision | None:
    structure = command_structure(ctx.state, side)
    allowed = CS_REROLLS.get(structure)
    if allowed is None:
        return None
    roll = rolls[side]
    theirs = rolls[other_side(ctx.state, side)].total
    faces = roll.faces
    default = "keep"
    if roll.total <= theirs:
        low = [i for i, face in enumerate(faces) if face <= 3]
        if structure == "good":
            default = {0: "keep", 1: ("first", "second")[low[0]] if low else "keep", 2: "both"}[
                len(low)
            ]
        elif sum(faces) <= 7:
            default = "both"
    words = {
        "first": f"re-roll the first die (a {faces[0]})",
        "second": f"re-roll the second die (a {faces[1]})",
    }
    options = tuple(Option(k, words.get(k, REROLL_WORDS[k])) for k in allowed)
    return Decision(
        f"deploy_reroll_{side}",
        f"{ctx.state.side(side).name} rolled {roll.total} for deployment against {theirs} "
        f"({structure} command structure): re-roll?",
        options,
        default,
        side,
        topic=DEPLOY_REROLL,
    )


def deploy_command(ctx: Context) -> None:
    """Steps 8 to 10 (the first player's biggest command, the second's, the rest alternately):
    the subject command's units go where the side's ``place`` orders say; the rest of the
    command at free spots of the zone."""
    subject = ctx.subject
    side = ctx.side
    if subject is None or side is None:
        return
    name = ctx.state.side(side).name
    rules = ctx.rules
    assert isinstance(rules, Rules)  # the context types its rules as the narrower RulesView
    for order in ctx.orders:
        if order.kind != "place" or order.actor != side:
            continue
        if not isinstance(rules.judge(ctx.state, order), Preview):
            continue
        unit = ctx.state.unit(str(order.params["unit"]))
        facing = facing_of(order, rules.deployment_facing(ctx.state, side))
        ctx.place_from_reserve(unit.id, point_param(order, "at"), facing, f"deployed by {name}")
    for unit in [u for u in ctx.state.units if u.group == subject.id and u.location == RESERVE]:
        spot = deploy_spot(rules, ctx.state, unit)
        if spot is None:
            continue
        facing = rules.deployment_facing(ctx.state, side)
        ctx.place_from_reserve(
            unit.id, spot, facing, f"deployed at a free spot ({name} gave no place)"
        )


def deploy_spot(rules: Rules, state: BattleState, unit: Unit) -> Point | None:
    """A free spot for ``unit`` in its zone: the front of the zone first, near its middle."""
    zone = rules.deployment_zone(state, unit.side)
    field = state.battlefield
    facing = rules.deployment_facing(state, unit.side)
    if zone is None:
        xs, ys = [0.0, field.width], [0.0, field.depth]
    else:
        xs, ys = [p[0] for p in zone], [p[1] for p in zone]
    towards_enemy = facing < 90 or facing > 270
    rows = sorted({round(y * 2) / 2 for y in _steps(min(ys), max(ys), 0.5)}, reverse=towards_enemy)
    middle = (min(xs) + max(xs)) / 2
    columns = sorted(_steps(min(xs), max(xs), 0.5), key=lambda x: (abs(x - middle), x))
    for y in rows:
        for x in columns:
            if deploy_problem(rules, state, unit, (x, y), facing) is None:
                return (x, y)
    return None


def _steps(low: float, high: float, step: float) -> list[float]:
    count = int((high - low) / step)
    return [round(low + i * step, 3) for i in range(count + 1)]
