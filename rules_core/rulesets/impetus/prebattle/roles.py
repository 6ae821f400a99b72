"""Step 1: the attacker roll and each side's exploration points."""

from __future__ import annotations

from rules_core.context import Context
from rules_core.dice import Modifier, Purpose
from rules_core.events import TestResolved
from rules_core.rulesets.impetus.prebattle.reading import (
    attacker_bonus,
    mounted_count,
    num,
    other_side,
    say,
    table_of,
)
from rules_core.rulesets.impetus.terrain_tables import (
    TERRAIN_TABLES,
)


def attacker(ctx: Context) -> None:
    """Each side rolls 2D6, +1 per two mounted units (not EL, W), rounded up; the higher
    attacks. Each side's exploration points are set."""
    state = ctx.state
    first, second = state.cursor.side_order
    params = ctx.params
    for attempt in range(1, 21):
        scores = {side: _attacker_roll(ctx, side, attempt) for side in (first, second)}
        if scores[first] != scores[second]:
            break
        if str(params["attacker_ties"]) != "reroll":
            scores[second] += 1  # "defender": the first side listed defends
            break
    winner = max(scores, key=lambda s: scores[s])
    loser = other_side(state, winner)
    ctx.set_side_status(winner, f"{scores[winner]} against {scores[loser]}", role="attacker")
    ctx.set_side_status(loser, f"{scores[loser]} against {scores[winner]}", role="defender")
    points = int(num(params, "exploration_points"))
    for side in (first, second):
        ctx.set_side_status(
            side, "for the terrain and the deployment roll", exploration_points=points
        )
        table = TERRAIN_TABLES[table_of(ctx.state, side, params)]
        say(
            ctx,
            TestResolved(
                side,
                "Terrain table",
                mounted_count(ctx.state, side),
                False,
                f"{mounted_count(ctx.state, side)} mounted units (not EL, W) of "
                f"{len([u for u in ctx.state.units if u.side == side])}: "
                f"rolls on the {table.name}",
            ),
        )


def _attacker_roll(ctx: Context, side: str, attempt: int) -> int:
    bonus = attacker_bonus(ctx.state, side)
    mounted = mounted_count(ctx.state, side)
    modifiers = (
        [Modifier(bonus, f"{mounted} mounted units (not EL, W), +1 per two rounded up")]
        if bonus
        else []
    )
    again = "" if attempt == 1 else f" (tie, roll {attempt})"
    name = ctx.state.side(side).name
    why = Purpose(side, "attacker roll")
    return ctx.dice.two_d6(f"Attacker roll of {name}{again}", modifiers, purpose=why).total
