"""Reactions: the question to the other side (what it offers and shows), its computed default,
standing instructions answering it, the discipline test, and each reaction carried out."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core import engine
from rules_core.context import Suspended
from rules_core.decisions import Answer
from rules_core.events import DecisionRequested, ShotFired
from rules_core.orders import Order
from rules_core.rulesets.impetus import reactions
from rules_core.rulesets.impetus.status import CHARGED, CLOSED_RANKS, EVADES
from rules_core.secrets import Viewer, view
from rules_core.standing import Standing, standing_answer
from rules_core.steps import Cursor, Subject
from tests.rules_core.rulesets.impetus.combat_helpers import (
    PARAMS,
    RULES,
    at,
    context,
    detach,
    logged_tests,
    rolls_of,
    status,
)


def _answer(decision_id: str, choice: str, side: str) -> Answer:
    return Answer(decision_id, choice, side)


def test_archers_charged_may_fire_and_the_question_names_only_the_two_units() -> None:
    state = detach(at("charge", romans3=(10, 5, 0), gauls2=(10, 9, 180), gauls1=(20, 9, 180)))
    asked = reactions.decision(state, "charged", state.unit("romans3"), state.unit("gauls2"),
                               PARAMS)  # fmt: skip
    assert asked is not None
    assert asked.option_ids == ("none", "defensive_fire")
    assert asked.default == "defensive_fire"
    assert (asked.who, asked.topic, asked.unit, asked.other) == (
        "romans", "charge_reaction", "romans3", "gauls2",
    )  # fmt: skip
    shown = " ".join([asked.question, *(o.label for o in asked.options)])
    assert shown == ("Carnutes Warband charges Cretan Archers: how does Cretan Archers react? "
                     "no reaction defensive fire at the charger")  # fmt: skip
    assert "Arverni" not in shown and "gauls1" not in asked.id


def test_asking_suspends_and_shows_nothing_of_other_orders() -> None:
    state = detach(at("charge", romans3=(10, 5, 0), gauls2=(10, 9, 180), gauls1=(20, 9, 180)))
    ctx = context(state)
    with pytest.raises(Suspended) as stopped:
        reactions.offer(ctx, "charged", state.unit("romans3"), state.unit("gauls2"))
    assert stopped.value.decision.who == "romans"
    assert [type(e) for e in ctx.events] == [DecisionRequested]


def test_defensive_fire_passed_shoots_the_charger() -> None:
    state = detach(at("charge", romans3=(10, 5, 0), gauls2=(10, 9, 180)))
    asked = reactions.decision(state, "charged", state.unit("romans3"), state.unit("gauls2"),
                               PARAMS)  # fmt: skip
    assert asked is not None
    ctx = context(state, [2, 1, 1, 1, 1], answers=[_answer(asked.id, "defensive_fire", "romans")])
    done = reactions.offer(ctx, "charged", state.unit("romans3"), state.unit("gauls2"))
    assert done == "defensive_fire"
    assert logged_tests(ctx.events)[0].test == "discipline test (defensive fire)"
    assert any(isinstance(e, ShotFired) for e in ctx.events)


def test_a_failed_test_means_no_reaction() -> None:
    state = detach(at("charge", romans3=(10, 5, 0), gauls2=(10, 9, 180)))
    asked = reactions.decision(state, "charged", state.unit("romans3"), state.unit("gauls2"),
                               PARAMS)  # fmt: skip
    assert asked is not None
    ctx = context(state, [6], answers=[_answer(asked.id, "defensive_fire", "romans")])
    assert reactions.offer(ctx, "charged", state.unit("romans3"), state.unit("gauls2")) == "none"
    assert not any(isinstance(e, ShotFired) for e in ctx.events)


def test_close_ranks_against_horse() -> None:
    state = detach(at("charge", romans2=(10, 5, 0), gauls4=(10, 8, 180)))
    asked = reactions.decision(state, "charged", state.unit("romans2"), state.unit("gauls4"),
                               PARAMS)  # fmt: skip
    assert asked is not None and asked.option_ids == ("none", "close_ranks")
    assert asked.default == "close_ranks"
    state = status(state, "gauls4", moves=1)  # it moved once, then charges: a second move
    ctx = context(state, [3], answers=[_answer(asked.id, "close_ranks", "romans")])
    assert reactions.offer(ctx, "charged", state.unit("romans2"), state.unit("gauls4")) == (
        "close_ranks"
    )
    assert CLOSED_RANKS.of(ctx.state.unit("romans2"))
    assert "Close Ranks: Enemy charged with more than 1 MOVE" in logged_tests(ctx.events)[0].row


def test_countercharge_a_brave_general_rerolls_a_failure() -> None:
    state = detach(at("charge", gauls4=(10, 5, 0), romans4=(10, 8, 180)))
    brave = replace(state.leader("gauls_g_vercingetorix"), attached_to="gauls4", x=10, y=5)
    state = state.with_leader(brave)
    asked = reactions.decision(state, "charged", state.unit("gauls4"), state.unit("romans4"),
                               PARAMS)  # fmt: skip
    assert asked is not None and asked.option_ids == ("none", "countercharge")
    ctx = context(state, [6, 2], answers=[_answer(asked.id, "countercharge", "gauls")],
                  dt_natural_fail=6)  # fmt: skip
    done = reactions.offer(ctx, "charged", state.unit("gauls4"), state.unit("romans4"))
    assert done == "countercharge"
    assert [t.passed for t in logged_tests(ctx.events)] == [False, True]


def test_skirmishers_evade_foot() -> None:
    state = detach(at("charge", gauls3=(10, 10, 180), romans2=(10, 6, 0)))
    asked = reactions.decision(state, "charged", state.unit("gauls3"), state.unit("romans2"),
                               PARAMS)  # fmt: skip
    assert asked is not None
    assert asked.option_ids == ("none", "defensive_fire", "evasion")
    assert asked.default == "evasion"
    ctx = context(state, [1], answers=[_answer(asked.id, "evasion", "gauls")])
    assert reactions.offer(ctx, "charged", state.unit("gauls3"), state.unit("romans2")) == "evasion"
    moved = ctx.state.unit("gauls3")
    assert (moved.x, moved.y, moved.facing) == (10, 13, 0)  # 3H away, its back to the legion
    assert EVADES.of(moved) == 1


def test_no_question_when_nothing_is_allowed() -> None:
    state = detach(at("charge", gauls2=(10, 10, 180), romans2=(10, 6, 0)))
    ctx = context(state)
    assert reactions.offer(ctx, "charged", state.unit("gauls2"), state.unit("romans2")) == "none"
    assert ctx.events == []


def test_opportunity_fire_when_an_enemy_moves_near() -> None:
    state = detach(at("move", romans3=(10, 5, 0), gauls2=(10, 9, 180)))
    asked = reactions.decision(state, "moved", state.unit("romans3"), state.unit("gauls2"),
                               PARAMS)  # fmt: skip
    assert asked is not None and asked.topic == "opportunity"
    assert asked.option_ids == ("none", "reaction_fire")  # 3H away: beyond its 2H charge
    ctx = context(state, [1, 1, 1, 1], answers=[_answer(asked.id, "reaction_fire", "romans")])
    assert reactions.offer(ctx, "moved", state.unit("romans3"), state.unit("gauls2")) == (
        "reaction_fire"
    )
    shot = rolls_of(ctx.events)[1].roll
    assert "Shooting as Reaction Fire" in {m.reason for m in shot.dice_modifiers}


def test_standing_instructions_answer_reactions() -> None:
    state = detach(at("charge", romans2=(10, 5, 0), gauls4=(10, 8, 180)))
    asked = reactions.decision(state, "charged", state.unit("romans2"), state.unit("gauls4"),
                               PARAMS)  # fmt: skip
    assert asked is not None
    rules = [Standing("romans", "charge_reaction", "none"),
             Standing("romans", "charge_reaction", "close_ranks", "by_mounted")]  # fmt: skip
    answer = standing_answer(RULES, state, asked, rules)
    assert answer is not None and answer.choice == "close_ranks"
    topics = {t.id for t in RULES.topics}
    assert {"charge_reaction", "opportunity"} <= topics


def test_through_the_engine_the_question_shows_nothing_of_orders_not_yet_carried_out() -> None:
    """#11: two charges ordered; the first target's question stops the step. The side asked
    sees the question about the charge being made, and nothing of the second charge."""
    state = detach(at("charge", romans3=(10, 5, 0), romans2=(16, 5, 0), gauls1=(10, 7.5, 180),
                      gauls2=(16, 7.0, 180)))  # fmt: skip
    cursor = Cursor(1, "main", "charge", ("gauls", "romans"),
                    subjects=(Subject("gauls_vercingetorix", "gauls"),))  # fmt: skip
    state = replace(state, cursor=cursor)
    orders = [Order("gauls1", "charge", {"target": "romans3"}),
              Order("gauls2", "charge", {"target": "romans2"})]  # fmt: skip
    result = engine.run(RULES, b"secret", state, orders)
    assert result.state.pending is not None
    seen = view(result.state, Viewer.of_side("romans"))
    assert seen.pending is not None and seen.pending.orders == ()
    asked = seen.pending.decision
    assert (asked.who, asked.unit, asked.other) == ("romans", "romans3", "gauls1")
    shown = " ".join(repr(e) for e in result.events)
    for secret in ("gauls2", "Carnutes", "romans2", "Legio IX"):
        assert secret not in shown
        assert secret not in repr(asked)


def test_a_countercharge_counts_as_charging_in_the_melee() -> None:
    state = detach(at("charge", gauls4=(10, 5, 0), romans4=(10, 8, 180)))
    cursor = Cursor(1, "main", "charge", ("romans", "gauls"),
                    subjects=(Subject("romans_labienus", "romans"),))  # fmt: skip
    state = replace(state, cursor=cursor)
    orders = [Order("romans4", "charge", {"target": "gauls4"})]
    result = engine.run(RULES, b"counter", state, orders)
    assert result.state.pending is not None
    asked = result.state.pending.decision
    assert "countercharge" in asked.option_ids
    answered = engine.answer(RULES, b"counter", result.state,
                             Answer(asked.id, "countercharge", "gauls"))  # fmt: skip
    tests = [e for e in answered.events if type(e).__name__ == "TestResolved"]
    passed = next(t for t in tests if t.test == "discipline test (countercharge)").passed
    rolls = [e.roll for e in rolls_of(answered.events)]
    noble = next(r for r in rolls if r.label.startswith("Melee: Noble Cavalry"))
    reasons = {m.reason for m in noble.dice_modifiers}
    assert ("impetus bonus 2" in reasons) == passed


def test_each_evade_after_the_first_in_a_turn_is_tested_at_minus_one_more() -> None:
    state = detach(at("charge", gauls3=(10, 10, 180), romans2=(10, 6, 0)))
    state = status(state, "gauls3", evades=2)  # evaded twice already this turn
    asked = reactions.decision(state, "charged", state.unit("gauls3"), state.unit("romans2"),
                               PARAMS)  # fmt: skip
    assert asked is not None
    ctx = context(state, [1], answers=[_answer(asked.id, "evasion", "gauls")])
    reactions.offer(ctx, "charged", state.unit("gauls3"), state.unit("romans2"))
    test = next(t for t in logged_tests(ctx.events) if "evasion" in t.test)
    assert "-2 Evasion: For each Evade after the 1st (cumulative) (evade 3)" in test.row
    assert EVADES.of(ctx.state.unit("gauls3")) == 3


def test_a_passed_countercharge_moves_the_unit_to_meet_the_charger() -> None:
    state = detach(at("charge", gauls4=(10, 5, 0), romans4=(10, 8, 180)))  # a 1.5H gap
    asked = reactions.decision(state, "charged", state.unit("gauls4"), state.unit("romans4"),
                               PARAMS)  # fmt: skip
    assert asked is not None
    ctx = context(state, [1], answers=[_answer(asked.id, "countercharge", "gauls")])
    assert reactions.offer(ctx, "charged", state.unit("gauls4"), state.unit("romans4")) == (
        "countercharge"
    )
    moved = ctx.state.unit("gauls4")
    assert (moved.x, moved.y, moved.facing) == (10, 5.75, 0) and CHARGED.of(moved)
