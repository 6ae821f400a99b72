"""Helpers for the tests that every ruleset refuses, with its reason, an order it will not
carry out: none is dropped unseen (#39 item 4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rules_core import engine
from rules_core.codec import Json
from rules_core.decisions import Answer
from rules_core.events import OrderRejected
from rules_core.orders import Illegal, Order
from rules_core.plugin import Rules
from rules_core.state import BattleState

SEED = b"nothing-is-dropped-silently-#39-"


def played_to(rules: Rules, step: str, limit: int = 400) -> BattleState:
    """The ruleset's sample battle played by its demo policy (default answers) until ``step``
    first waits for orders."""
    sample = rules.sample_battle()
    assert sample is not None
    state = engine.begin(rules, sample)
    for _ in range(limit):
        assert state.outcome is None, f"the battle ended before {step!r}"
        waits = engine.waiting(rules, state)
        if state.pending is None and waits.step == step and waits.sides:
            return state
        state = demo_step(rules, state)
    raise AssertionError(f"{step!r} never came")


def demo_step(rules: Rules, state: BattleState) -> BattleState:
    """The battle one step on: the pending question answered with its default, or the step
    waiting for orders resolved with the demo policy's."""
    if state.pending is not None:
        decision = state.pending.decision
        given = Answer(decision.id, rules.demo_answer(state), decision.who)
        return engine.answer(rules, SEED, state, given).state
    waits = engine.waiting(rules, state)
    orders = [order for side in waits.sides for order in rules.demo_orders(state, side)]
    return engine.run(rules, SEED, state, orders).state


def rejections(rules: Rules, state: BattleState, orders: Sequence[Order]) -> list[OrderRejected]:
    """The refusals the engine records as it resolves the step with these orders."""
    result = engine.resolve(rules, SEED, state, orders)
    return [event for event in result.events if isinstance(event, OrderRejected)]


def uncombined(rules: Rules, first: Order, second: Order) -> OrderRejected:
    """The refusal of ``second``, given after ``first`` to the same actor, of a kind that does
    not combine with it: the first given stands."""
    one, other = rules.order_kind(first.kind).title, rules.order_kind(second.kind).title
    why = f"it already has a {one} order this step; {other} does not combine with it"
    return OrderRejected(second.actor, second.kind, why)


def refused_everywhere(rules: Rules, state: BattleState, order: Order) -> str:
    """Why the order is refused both when given (its preview) and in the step's result (the
    same reason); fails if it is accepted or dropped unseen."""
    verdict = rules.judge(state, order)
    assert isinstance(verdict, Illegal), verdict
    assert OrderRejected(order.actor, order.kind, verdict.reason) in rejections(
        rules, state, [order]
    )
    return verdict.reason


def with_status(state: BattleState, unit_id: str, **values: Json) -> BattleState:
    """The state with a unit's status keys set."""
    unit = state.unit(unit_id)
    return state.with_unit(replace(unit, status={**unit.status, **values}))


def first_order(rules: Rules, state: BattleState, kind: str) -> Order:
    """The demo policy's first order of ``kind`` for a unit, on any acting side."""
    sides = engine.waiting(rules, state).sides
    found = [o for s in sides for o in rules.demo_orders(state, s) if o.kind == kind]
    assert found, f"the demo gives no {kind} order here"
    return found[0]
