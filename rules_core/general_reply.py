"""A one-ply look-ahead for the AI general (#36): the enemy's best immediate reply.

For an actor's top few candidates that leave it standing (an advance, a hold, a turn, a
rally), the general asks where the unit would stand and which enemies it can see could then
reach it, and weighs the best of their charges on it with the exact odds (``Rules.odds``'s
``charge`` question, asked of the side's own view: no hidden information). An advance that
walks into a charge the enemy would win scores less than one that stops short.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

from rules_core.general_candidates import Candidate, role_of
from rules_core.general_score import Scored, charge_chances, end_point
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.state import BattleState, Unit
from rules_core.toolkit import gap

TOP = 3  # the candidates of an actor that are looked ahead (the best by their plain score)
REPLIES = 2  # the nearest enemies whose charge is weighed as the reply
STANDING = ("advance", "hold", "face", "rally")  # roles that leave the actor where it ends


def reply_cost(rules: Rules, view: BattleState, scored: Scored) -> float:
    """What the enemy's best immediate reply to the candidate costs (0: none in reach)."""
    candidate = scored.candidate
    if role_of(rules, candidate) not in STANDING:
        return 0.0
    try:
        actor = view.unit(candidate.actor)
    except KeyError:
        return 0.0
    moved = _moved(rules, view, actor, candidate)
    seen = view.with_unit(moved) if moved is not actor else view
    reach = [
        e
        for e in view.enemies_of(actor.side, on_table=True)
        if gap(moved, e) <= max(rules.reach(view, e, "move"), 0.0)
    ]
    reach.sort(key=lambda e: (gap(moved, e), e.id))
    best = Fraction(0)
    for enemy in reach[:REPLIES]:
        order = Order(enemy.id, "charge", {"target": actor.id})
        win, _, _, _ = charge_chances(rules, seen, Candidate(enemy.id, (order,), "charge", moved))
        best = max(best, win if win is not None else Fraction(0))
    return rules.general.weights.reply * float(best)


def _moved(rules: Rules, view: BattleState, actor: Unit, candidate: Candidate) -> Unit:
    """The actor where the candidate leaves it: an advance's end point, at most its move."""
    if role_of(rules, candidate) != "advance" or not candidate.orders:
        return actor
    end = end_point(candidate.orders[0])
    if end is None:
        return actor
    dx, dy = end[0] - actor.x, end[1] - actor.y
    length = math.hypot(dx, dy)
    step = min(length, max(rules.reach(view, actor, "move"), 0.0))
    if length <= 0 or step <= 0:
        return actor
    return replace(actor, x=actor.x + dx / length * step, y=actor.y + dy / length * step)
