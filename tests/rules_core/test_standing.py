"""Standing instructions: the rulesets' topics, and which instruction answers a question."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rules_core import engine
from rules_core.decisions import GM, Answer, Decision, Option
from rules_core.engine import Resolution
from rules_core.events import DecisionRequested
from rules_core.plugin import Rules
from rules_core.record import BattleRecord
from rules_core.registry import all_rulesets
from rules_core.render import Renderer
from rules_core.standing import (
    Standing,
    by_standing,
    standing_answer,
    standing_answers,
    standing_problem,
    topic_of,
)
from rules_core.standing_play import play_standing
from rules_core.state import BattleState
from rules_core.verify import verify

PLAYABLE = [r for r in all_rulesets() if r.rules is not None and r.rules.sample_battle()]
# The rulesets that ask questions.
ASKING = ("tree_of_battles", "hail_caesar", "skirmish", "heroic_age", "pike_and_shot")
# The choice "let the rules choose": a topic whose questions offer units, leaders or cards (which
# cannot be a topic's fixed choices) offers it beside them, and an instruction answers with it.
AUTO = "auto"


def _rules(ruleset_id: str) -> Rules:
    rules = next(r.rules for r in PLAYABLE if r.id == ruleset_id)
    assert rules is not None
    return rules


def _sample(rules: Rules) -> BattleState:
    state = rules.sample_battle()
    assert state is not None
    return state


def _asked_in_play(rules: Rules, seed: bytes, calls: int) -> list[Decision]:
    """Every question the sample battle asks in ``calls`` engine calls, with the demo's orders
    and every question answered with its default."""
    result = Resolution(engine.begin(rules, _sample(rules)), (), ())
    for _ in range(calls):
        state = result.state
        if state.outcome is not None:
            break
        if state.pending is not None:
            decision = state.pending.decision
            given = Answer(decision.id, decision.default, decision.who)
            result = result.then(engine.answer(rules, seed, state, given))
            continue
        sides = engine.waiting(rules, state).sides
        orders = [order for side in sides for order in rules.demo_orders(state, side)]
        result = result.then(engine.run(rules, seed, state, orders))
    return [e.decision for e in result.events if isinstance(e, DecisionRequested)]


@pytest.mark.parametrize("ruleset_id", ASKING)
def test_every_question_the_sample_battle_asks_has_a_declared_topic(ruleset_id: str) -> None:
    rules = _rules(ruleset_id)
    declared = {topic.id for topic in rules.topics}
    asked = [d for seed in (b"\x01" * 32, b"\x02" * 32) for d in _asked_in_play(rules, seed, 150)]
    assert asked, "the sample battle asked nothing: the test proves nothing"
    untopical = sorted({d.id for d in asked if d.topic not in declared})
    assert not untopical
    for decision in asked:  # a unit-level instruction can only find questions naming their unit
        topic = topic_of(rules, decision.topic)
        assert topic is not None
        if AUTO in topic.choice_ids:  # units, leaders or cards, and the rules' own choice
            assert AUTO in decision.option_ids, decision.id
        else:
            assert set(decision.option_ids) <= set(topic.choice_ids), decision.id


def test_every_asking_ruleset_declares_topics_and_the_others_none_they_ask() -> None:
    for ruleset in PLAYABLE:
        assert ruleset.rules is not None
        ids = [topic.id for topic in ruleset.rules.topics]
        assert len(ids) == len(set(ids)), ruleset.id
        if ruleset.id in ASKING:
            assert ids, ruleset.id


def _topics() -> list[tuple[str, str]]:
    return [(r, topic.id) for r in ASKING for topic in _rules(r).topics]


def _question(state: BattleState, topic_id: str, options: tuple[Option, ...]) -> Decision:
    """A question of this topic about the first side's first unit, prompted by an enemy."""
    side = state.sides[0].id
    unit = next(u for u in state.units if u.side == side)
    enemy = next(u for u in state.units if u.side != side)
    return Decision(
        f"{topic_id}:{unit.id}", "?", options, options[0].id, side,
        topic=topic_id, unit=unit.id, other=enemy.id,
    )  # fmt: skip


