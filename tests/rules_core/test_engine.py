"""The engine: orders and defaults, questions that survive a restart, voiding, the end."""

from __future__ import annotations

import json

import pytest

from rules_core import engine, registry
from rules_core.decisions import GM, Answer
from rules_core.events import (
    DecisionAnswered,
    DecisionRequested,
    DiceRolled,
    OrderRejected,
    SideOrderSet,
    StepBegan,
)
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import BattleState

SEED = b"engine-test-seed"


@pytest.fixture
def rules() -> Rules:
    found = registry.get("skirmish").rules
    assert found is not None
    return found


def at_initiative(rules: Rules) -> engine.Resolution:
    """Deploy nobody and run on to the first question (who goes first)."""
    return engine.run(rules, SEED, engine.begin(rules, sample_battle()))


def reload(state: BattleState) -> BattleState:
    return BattleState.from_dict(json.loads(json.dumps(state.to_dict())))


def test_a_new_battle_waits_for_both_sides_to_deploy(rules: Rules) -> None:
    state = engine.begin(rules, sample_battle())
    waiting = engine.waiting(rules, state)
    assert (waiting.step, waiting.sides) == ("deploy", ("red", "blue"))


def test_illegal_orders_are_refused_with_their_reason(rules: Rules) -> None:
    state = engine.begin(rules, sample_battle())
    result = engine.resolve(rules, SEED, state, [Order("r1", "place", {"at": [12, 20]})])
    rejected = [e for e in result.events if isinstance(e, OrderRejected)]
    assert rejected == [
        OrderRejected(
            "r1",
            "place",
            "(12, 20) is outside Red's deployment zone (y from 0 to 8 inch, the south edge): "
            "its whole base reaches y=21, past the zone's edge at y=8; move it 13 inch south, "
            "to (12, 7)",
        )
    ]


def test_the_resolution_stops_at_a_question_and_the_state_says_so(rules: Rules) -> None:
    result = at_initiative(rules)
    assert isinstance(result.events[-1], DecisionRequested)
    waiting = engine.waiting(rules, result.state)
    assert waiting.pending is not None and waiting.sides == (waiting.pending.decision.who,)
    with pytest.raises(engine.EngineError, match="waiting for an answer"):
        engine.resolve(rules, SEED, result.state)


def test_a_question_survives_a_restart(rules: Rules) -> None:
    asked = at_initiative(rules).state
    decision = asked.pending.decision  # type: ignore[union-attr]
    given = Answer(decision.id, "second", decision.who)
    straight = engine.answer(rules, SEED, asked, given)
    restarted = engine.answer(rules, SEED, reload(asked), given)
    assert restarted.events == straight.events
    assert restarted.state == straight.state
    # The continuation shows only what is new: the answer, then the order of play.
    assert isinstance(straight.events[0], DecisionAnswered)
    order = next(e for e in straight.events if isinstance(e, SideOrderSet))
    assert order.order[1] == decision.who


def test_answers_are_checked(rules: Rules) -> None:
    asked = at_initiative(rules).state
    decision = asked.pending.decision  # type: ignore[union-attr]
    other = "blue" if decision.who == "red" else "red"
    with pytest.raises(engine.EngineError, match="not an option"):
        engine.answer(rules, SEED, asked, Answer(decision.id, "third", decision.who))
    with pytest.raises(engine.EngineError, match="may not answer"):
        engine.answer(rules, SEED, asked, Answer(decision.id, "first", other))
    with pytest.raises(engine.EngineError, match="no question"):
        engine.answer(rules, SEED, asked, Answer("other", "first", decision.who))
    # The GM may answer anything; the default is what a missed deadline gives.
    defaulted = engine.answer_default(rules, SEED, asked)
    assert defaulted.events[0] == DecisionAnswered(decision.id, "first", GM)


def test_voiding_redoes_the_step_with_a_fresh_stream(rules: Rules) -> None:
    asked = at_initiative(rules).state
    voided = engine.void(asked)
    assert voided.state.pending is None and voided.state.cursor.attempt == 1
    assert voided.entries[0].action == "void"
    redone = engine.resolve(rules, SEED, voided.state)
    first = [e.roll for e in at_initiative(rules).events if isinstance(e, DiceRolled)]
    again = [e.roll for e in redone.events if isinstance(e, DiceRolled)]
    assert [r.label for r in first] == [r.label for r in again[:2]]
    assert redone.entries[0].attempt == 1


def test_units_without_orders_get_the_default(rules: Rules) -> None:
    asked = at_initiative(rules).state
    decision = asked.pending.decision  # type: ignore[union-attr]
    moving = engine.answer(rules, SEED, asked, Answer(decision.id, "first", decision.who)).state
    assert engine.waiting(rules, moving).step == "move"
    result = engine.resolve(rules, SEED, moving)
    assert isinstance(result.events[0], StepBegan)
    side = result.events[0].side
    # Every unit of the acting side held: nobody moved, nothing was refused.
    assert result.state.units == moving.units
    assert side == decision.who


def test_the_same_seed_gives_the_same_battle_and_another_seed_another(rules: Rules) -> None:
    a = at_initiative(rules)
    b = at_initiative(rules)
    c = engine.run(rules, b"another seed", engine.begin(rules, sample_battle()))
    rolls = [[e.roll for e in r.events if isinstance(e, DiceRolled)] for r in (a, b, c)]
    assert rolls[0] == rolls[1]
    assert rolls[0] != rolls[2]


def test_campaign_parameters_are_checked_and_used(rules: Rules) -> None:
    state = sample_battle()
    with pytest.raises(KeyError, match="unknown parameters: speed"):
        engine.begin(rules, BattleState.from_dict({**state.to_dict(), "parameters": {"speed": 2}}))
    assert rules.parameter_values({"max_turns": 2})["max_turns"] == 2
