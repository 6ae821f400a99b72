"""Several questions open at once: answered in any order, the step waiting for all of them,
a deadline answering every one still open, and the pending step surviving a restart."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rules_core import engine
from rules_core.decisions import GM, Answer, Decision, Option
from rules_core.events import StatusChanged
from rules_core.plugin import Rules
from rules_core.state import BattleState
from tests.rules_core.test_actors_and_multi_orders import SEED, at_council


def reload(state: BattleState) -> BattleState:
    return BattleState.from_dict(json.loads(json.dumps(state.to_dict())))


def changes(result: engine.Resolution) -> set[tuple[str, str, object]]:
    """The champion and banner status changes a resolution logged (the step re-runs to its
    next question, so its state is the one before the step)."""
    return {
        (e.subject, e.field, e.new)
        for e in result.events
        if isinstance(e, StatusChanged) and e.field in ("champion", "banner")
    }


def at_the_pair(rules: Rules) -> BattleState:
    """Muster's parley with the omen read: the champion and the banner both open."""
    state = engine.run(rules, SEED, at_council(rules)).state  # council, then march
    state = engine.run(rules, SEED, state).state  # to the parley's first question
    assert state.pending is not None and state.pending.decision.id == "omen"
    return engine.answer(rules, SEED, state, Answer("omen", "omen_3", "red")).state


def test_both_are_open_and_the_step_waits_for_each_side(muster: Rules) -> None:
    state = at_the_pair(muster)
    assert state.pending is not None
    assert [d.id for d in state.pending.open] == ["champion", "banner"]
    assert engine.waiting(muster, state).sides == ("blue", "red")


def test_answered_in_either_order_the_result_is_the_same(muster: Rules) -> None:
    state = at_the_pair(muster)
    banner, champion = Answer("banner", "furl", "red"), Answer("champion", "b2", "blue")
    first = engine.answer(muster, SEED, state, banner)
    assert first.events == () and first.state.pending is not None
    assert [d.id for d in first.state.pending.open] == ["champion"]
    one = engine.answer(muster, SEED, reload(first.state), champion)
    other = engine.answer(muster, SEED, engine.answer(muster, SEED, state, champion).state, banner)
    assert replace(one.state, pending=None) == replace(other.state, pending=None)
    assert one.state.pending is not None and other.state.pending is not None
    assert one.state.pending.decision == other.state.pending.decision  # the herald, next
    assert one.state.pending.decision.id == "herald"
    assert changes(one) == changes(other) == {("b2", "champion", True), ("red", "banner", "furl")}
    with pytest.raises(engine.EngineError, match="no question 'banner' is waiting"):
        engine.answer(muster, SEED, one.state, banner)


def test_a_deadline_answers_every_open_question_and_no_later_one(muster: Rules) -> None:
    result = engine.answer_default(muster, SEED, at_the_pair(muster))
    state = result.state
    assert changes(result) == {("b1", "champion", True), ("red", "banner", "raise")}  # defaults
    assert state.pending is not None and state.pending.decision.id == "herald"  # asked anew
    assert [e.answer.by for e in result.entries if e.answer] == [GM, GM]  # type: ignore[union-attr]


def test_a_default_must_be_a_valid_answer() -> None:
    with pytest.raises(ValueError, match="is not an answer"):
        Decision("wager", "How much?", (), "9", "red", "number", 1, 6)
    with pytest.raises(ValueError, match="is not an answer"):
        Decision("pick", "Which?", (Option("a", "A"),), "b", "red")
    with pytest.raises(ValueError, match="unknown answer kind"):
        Decision("pick", "Which?", (Option("a", "A"),), "a", "red", "colour")