@pytest.mark.parametrize(("ruleset_id", "topic_id"), _topics())
def test_each_choice_and_condition_of_a_topic_answers_as_declared(
    ruleset_id: str, topic_id: str
) -> None:
    rules = _rules(ruleset_id)
    state = _sample(rules)
    topic = topic_of(rules, topic_id)
    assert topic is not None and topic.choices
    decision = _question(state, topic_id, topic.choices)
    side, other_side = decision.who, state.sides[1].id
    for choice in topic.choice_ids:
        standing = Standing(side, topic_id, choice)
        assert standing_problem(rules, state, standing) is None
        found = standing_answer(rules, state, decision, [standing])
        assert found is not None and by_standing(found.reason)
        assert (found.decision, found.choice, found.by) == (decision.id, choice, side)
        assert standing_answer(rules, state, decision, [replace(standing, side=other_side)]) is None
        as_gm = replace(decision, who=GM)
        assert standing_answer(rules, state, as_gm, [replace(standing, side=GM)]) is None
        for condition in topic.conditions:
            conditional = replace(standing, condition=condition.id)
            assert standing_problem(rules, state, conditional) is None
            holds = condition.test(state, decision)
            assert isinstance(holds, bool)
            got = standing_answer(rules, state, decision, [conditional])
            assert (got is not None) == holds, condition.id


def test_a_condition_holds_or_not_as_the_battle_stands() -> None:
    rules = _rules("tree_of_battles")
    state = _sample(rules)
    topic = topic_of(rules, "charge_response")
    assert topic is not None
    side = state.sides[0].id
    target = next(u for u in state.units if u.side == side)
    horse = next(u for u in state.units if u.side != side and u.get("mounted") is True)
    foot = next(u for u in state.units if u.side != side and u.get("mounted") is not True)
    options = (Option("stand", "stand"), Option("evade", "evade"))
    by_horse = Decision("r", "?", options, "stand", side, topic="charge_response",
                        unit=target.id, other=horse.id)  # fmt: skip
    by_foot = replace(by_horse, other=foot.id)
    evade_horse = Standing(side, "charge_response", "evade", "by_mounted")
    assert standing_answer(rules, state, by_horse, [evade_horse]) is not None
    assert standing_answer(rules, state, by_foot, [evade_horse]) is None


def test_a_units_instruction_beats_its_sides_and_the_first_that_fits_wins() -> None:
    rules = _rules("skirmish")
    state = _sample(rules)
    side = state.sides[0].id
    unit, other = [u for u in state.units if u.side == side][:2]
    enemy = next(u for u in state.units if u.side != side)
    options = (Option("stand", "stand"), Option("evade", "evade"))
    asked = Decision("response", "?", options, "stand", side, topic="charge_response",
                     unit=unit.id, other=enemy.id)  # fmt: skip
    side_says = Standing(side, "charge_response", "stand")
    unit_says = Standing(side, "charge_response", "evade", unit=unit.id)
    other_unit = Standing(side, "charge_response", "evade", unit=other.id)

    def choice(*given: Standing) -> str | None:
        found = standing_answer(rules, state, asked, given)
        return None if found is None else found.choice

    assert choice(side_says, unit_says) == "evade"  # the unit's own, though listed later
    assert choice(side_says, other_unit) == "stand"  # another unit's instruction is not its
    assert choice(other_unit) is None
    never = Standing(side, "charge_response", "evade", "wounded")  # unhurt: does not hold
    assert choice(never, side_says) == "stand"
    by_foot = Standing(side, "charge_response", "evade", "by_foot")  # a conditional one first
    assert enemy.type != "cavalry" and choice(side_says, by_foot) == "evade"
    assert choice(Standing(side, "charge_response", "stand"), side_says) == "stand"
    assert choice(Standing(side, "follow_up", "halt")) is None  # another topic
    only_stand = replace(asked, options=(Option("stand", "stand"),))
    found = standing_answer(rules, state, only_stand, [unit_says, side_says])
    assert found is not None and found.choice == "stand"  # evade is not offered: passes on
    assert standing_answer(rules, state, replace(asked, topic=""), [side_says]) is None


