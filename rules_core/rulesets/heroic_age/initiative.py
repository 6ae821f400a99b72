"""Determine Initiative: each side rolls a D6, +1 if its commander-in-chief has more LPs than
the other's; the winner decides whether to go first or second (a question with a standing
instruction); ties by the ``initiative_ties`` parameter."""

from __future__ import annotations

from rules_core.context import Context
from rules_core.decisions import Decision, Option
from rules_core.dice import Modifier, Purpose
from rules_core.rulesets.heroic_age import gods, tables
from rules_core.rulesets.heroic_age.status import CINC
from rules_core.rulesets.heroic_age.topics import INITIATIVE, INITIATIVE_WORDS
from rules_core.state import BattleState

MAX_REROLLS = 20


def cinc_lps(state: BattleState, side: str) -> int:
    """The LPs of a side's commander-in-chief (0 if he is dead)."""
    chiefs = [ld.points for ld in state.leaders if ld.side == side and CINC.of(ld)]
    return max(chiefs, default=0)


def bonus(state: BattleState, side: str, other: str) -> list[Modifier]:
    """+1 if this side's commander-in-chief has more LPs than the opponent's."""
    mine, theirs = cinc_lps(state, side), cinc_lps(state, other)
    if mine > theirs:
        return [
            Modifier(
                tables.INITIATIVE_BONUS, f"commander-in-chief has more LPs ({mine} to {theirs})"
            )
        ]
    return []


def resolve(ctx: Context) -> None:
    """Roll, decide ties, ask the winner, set who goes first."""
    first, second = ctx.state.sides[0].id, ctx.state.sides[1].id
    names = {s.id: s.name for s in ctx.state.sides}
    scores: dict[str, int] = {}
    for _ in range(MAX_REROLLS):
        for side, other in ((first, second), (second, first)):
            why = Purpose(side, "initiative", other)
            roll = ctx.dice.d6(f"Initiative: {names[side]}", bonus(ctx.state, side, other), why)
            roll = gods.reroll(ctx, side, "initiative roll", roll)
            scores[side] = roll.total
            ctx.set_side_status(side, None, initiative_roll=roll.total)
        if scores[first] != scores[second] or ctx.params.get("initiative_ties") != "reroll":
            break
    if scores[first] == scores[second]:
        ctx.set_battle_status("initiative tied: last turn's order stands", initiative_winner="")
        return
    winner = first if scores[first] > scores[second] else second
    loser = second if winner == first else first
    ctx.set_battle_status(f"{names[winner]} won the initiative", initiative_winner=winner)
    options = tuple(Option(key, label) for key, label in INITIATIVE_WORDS.items())
    asked = Decision(
        "initiative",
        f"{names[winner]} won the initiative: go first or second?",
        options,
        "first",
        winner,
        topic=INITIATIVE,
    )
    choice = ctx.ask(asked)
    order = (winner, loser) if choice == "first" else (loser, winner)
    ctx.set_side_order(order, f"{names[winner]} won the initiative and goes {choice}")
