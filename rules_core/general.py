"""An AI general (#36): plays one side from that side's view alone, as a player would.

It reads only what ``rules_core.secrets.view`` shows the side (it must not cheat) and answers
with orders and answers a player could give, each with a one-line reason for the record. The
bot gives them through the same services and judge as a player's.

The search is greedy, actor by actor: each actor's candidates (``general_candidates``: the
ruleset's scripted orders, and each order kind with a role at each target in reach) are judged
by the ruleset's judge and weighed with its exact odds (``general_score``), with what the
friends already chosen attack (``general_concert``), and the best few less the enemy's best
reply (``general_reply``, while the budget allows); the best stands.
Ties fall to a draw seeded by ``seed``, so one view and seed give one plan. When the CPU
budget runs out, the actors not yet weighed keep their scripted orders.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from rules_core import general_candidates as candidates
from rules_core import general_reply, general_score
from rules_core.decisions import Decision
from rules_core.general_candidates import Candidate
from rules_core.general_concert import Concert
from rules_core.general_score import Scored
from rules_core.orders import Order, OrderKind
from rules_core.plugin import Rules
from rules_core.state import BattleState

JITTER = 1e-6  # a tie-break far below any weight: it only orders equal scores
LOOK_RESERVE = 0.3  # the share of the budget kept back: below it, no look-ahead
_BOARDS = "_general_boards"  # where a view keeps its actors' boards (as engine.waiting does)


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
    deadline = time.process_time() + budget_s
    draw = random.Random(f"general:{seed}:{side}:{view.cursor.turn}:{view.cursor.step}")
    chosen: dict[str, Scored] = {}
    press = general_score.pressure(rules, view, side)
    weigh = _Weigher(rules, view, draw, press)
    concert = Concert(rules, view, press)
    for candidate in candidates.scripted(rules, view, side):
        chosen[candidate.actor] = weigh(candidate)
    if rules.turn_problem(view, side) is None:
        for actor, kinds in candidates.actors(rules, view, side):
            left = deadline - time.process_time()
            if left < 0:
                break
            ahead = left > budget_s * LOOK_RESERVE  # the look-ahead only where the budget allows
            _improve(rules, view, chosen, actor, kinds, weigh, concert, ahead)
    return tuple(
        Advice(order, general_score.reason(scored, candidates.role_of(rules, scored.candidate)))
        for scored in chosen.values()
        for order in scored.candidate.orders
    )


def reply(rules: Rules, view: BattleState, side: str, decision: Decision) -> Reply:
    """The general's answer to ``decision``, a question put to ``side``: the ruleset's drill
    where the question is the one ``view`` waits on, else the question's default."""
    del side
    pending = view.pending
    choice = decision.default
    if pending is not None and pending.decision.id == decision.id:
        answer = rules.demo_answer(view)
        if decision.problem(answer) is None:
            choice = answer
    return Reply(choice, general_score.question_reason(choice, decision.default))


def _improve(
    rules: Rules,
    view: BattleState,
    chosen: dict[str, Scored],
    actor: str,
    kinds: tuple[OrderKind, ...],
    weigh: _Weigher,
    concert: Concert,
    ahead: bool = True,
) -> None:
    """Weigh an actor's candidates against what ``chosen`` holds for it, keeping the best
    (with what the friends already chosen attack: ``concert``)."""
    if actor not in chosen:  # no order: the ruleset's default, most often a hold
        chosen[actor] = weigh(Candidate(actor, (), "hold"))
    pool = [(chosen[actor].score + concert.bonus(chosen[actor]), chosen[actor])]
    for candidate in candidates.of_actor(rules, view, actor, kinds):
        if candidate.role == "hold" and not chosen[actor].candidate.orders:
            continue  # a hold given where none is given changes nothing
        scored = weigh(candidate)
        pool.append((scored.score + concert.bonus(scored), scored))
    if ahead:
        pool = _looked_ahead(rules, view, pool)
    chosen[actor] = max(pool, key=lambda pair: pair[0])[1]
    concert.chose(chosen[actor])


def _looked_ahead(
    rules: Rules, view: BattleState, pool: list[tuple[float, Scored]]
) -> list[tuple[float, Scored]]:
    """The pool's best few, each less the cost of the enemy's best reply (``general_reply``)."""
    best = sorted(pool, key=lambda pair: -pair[0])[: general_reply.TOP]
    if rules.general.weights.reply <= 0:
        return best
    return [(total - general_reply.reply_cost(rules, view, s), s) for total, s in best]


def _board(rules: Rules, view: BattleState, actor: str) -> tuple[bool, int]:
    """The actor's ``general_score.board``, worked out once per view (views are frozen)."""
    kept: dict[str, tuple[bool, int]] = view.__dict__.setdefault(_BOARDS, {})
    if actor not in kept:
        kept[actor] = general_score.board(rules, view, actor)
    return kept[actor]


@dataclass(frozen=True)
class _Weigher:
    """Scores a side's candidates in one view, at the side's pressure, with a seeded tie-break."""

    rules: Rules
    view: BattleState
    draw: random.Random
    press: float

    def __call__(self, candidate: Candidate) -> Scored:
        """The candidate scored."""
        board = _board(self.rules, self.view, candidate.actor)
        scored = general_score.score(self.rules, self.view, candidate, board, self.press)
        return replace(scored, score=scored.score + self.draw.random() * JITTER)
