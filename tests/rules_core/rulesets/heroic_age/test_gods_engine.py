"""The god pack, leader actions and a personal combat through the engine: the steps resolve,
standing instructions answer the recurring questions, and a leader's order planned ahead
(while the gods are still to be invoked) is carried out in the Leadership step."""

from __future__ import annotations

import json

from rules_core import engine, planning
from rules_core.decisions import Answer
from rules_core.engine import Resolution
from rules_core.events import TestResolved
from rules_core.orders import Order
from rules_core.record import BattleRecord
from rules_core.rulesets.heroic_age import gods
from rules_core.rulesets.heroic_age.status import CHALLENGE, LPS_SPENT
from rules_core.secrets import Viewer, view_record
from rules_core.standing import Standing
from rules_core.standing_play import play_standing
from rules_core.verify import verify
from tests.rules_core.rulesets.heroic_age.godsplay import RULES, SEED, battle, leader_named

STANDING = (
    Standing("saxons", "holy", "cancel", "bad_for_us"),
    Standing("saxons", "holy", "pass"),
    Standing("saxons", "challenge", "refuse"),
    Standing("danes", "challenge", "refuse"),
    Standing("saxons", "seven", "use", "below_4"),
    Standing("saxons", "seven", "keep"),
    Standing("danes", "seven", "keep"),
)


def test_a_turn_of_gods_and_leadership_through_the_engine() -> None:
    state = battle("gods")
    guthrum = leader_named(state, "Guthrum")
    alfred = leader_named(state, "King Alfred")
    step = next(s for s in planning.side_steps(RULES, state, "danes") if s.step == "leadership")
    order = Order(guthrum, "challenge", {"leader": alfred})
    assert planning.preview(RULES, state, step, order).legal  # planned while the gods come first
    result = play_standing(RULES, SEED, engine.run(RULES, SEED, state), STANDING)
    for _ in range(20):  # other questions (a card's choice): their defaults
        if result.state.pending is None:
            break
        asked = result.state.pending.decision
        result = result.then(
            engine.answer(RULES, SEED, result.state, Answer(asked.id, asked.default, asked.who))
        )
        result = play_standing(RULES, SEED, result, STANDING)
    assert result.state.cursor.step == "leadership"
    assert len(result.state.deck(gods.DECK).every_card()) == 54
    carried = planning.carry_out(RULES, result.state, [planning.Planned(step.key, "danes", order)])
    assert carried.orders == (order,)
    done = play_standing(
        RULES, SEED, engine.run(RULES, SEED, result.state, carried.orders), STANDING
    )
    for _ in range(40):  # the personal combat's discards and card plays: their defaults
        if done.state.pending is None:
            break
        asked = done.state.pending.decision
        assert asked.id.startswith("duel") and asked.private
        given = Answer(asked.id, asked.default, asked.who)
        done = play_standing(
            RULES, SEED, done.then(engine.answer(RULES, SEED, done.state, given)), STANDING
        )
    spent = [e for e in done.events if isinstance(e, TestResolved) and e.test == "LPs spent"]
    assert [(e.subject, e.score) for e in spent][:1] == [(guthrum, 3)]
    assert all(LPS_SPENT.of(ld) == 0 for ld in done.state.leaders)  # the next turn's LPs whole
    assert not CHALLENGE.of(done.state.leader(guthrum))  # fought (refused) in the duels step
    assert done.state.pending is None and done.state.cursor.step == "movement"
    assert isinstance(done, Resolution)


def test_the_record_of_draws_and_a_duel_verifies_and_hides_the_other_hand() -> None:
    state = battle("leadership")
    guthrum = leader_named(state, "Guthrum")
    alfred = leader_named(state, "King Alfred")
    accept = (*STANDING[:1], Standing("saxons", "challenge", "accept"), *STANDING[4:])
    result = play_standing(
        RULES,
        SEED,
        engine.run(RULES, SEED, state, [Order(guthrum, "challenge", {"leader": alfred})]),
        accept,
    )
    assert result.state.pending is not None and result.state.pending.decision.id.startswith("duel")
    record = BattleRecord.start(state, SEED).extended(result.entries)
    mid = view_record(
        json.loads(json.dumps(record.to_dict())), Viewer.of_side("saxons"), open_step=True
    )
    draws = [d for entry in mid["entries"] for d in entry.get("draws", ())]
    danish = [d for d in draws if d["deck"] == "duel1_danes"]
    saxon = [d for d in draws if d["deck"] == "duel1_saxons"]
    assert len(danish) == 8 and all(d["card"] == "" for d in danish)
    assert len(saxon) == 7 and all(d["card"] for d in saxon)
    for _ in range(40):
        if result.state.pending is None:
            break
        asked = result.state.pending.decision
        given = Answer(asked.id, asked.default, asked.who)
        result = play_standing(
            RULES, SEED, result.then(engine.answer(RULES, SEED, result.state, given)), accept
        )
    assert result.state.pending is None
    whole = BattleRecord.start(state, SEED).extended(result.entries).revealed(SEED)
    report = verify(json.loads(json.dumps(whole.to_dict())))
    assert report.ok, report


def test_a_battle_with_challenges_every_turn_plays_out_and_verifies() -> None:
    from rules_core.events import ArrivedOrLeft
    from rules_core.rulesets.heroic_age.demo import orders_for
    from rules_core.rulesets.heroic_age.sample import sample_battle

    seed = bytes([3]) * 32
    first = engine.begin(RULES, sample_battle(max_turns=6))
    result = Resolution(first, (), ())
    pairs = (("danes_guthrum", "saxons_alfred"), ("saxons_aethelnoth", "danes_ubba"))
    for _ in range(3000):
        state = result.state
        if state.outcome is not None:
            break
        if state.pending is not None:
            asked = state.pending.decision
            given = Answer(asked.id, asked.default, asked.who)
            result = result.then(engine.answer(RULES, seed, state, given))
            continue
        sides = engine.waiting(RULES, state).sides
        orders = [o for s in sides for o in orders_for(RULES, state, s)]
        if state.cursor.step == "leadership":
            challenges = [Order(a, "challenge", {"leader": b}) for a, b in pairs]
            orders += [o for o in challenges if RULES.legal(state, o) is not None]
        result = result.then(engine.run(RULES, seed, state, orders))
    assert result.state.outcome is not None
    exchanges = [e for e in result.events if isinstance(e, TestResolved) and "exchange" in e.test]
    killed = [e for e in result.events if isinstance(e, ArrivedOrLeft) and not e.arrived]
    assert exchanges and killed  # duels were fought and someone died
    whole = BattleRecord.start(first, seed).extended(result.entries).revealed(seed)
    report = verify(json.loads(json.dumps(whole.to_dict())))
    assert report.ok and report.draws > 54, report
