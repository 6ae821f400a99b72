"""An AI general (#36): plays one side from that side's view alone, as a player would.

It reads only what ``rules_core.secrets.view`` shows the side (it must not cheat) and answers
with orders and answers a player could give, each with a one-line reason for the record. The
bot gives them through the same services and judge as a player's.

This is the interface the bot builds on; the search behind it replaces the placeholder below.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core.decisions import Decision
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.state import BattleState


@dataclass(frozen=True)
class Advice:
    """One order the general gives, with why (``"charged: 64 % to win, flank secure"``)."""

    order: Order
    reason: str


@dataclass(frozen=True)
class Reply:
    """The general's answer to a question put to its side, with why."""

    choice: str
    reason: str


def plan_side(
    rules: Rules, view: BattleState, side: str, *, seed: int = 0, budget_s: float = 1.0
) -> tuple[Advice, ...]:
    """The orders ``side`` gives in the open step, read from ``view`` (the side's own view),
    within about ``budget_s`` seconds of CPU."""
    del seed, budget_s  # the placeholder neither searches nor samples
    return tuple(
        Advice(order, "as the ruleset's scripted player") for order in rules.demo_orders(view, side)
    )


def reply(rules: Rules, view: BattleState, side: str, decision: Decision) -> Reply:
    """The general's answer to ``decision``, a question put to ``side``."""
    del rules, view, side
    return Reply(decision.default, "the question's default")
