"""An answer resumes the resolver paused at its question instead of replaying the step, with
exactly the events, record entries and states a replay gives."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator

import pytest

from rules_core import engine, registry, resume
from rules_core.big_battles import big_battle
from rules_core.codec import encode
from rules_core.context import Context
from rules_core.decisions import Answer
from rules_core.engine import Resolution
from rules_core.plugin import Rules
from rules_core.record import BattleRecord
from rules_core.state import BattleState
from rules_core.verify import verify

SEED = b"resume-seed".ljust(32, b".")
RULESETS = ("tree_of_battles", "hail_caesar", "heroic_age", "skirmish")


@pytest.fixture(autouse=True)
def _nothing_kept() -> Iterator[None]:
    resume.forget()
    yield
    resume.forget()


def _play(
    rules: Rules,
    state: BattleState,
    calls: int,
    before_answer: Callable[[BattleState], BattleState] = lambda s: s,
) -> list[Resolution]:
    """``calls`` calls on the engine with the demo's orders and answers."""
    state = engine.begin(rules, state)
    found = []
    for _ in range(calls):
        if state.outcome is not None:
            break
        if state.pending is not None:
            state = before_answer(state)
            decision = state.pending.decision  # type: ignore[union-attr]
            given = Answer(decision.id, rules.demo_answer(state), decision.who)
            result = engine.answer(rules, SEED, state, given)
        else:
            sides = engine.waiting(rules, state).sides
            orders = [o for side in sides for o in rules.demo_orders(state, side)]
            result = engine.run(rules, SEED, state, orders)
        found.append(result)
        state = result.state
    return found


def _wording(results: list[Resolution]) -> str:
    return json.dumps(
        [[encode(r.events), encode(r.entries), encode(r.state)] for r in results],
        sort_keys=True,
        default=str,
    )


def _forgetting(state: BattleState) -> BattleState:
    resume.forget()
    return state


@pytest.mark.parametrize("ruleset", RULESETS)
def test_resuming_gives_what_replaying_gives(ruleset: str) -> None:
    rules = registry.get(ruleset).rules
    assert rules is not None
    battle = big_battle(rules, 24)
    resumed = _play(rules, battle, 40)
    replayed = _play(rules, battle, 40, before_answer=_forgetting)
    assert any(r.entries[0].action == "answer" for r in resumed)  # questions were asked
    assert _wording(resumed) == _wording(replayed)


def test_an_answer_resumes_without_running_the_step_again(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = registry.get("tree_of_battles").rules
    assert rules is not None
    state = engine.begin(rules, big_battle(rules, 24))
    started: list[int] = []
    real_start = resume.start

    def counting(context: Context, resolver: Callable[[Context], None]) -> object:
        started.append(1)
        return real_start(context, resolver)

    monkeypatch.setattr(resume, "start", counting)
    answers = 0
    for _ in range(40):
        if state.pending is not None:
            decision = state.pending.decision
            before = len(started)
            given = Answer(decision.id, rules.demo_answer(state), decision.who)
            result = engine.answer(rules, SEED, state, given)
            assert len(started) == before  # resumed, not replayed
            answers += 1
        else:
            sides = engine.waiting(rules, state).sides
            orders = [o for side in sides for o in rules.demo_orders(state, side)]
            result = engine.run(rules, SEED, state, orders)
        state = result.state
    assert answers > 0


def _stored(state: BattleState) -> BattleState:
    """The state as the bot reads it back from its database."""
    return BattleState.from_dict(json.loads(json.dumps(state.to_dict())))


def test_a_state_read_back_from_storage_resumes_and_a_second_answer_replays() -> None:
    rules = registry.get("tree_of_battles").rules
    assert rules is not None
    state = _stored(engine.begin(rules, big_battle(rules, 24)))
    for _ in range(40):
        if state.pending is not None:
            break
        sides = engine.waiting(rules, state).sides
        orders = [o for side in sides for o in rules.demo_orders(state, side)]
        state = _stored(engine.run(rules, SEED, state, orders).state)
    assert state.pending is not None
    stored = _stored(state)
    decision = state.pending.decision
    given = Answer(decision.id, rules.demo_answer(state), decision.who)
    first = engine.answer(rules, SEED, stored, given)  # resumed (equal state, not the same)
    again = engine.answer(rules, SEED, state, given)  # the continuation is used: replayed
    assert _wording([first]) == _wording([again])


def test_an_answer_in_another_thread_replays_with_the_same_result() -> None:
    rules = registry.get("hail_caesar").rules
    assert rules is not None
    here = _play(rules, big_battle(rules, 24), 30)

    elsewhere: list[Resolution] = []
    state = engine.begin(rules, big_battle(rules, 24))
    for _ in range(30):
        if state.outcome is not None:
            break
        if state.pending is not None:
            decision = state.pending.decision
            given = Answer(decision.id, rules.demo_answer(state), decision.who)
            box: list[Resolution] = []
            worker = threading.Thread(
                target=lambda s=state, g=given, b=box: b.append(engine.answer(rules, SEED, s, g))
            )
            worker.start()
            worker.join()
            result = box[0]
        else:
            sides = engine.waiting(rules, state).sides
            orders = [o for side in sides for o in rules.demo_orders(state, side)]
            result = engine.run(rules, SEED, state, orders)
        elsewhere.append(result)
        state = result.state
    assert _wording(here) == _wording(elsewhere)


def test_records_of_resumed_play_verify() -> None:
    rules = registry.get("heroic_age").rules
    assert rules is not None
    battle = big_battle(rules, 24)
    results = _play(rules, battle, 30)
    entries = tuple(e for r in results for e in r.entries)
    assert any(e.action == "answer" for e in entries)
    kept = BattleRecord.start(engine.begin(rules, battle), SEED).extended(entries)
    report = verify(json.loads(json.dumps(kept.revealed(SEED).to_dict())))
    assert report.ok, report.problem
