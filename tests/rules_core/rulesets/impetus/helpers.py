"""Shared helpers for the Impetus tests: the ruleset, the scripted battle, a battle stopped at a
chosen step of an activation."""

from __future__ import annotations

from dataclasses import replace

from rules_core import engine, registry
from rules_core.decisions import Answer
from rules_core.engine import Resolution
from rules_core.plugin import Rules
from rules_core.state import BattleState, Unit
from tests.rules_core.scripted import Played, play_scripted

SEED = b"impetus-golden-2"  # the battle ``stopped_at`` plays to reach a step
# The golden battle's seed (test_battle): one whose battle, as the rules now move retreating,
# evading, pursuing and countercharging units, ends by an army break within 6 turns.
GOLDEN_SEED = b"impetus-golden-19"


def rules() -> Rules:
    found = registry.get("impetus").rules
    assert found is not None
    return found


def play(seed: bytes = GOLDEN_SEED, max_turns: int = 6) -> Played:
    """The sample battle played by the demo script, every question answered by its default."""
    r = rules()
    start = r.sample_battle()
    assert start is not None
    start = replace(start, parameters={**start.parameters, "max_turns": max_turns})
    return play_scripted(
        r, start, seed, lambda ru, state, side: ru.demo_orders(state, side), _default, 3000
    )


def _default(state: BattleState) -> str:
    assert state.pending is not None
    return state.pending.decision.default


def stopped_at(step: str, command: str | None = None, seed: bytes = SEED) -> BattleState:
    """The sample battle, played by its script, stopped when ``step`` of ``command``'s first
    activation opens (orders not yet given)."""
    r = rules()
    start = r.sample_battle()
    assert start is not None
    state = engine.begin(r, start)
    result = Resolution(state, (), ())
    for _ in range(3000):
        state = result.state
        cursor = state.cursor
        subject = cursor.subject
        if (
            state.pending is None
            and cursor.segment == "main"
            and cursor.step == step
            and (command is None or (subject is not None and subject.id == command))
        ):
            return state
        if state.pending is not None:
            decision = state.pending.decision
            result = result.then(
                engine.answer(r, seed, state, Answer(decision.id, decision.default, decision.who))
            )
            continue
        sides = engine.waiting(r, state).sides
        orders = [o for side in sides for o in r.demo_orders(state, side)]
        result = result.then(engine.run(r, seed, state, orders))
    raise AssertionError(f"never reached {step} of {command}")


def unit_named(state: BattleState, name: str) -> Unit:
    return next(u for u in state.units if u.name == name)
