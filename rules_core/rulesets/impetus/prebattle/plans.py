"""Step 6: battle plans, written sealed and revealed during the battle."""

from __future__ import annotations

from rules_core.context import Context
from rules_core.events import TestResolved
from rules_core.orders import Preview
from rules_core.rulesets.impetus.prebattle.declared import NO_PLAN
from rules_core.rulesets.impetus.prebattle.reading import own_order, plan_of, say
from rules_core.rulesets.impetus.status import (
    PLAN_REVEALED,
)


def battle_plan(ctx: Context) -> None:
    """Each side's plan goes into its hidden state: its side and the GM alone see it (the
    order was sealed until now, as every order is)."""
    for side in ctx.state.cursor.side_order:
        order = own_order(ctx, side, "battle_plan")
        plan = str(order.params["plan"]) if order else ""
        ctx.set_hidden(side, "written before the battle", battle_plan=plan or NO_PLAN)


def reveal_ordered(ctx: Context) -> None:
    """The step's ``reveal_plan`` orders carried out (each side's first, if it may)."""
    for order in ctx.orders:
        if order.kind != "reveal_plan":
            continue
        if not isinstance(ctx.rules.judge(ctx.state, order), Preview):
            continue
        given = order.params.get("reason")
        reason = str(given).strip() if isinstance(given, str) and given.strip() else "ordered"
        reveal_plan(ctx, order.actor, reason)


def reveal_plan(ctx: Context, side: str, reason: str) -> str:
    """Reveal a side's battle plan to everyone (a ``reveal_plan`` order, or a turn step
    that reveals it): logged publicly with ``reason`` and kept in the side's public status
    (``plan_revealed``); the plan stays in its hidden state too. Returns the plan."""
    plan = plan_of(ctx.state, side)
    if plan and not PLAN_REVEALED.of(ctx.state.side(side)):
        say(
            ctx,
            TestResolved(
                side,
                "Battle plan revealed (turn)",
                ctx.state.cursor.turn,
                False,
                f"{plan} ({reason})",
            ),
        )
        ctx.set_side_status(side, None, plan_revealed=plan)
    return plan
