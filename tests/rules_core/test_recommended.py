"""Recommended standing instructions: every ruleset declares, as data in its package, what an
experienced player would choose for each question topic, and they answer what play asks."""

from __future__ import annotations

import pytest

from rules_core.decisions import GM
from rules_core.plugin import Rules
from rules_core.registry import all_rulesets
from rules_core.standing import (
    Recommended,
    recommended_problem,
    recommended_standing,
    standing_answer,
    topic_of,
)
from tests.rules_core.test_standing import _asked_in_play

PLAYABLE = [r for r in all_rulesets() if r.rules is not None and r.rules.sample_battle()]
SEEDS = (b"\x01" * 32, b"\x02" * 32)


def _rules(ruleset_id: str) -> Rules:
    rules = next(r.rules for r in PLAYABLE if r.id == ruleset_id)
    assert rules is not None
    return rules


def _ids() -> list[str]:
    return [r.id for r in PLAYABLE]


@pytest.mark.parametrize("ruleset_id", _ids())
def test_every_topic_a_side_answers_has_a_recommended_answer_among_its_options(
    ruleset_id: str,
) -> None:
    rules = _rules(ruleset_id)
    for recommended in rules.recommended:
        assert recommended_problem(rules, recommended) is None, recommended
        assert recommended.why, recommended
    for topic in rules.topics:
        always = [r for r in rules.recommended if r.topic == topic.id and not r.condition]
        if topic.gm:  # the GM rules these: an instruction would never be used
            assert not [r for r in rules.recommended if r.topic == topic.id], topic.id
            continue
        assert len(always) == 1, f"{ruleset_id}: {topic.id} has no recommended answer"
        assert always[0].choices[0] in topic.choice_ids


def test_a_recommendation_that_cannot_be_kept_says_why() -> None:
    rules = _rules("hail_caesar")
    assert "not a choice" in str(recommended_problem(rules, Recommended("reroll", ("x",), "?")))
    assert "no questions" in str(recommended_problem(rules, Recommended("nope", ("x",), "?")))
    assert "GM rules" in str(recommended_problem(rules, Recommended("sight", ("clear",), "?")))
    shaken = Recommended("hold_or_retreat", ("retreat",), "?", "calm")
    assert "not a condition" in str(recommended_problem(rules, shaken))


@pytest.mark.parametrize("ruleset_id", _ids())
def test_the_recommended_instructions_answer_every_question_a_side_is_asked(
    ruleset_id: str,
) -> None:
    rules = _rules(ruleset_id)
    state = rules.sample_battle()
    assert state is not None
    given = [s for side in state.sides for s in recommended_standing(rules.recommended, side.id)]
    for seed in SEEDS:
        for decision in _asked_in_play(rules, seed, 150):
            topic = topic_of(rules, decision.topic)
            if decision.who == GM or topic is None or topic.gm:
                continue  # the GM's rulings, and questions no instruction may answer
            answer = standing_answer(rules, state, decision, given)
            assert answer is not None, f"{ruleset_id}: {decision.id} would still be asked"
