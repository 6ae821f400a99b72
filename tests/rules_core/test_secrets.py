"""Secrets: hidden state, private events and questions, cards drawn at draw time, and each
viewer's view of a state, its events and the battle record (with the ``parley`` test ruleset)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from rules_core import engine, registry
from rules_core.cards import CONCEALED, Card, Draw, sort_codes
from rules_core.context import Context
from rules_core.decisions import GM, Answer, Decision, Option
from rules_core.engine import Resolution
from rules_core.events import (
    CardDrawn,
    DecisionAnswered,
    DecisionRequested,
    Private,
    StatusChanged,
    event_from_dict,
    event_to_dict,
)
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.record import BattleRecord
from rules_core.render import Renderer
from rules_core.rulesets.tree_of_battles import demo
from rules_core.secrets import Viewer, masked_decision, view, view_record, visible_events
from rules_core.seeding import stream
from rules_core.state import BattleState, Side
from rules_core.status import UndeclaredStatus
from rules_core.verify import verify
from tests.rules_core.rulesets.tree_of_battles.test_forces import built

SEED = bytes.fromhex("c0de" * 16)
RED, BLUE = Viewer.of_side("red"), Viewer.of_side("blue")


def new_battle(rules: Rules, hand: int = 3) -> BattleState:
    sides = (Side("red", "Red"), Side("blue", "Blue"))
    state = rules.new_battle("parley-1", "parley", 48, 36, sides)
    return engine.begin(rules, replace(state, parameters={"hand": hand}))


def highest(state: BattleState, side: str) -> str:
    hand = state.deck("cards").hand(side)
    return max(hand, key=lambda code: (Card.from_code(code).value, code))


def play(rules: Rules, seed: bytes = SEED, stop_at_question: int | None = None) -> Resolution:
    """A battle of parley to its end: red plays its highest card and swaps on turn 2, blue
    plays its highest on turn 1, then its default (lowest), and keeps. Stops at the question
    of turn ``stop_at_question``."""
    first = new_battle(rules)
    result = engine.settle(rules, seed, Resolution(first, (), ()))
    while result.state.outcome is None:
        state = result.state
        if state.pending is not None:
            if state.cursor.turn == stop_at_question:
                return result
            decision = state.pending.decision
            choice = "swap" if (decision.who, state.cursor.turn) == ("red", 2) else "keep"
            given = Answer(decision.id, choice, decision.who)
            result = result.then(
                engine.settle(rules, seed, engine.answer(rules, seed, state, given))
            )
            continue
        orders = [Order("red", "play", {"card": highest(state, "red")})]
        if state.cursor.turn == 1:
            orders.append(Order("blue", "play", {"card": highest(state, "blue")}))
        result = result.then(engine.run(rules, seed, state, orders))
    return result


def record_of(first: BattleState, result: Resolution, reveal: bool = True) -> dict[str, Any]:
    kept = BattleRecord.start(first, SEED).extended(result.entries)
    if reveal:
        kept = kept.revealed(SEED)
    data: dict[str, Any] = json.loads(json.dumps(kept.to_dict()))
    return data


# -- viewers -------------------------------------------------------------------------------


def test_who_may_see_what() -> None:
    gm, public = Viewer.game_master(), Viewer.public()
    assert RED.may_see("red") and not RED.may_see("blue") and not RED.may_see(GM)
    assert gm.may_see("red") and gm.may_see(GM)
    assert not public.may_see("red") and not public.may_see(GM)


# -- private events ------------------------------------------------------------------------


def test_a_private_event_round_trips_and_shows_its_public_form_to_others() -> None:
    secret = StatusChanged("red", "swaps", 0, 1, "swapped")
    event = Private("red", secret, StatusChanged("red", "swaps", None, None, "a secret"))
    assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event
    bare = Private("blue", secret)
    assert event_from_dict(event_to_dict(bare)) == bare
    assert visible_events([event, bare], RED) == (secret,)
    assert visible_events([event, bare], BLUE) == (event.public, secret)
    assert visible_events([event, bare], Viewer.public()) == (event.public,)
    assert visible_events([event, bare], Viewer.game_master()) == (secret, secret)


def test_the_renderer_shows_a_private_event_only_to_its_audience() -> None:
    drawn = Private(
        "red", CardDrawn(Draw("cards", "red", "QS")), CardDrawn(Draw("cards", "red", ""))
    )
    names = {"red": "Red", "blue": "Blue"}
    assert Renderer(names).line(drawn) == "Red draws a card"
    assert Renderer(names, viewer=BLUE).line(drawn) == "Red draws a card"
    assert Renderer(names, viewer=RED).line(drawn) == "Red draws Q♠"
    assert Renderer(names).line(Private("red", drawn.event)) == ""
    face_up = CardDrawn(Draw("cards", None, "7S"))
    assert Renderer(names).line(face_up) == "7♠ is turned face up"


# -- the parley ruleset: hands, plays, verification -------------------------------------------


def test_parley_plays_to_the_end_and_verify_accepts_its_record(parley: Rules) -> None:
    first = new_battle(parley)
    result = play(parley)
    assert result.state.outcome is not None
    record = record_of(first, result)
    drawn = [draw for entry in record["entries"] for draw in entry["draws"]]
    assert len(drawn) >= 6 + 2 * 3  # the deal, a replacement each per turn, red's swap
    report = verify(record)
    assert report.ok, report.problem
    assert report.draws == len(drawn)
    assert "card draws" in report.text()
    hidden = result.state.hidden
    assert hidden["red"]["swaps"] == 1 and "blue" not in hidden


def test_a_tampered_draw_is_named(parley: Rules) -> None:
    first = new_battle(parley)
    record = record_of(first, play(parley))
    index, entry = next((i, e) for i, e in enumerate(record["entries"]) if len(e["draws"]) >= 3)
    real = entry["draws"][2]["card"]
    forged = "AS" if real != "AS" else "KS"
    entry["draws"][2]["card"] = forged
    report = verify(record)
    assert not report.ok
    who = entry["draws"][2]["owner"]
    assert f"entry {index} " in report.problem
    assert f"draw 3 ({who}): recorded {forged}, recomputed {real}" in report.problem


def test_a_record_stripped_of_its_draws_does_not_verify(parley: Rules) -> None:
    first = new_battle(parley)
    record = record_of(first, play(parley))
    for entry in record["entries"]:
        del entry["draws"]
    report = verify(record)
    assert not report.ok and "card draws recorded" in report.problem


def test_the_saved_state_holds_no_draw_order(parley: Rules) -> None:
    first = new_battle(parley)
    one = engine.settle(parley, SEED, Resolution(first, (), ())).state
    other = engine.settle(parley, bytes(32), Resolution(first, (), ())).state
    deck, again = one.deck("cards"), other.deck("cards")
    assert deck.hands != again.hands, "the same state draws differently with another seed"
    assert deck.pile == sort_codes(deck.pile) and again.pile == sort_codes(again.pile)
    assert len(deck.pile) == 52 - 6
    assert BattleState.from_dict(json.loads(json.dumps(one.to_dict()))) == one


# -- views ---------------------------------------------------------------------------------


def test_a_side_sees_its_own_hand_and_only_the_count_of_the_others(parley: Rules) -> None:
    state = play(parley, stop_at_question=2).state
    deck = state.deck("cards")
    red = view(state, RED).deck("cards")
    assert red.hand("red") == deck.hand("red") and CONCEALED not in red.hand("red")
    assert red.hand("blue") == (CONCEALED,) * len(deck.hand("blue"))
    assert set(red.pile) == {CONCEALED} and len(red.pile) == len(deck.pile)
    assert red.discards == deck.discards
    public = view(state, Viewer.public()).deck("cards")
    assert set(public.hand("red")) == set(public.hand("blue")) == {CONCEALED}
    assert view(state, Viewer.game_master()) == state
    text = json.dumps(view(state, RED).to_dict())
    assert all(
        f'"{code}"' not in text for code in deck.hand("blue") if code not in deck.hand("red")
    )


def test_hidden_state_is_seen_by_its_side_alone(parley: Rules) -> None:
    state = play(parley, stop_at_question=3).state
    assert state.hidden["red"] == {"swaps": 1}
    assert view(state, RED).hidden == {"red": {"swaps": 1}}
    assert view(state, BLUE).hidden == {}
    assert view(state, Viewer.public()).hidden == {}


def test_set_hidden_refuses_an_undeclared_key(parley: Rules) -> None:
    ctx = Context(parley, new_battle(parley), (), (), stream(SEED, "x"))
    with pytest.raises(UndeclaredStatus):
        ctx.set_hidden("red", "why", points=3)
    ctx.set_hidden("blue", "a secret", swaps=2)
    assert ctx.state.hidden == {"blue": {"swaps": 2}}
    assert ctx.events == [
        Private("blue", StatusChanged("blue", "swaps", None, 2, "a secret"), None)
    ]


def test_a_stopped_step_shows_each_side_only_its_own_orders_and_question(parley: Rules) -> None:
    result = play(parley, stop_at_question=1)
    state = result.state
    assert state.pending is not None
    assert {o.actor for o in state.pending.orders} == {"red", "blue"}
    red = view(state, RED).pending
    assert red is not None and [o.actor for o in red.orders] == ["red"]
    blue = view(state, BLUE).pending
    assert blue is not None and [o.actor for o in blue.orders] == ["blue"]
    public = view(state, Viewer.public()).pending
    assert public is not None and public.orders == ()
    assert view(state, Viewer.game_master()).pending == state.pending
    asked = {d.who: d for d in red.open}
    assert asked["red"].question == "Keep or swap your lowest card?"
    assert asked["blue"].question == "A private question for blue"
    assert asked["blue"].option_ids == (CONCEALED,)


def test_private_questions_and_answers_reach_others_in_their_public_form(parley: Rules) -> None:
    first = new_battle(parley)
    result = play(parley)
    names = Renderer.for_state(first)
    seen_by_blue = visible_events(result.events, BLUE)
    asked = [e for e in seen_by_blue if isinstance(e, DecisionRequested)]
    assert {e.decision.who for e in asked if e.decision.option_ids == ("keep", "swap")} == {"blue"}
    answered = [e for e in seen_by_blue if isinstance(e, DecisionAnswered) and e.by == "red"]
    assert answered and {e.choice for e in answered} == {CONCEALED}
    lines = names.lines(result.events)  # no viewer: the public form
    assert "Red has a private question to answer" in lines and "Red answered" in lines
    assert not any("swap" in line.lower() for line in lines)
    assert any(line.startswith("Red plays ") for line in lines)
    assert not any(line.startswith("Red draws ") and line != "Red draws a card" for line in lines)


def test_view_record_mid_battle_hides_other_sides_orders_and_draws(parley: Rules) -> None:
    first = new_battle(parley)
    result = play(parley, stop_at_question=2)
    record = record_of(first, result, reveal=False)
    red = view_record(record, RED, open_step=True)
    json.dumps(red)  # still JSON
    assert set(red) == set(record)
    opened = red["entries"][-1]
    assert opened["action"] == "resolve" and [o["actor"] for o in opened["orders"]] == ["red"]
    earlier = [e for e in red["entries"][:-1] if e["action"] == "resolve" and e["orders"]]
    assert earlier and {o["actor"] for o in earlier[-1]["orders"]} == {"red", "blue"}
    draws = [d for e in red["entries"] for d in e["draws"]]
    assert {d["card"] for d in draws if d["owner"] == "blue"} == {""}
    assert all(d["card"] for d in draws if d["owner"] == "red")
    assert (
        view_record(record, RED, open_step=False)["entries"][-1]["orders"]
        == (record["entries"][-1]["orders"])
    )
    assert view_record(record, Viewer.game_master(), open_step=True) == record
    public = view_record(record, Viewer.public(), open_step=True)
    assert public["entries"][-1]["orders"] == []
    assert {d["card"] for e in public["entries"] for d in e["draws"]} == {""}
    done = record_of(first, play(parley))
    assert view_record(done, RED, open_step=True) == done


def test_view_record_hides_a_private_answer_from_others(parley: Rules) -> None:
    first = new_battle(parley)
    record = record_of(first, play(parley, stop_at_question=3), reveal=False)
    answers = [e for e in record["entries"] if e["action"] == "answer"]
    assert {e["audience"] for e in answers} == {"red", "blue"}
    shown = view_record(record, BLUE, open_step=True)
    for entry in shown["entries"]:
        if entry["action"] == "answer":
            mine = entry["audience"] == "blue"
            assert (entry["answer"]["choice"] != CONCEALED) == mine


def test_view_record_conceals_the_sealed_parameters_of_other_sides_orders(parley: Rules) -> None:
    first = new_battle(parley)
    record = record_of(first, play(parley, stop_at_question=3), reveal=False)
    sealed = {"play": ["card"]}  # as if a played card were sealed like a battle plan
    shown = view_record(record, RED, open_step=False, sealed=sealed)
    played = [o for e in shown["entries"] for o in e.get("orders", ()) if o["kind"] == "play"]
    assert {o["actor"] for o in played} == {"red", "blue"}
    for order in played:
        assert (order["params"]["card"] == CONCEALED) == (order["actor"] == "blue"), order
    assert view_record(record, Viewer.game_master(), open_step=False, sealed=sealed) == record
    done = record_of(first, play(parley))
    assert view_record(done, BLUE, open_step=False, sealed=sealed) == done


def test_an_impetus_battle_plan_is_a_sealed_parameter() -> None:
    rules = registry.get("impetus").rules
    assert rules is not None
    assert rules.sealed_params() == {"battle_plan": frozenset({"plan"})}


def test_a_masked_question_keeps_only_its_id_and_who() -> None:
    asked = Decision("q", "Which?", (Option("a", "A"), Option("b", "B")), "b", "red", private=True)
    masked = masked_decision(asked)
    assert (masked.id, masked.who, masked.private) == ("q", "red", True)
    assert "Which" not in json.dumps(masked.to_dict()) and '"b"' not in json.dumps(masked.to_dict())


# -- the Tree of Battles: a step stopped for a charge response ----------------------------------


def test_the_record_of_a_step_stopped_for_a_charge_response_hides_the_other_sides_orders() -> None:
    rules = registry.get("tree_of_battles").rules
    assert rules is not None
    first = engine.begin(rules, built(rules))
    result = Resolution(first, (), ())
    while result.state.pending is None:
        state = result.state
        orders = [
            o for s in engine.waiting(rules, state).sides for o in demo.orders_for(rules, state, s)
        ]
        result = result.then(engine.run(rules, SEED, state, orders))
    stopped = result.state
    assert stopped.pending is not None
    assert stopped.pending.decision.id.startswith("response:")
    asked = stopped.pending.decision.who
    side_of = {unit.id: unit.side for unit in stopped.units}
    assert {side_of[o.actor] for o in stopped.pending.orders} == {"a", "b"}
    record = record_of(first, result, reveal=False)
    whole = record["entries"][-1]
    assert {side_of[o["actor"]] for o in whole["orders"]} == {"a", "b"}  # the leak, unviewed
    for side in ("a", "b"):
        shown = view_record(record, Viewer.of_side(side), open_step=True)
        opened = shown["entries"][-1]
        assert opened["action"] == "resolve"
        assert opened["orders"] and {side_of[o["actor"]] for o in opened["orders"]} == {side}
        pending = view(stopped, Viewer.of_side(side)).pending
        assert pending is not None and {side_of[o.actor] for o in pending.orders} == {side}
    assert asked in ("a", "b")
    assert view_record(record, Viewer.game_master(), open_step=True) == record