def test_a_standing_instruction_that_cannot_be_kept_says_why() -> None:
    rules = _rules("tree_of_battles")
    state = _sample(rules)
    side, enemy_side = state.sides[0].id, state.sides[1].id
    enemy = next(u for u in state.units if u.side == enemy_side)
    problems = {
        "topic": Standing(side, "bribe", "stand"),
        "choice": Standing(side, "charge_response", "surrender"),
        "condition": Standing(side, "charge_response", "evade", "raining"),
        "unit": Standing(side, "charge_response", "evade", unit=enemy.id),
        "no unit": Standing(side, "charge_response", "evade", unit="zz9"),
        "side": Standing("martians", "charge_response", "evade"),
    }
    for name, standing in problems.items():
        assert standing_problem(rules, state, standing) is not None, name
    assert "not a unit of" in (standing_problem(rules, state, problems["unit"]) or "")
    standing = Standing(side, "charge_response", "evade", "by_mounted", "e1")
    assert Standing.from_dict(json.loads(json.dumps(standing.to_dict()))) == standing


def test_a_standing_answer_goes_through_the_engine_and_the_record_verifies() -> None:
    rules = _rules("tree_of_battles")
    seed = b"\x01" * 32
    first = engine.begin(rules, _sample(rules))
    result = Resolution(first, (), ())
    instructions: list[Standing] = []
    answered = 0
    for _ in range(400):
        state = result.state
        if state.outcome is not None or answered >= 2:
            break
        if state.pending is not None:
            if not instructions:  # every side answers every topic's question with its default
                instructions = [
                    Standing(s.id, t.id, c)
                    for s in state.sides
                    for t in rules.topics
                    for c in t.choice_ids
                ]
            found = standing_answers(rules, state, instructions)
            if found:
                answered += 1
                result = result.then(engine.answer(rules, seed, state, found[0]))
                continue
            decision = state.pending.decision
            given = Answer(decision.id, decision.default, decision.who)
            result = result.then(engine.answer(rules, seed, state, given))
            continue
        sides = engine.waiting(rules, state).sides
        orders = [order for side in sides for order in rules.demo_orders(state, side)]
        result = result.then(engine.run(rules, seed, state, orders))
    assert answered
    lines = Renderer.for_state(first).lines(result.events)
    assert sum("answered by standing instruction: " in line for line in lines) == answered
    record = BattleRecord.start(first, seed).extended(result.entries)
    report = verify(json.loads(json.dumps(record.revealed(seed).to_dict())))
    assert report.ok, report


def test_play_standing_answers_every_covered_question_and_stops_at_the_first_left() -> None:
    rules = _rules("tree_of_battles")
    seed = b"\x01" * 32
    result = Resolution(engine.begin(rules, _sample(rules)), (), ())
    for _ in range(400):  # play to the first question, with the demo's orders
        state = result.state
        if state.pending is not None:
            break
        sides = engine.waiting(rules, state).sides
        orders = [order for side in sides for order in rules.demo_orders(state, side)]
        result = result.then(engine.run(rules, seed, state, orders))
    pending = result.state.pending
    assert pending is not None
    asked = pending.decision
    assert play_standing(rules, seed, result, []) is result
    other_side = next(s.id for s in result.state.sides if s.id != asked.who)
    assert (
        play_standing(rules, seed, result, [Standing(other_side, asked.topic, asked.default)])
        is result
    )
    later = play_standing(rules, seed, result, [Standing(asked.who, asked.topic, asked.default)])
    assert (
        later.state.pending is None
        or later.state.pending.decision.topic != asked.topic
        or (later.state.pending.decision.who != asked.who)
    )
    assert len(later.entries) > len(result.entries)
