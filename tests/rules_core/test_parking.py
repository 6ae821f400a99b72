"""An answer carries on a parked resolution exactly as a replay of the step would."""

from __future__ import annotations

import threading

from rules_core import engine, parking
from rules_core.decisions import Answer
from rules_core.events import event_to_dict
from rules_core.plugin import Rules
from rules_core.rulesets.skirmish.rules import SkirmishRules
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import BattleState

SEED = b"parking"


def play(rules: Rules, *, replay: bool, limit: int = 200) -> tuple[list[object], BattleState, int]:
    """A scripted battle; with ``replay`` every answer replays its step; the answers given."""
    state = engine.begin(rules, sample_battle())
    events: list[object] = []
    answered = 0
    for _ in range(limit):
        if state.outcome is not None:
            break
        if state.pending is not None:
            if replay:
                parking.forget_all()
            decision = state.pending.decision
            given = Answer(decision.id, rules.demo_answer(state), decision.who)
            result = engine.answer(rules, SEED, state, given)
            answered += 1
        else:
            sides = engine.waiting(rules, state).sides
            orders = [o for side in sides for o in rules.demo_orders(state, side)]
            result = engine.run(rules, SEED, state, orders)
        events += [event_to_dict(e) for e in result.events]
        state = result.state
    return events, state, answered


def test_parked_and_replayed_answers_give_the_same_battle() -> None:
    rules = SkirmishRules()
    parked = play(rules, replay=False)
    replayed = play(rules, replay=True)
    assert parked[2] > 0, "the battle asked no question"
    assert parked == replayed


def test_an_answer_to_an_equal_state_from_json_resumes_and_threads_end() -> None:
    rules = SkirmishRules()
    state = engine.begin(rules, sample_battle())
    for _ in range(100):
        if state.pending is not None:
            break
        sides = engine.waiting(rules, state).sides
        orders = [o for side in sides for o in rules.demo_orders(state, side)]
        state = engine.run(rules, SEED, state, orders).state
    assert state.pending is not None
    copy = BattleState.from_dict(state.to_dict())
    decision = copy.pending.decision  # type: ignore[union-attr]
    taken = parking.take(rules, SEED, copy)
    assert taken is not None  # found by value, then taken out
    taken.run.abandon()
    assert parking.take(rules, SEED, copy) is None
    given = Answer(decision.id, decision.default, decision.who)
    assert engine.answer(rules, SEED, copy, given).events  # replays, as after a restart
    parking.forget_all()
    names = [t.name for t in threading.enumerate()]
    assert len(names) < 50
