"""The AI general (#36) in every ruleset: it reads only its side's view (no cheating), gives
only orders the ruleset's judge accepts, one plan per view and seed, and within its budget."""

from __future__ import annotations

import copy
from dataclasses import replace
from fractions import Fraction

import pytest

from rules_core import engine, general, general_reply, general_score
from rules_core import general_candidates as candidates
from rules_core.big_battles import begun
from rules_core.cards import DeckState
from rules_core.decisions import GM, Answer
from rules_core.general_candidates import Candidate
from rules_core.general_concert import Concert
from rules_core.geometry import facing_towards
from rules_core.orders import Order, Preview
from rules_core.plugin import Rules
from rules_core.registry import all_rulesets
from rules_core.secrets import Viewer, view
from rules_core.state import OFF_TABLE, BattleState
from rules_core.toolkit import gap

RULESETS = [rs.id for rs in all_rulesets() if rs.rules is not None and rs.listed]
SEED = b"general-test"
ACTING_STEPS = 4  # the AI side's fourth step to act in: armies have closed a little


def _rules(ruleset: str) -> Rules:
    found = next(rs.rules for rs in all_rulesets() if rs.id == ruleset)
    assert found is not None
    return found


def _acting(rules: Rules) -> tuple[BattleState, str]:
    """A battle at the AI side's ``ACTING_STEPS``-th step, both sides played by the script."""
    sample = rules.sample_battle()
    assert sample is not None
    state = begun(rules, len(sample.units))
    side = state.sides[0].id
    seen, last = 0, None
    for _ in range(500):
        if state.outcome is not None and last is not None:
            return last, side  # a short battle: its last step the side acted in
        if state.pending is not None:
            decision = state.pending.decision
            given = Answer(decision.id, decision.default, GM)
            state = engine.answer(rules, SEED, state, given).state
            continue
        sides = engine.waiting(rules, state).sides
        if side in sides and state.units_of(side, on_table=True):
            seen, last = seen + 1, state
            if seen == ACTING_STEPS:
                return state, side
        orders = [o for s in sides for o in rules.demo_orders(state, s)]
        state = engine.run(rules, SEED, state, orders).state
    raise AssertionError("the side never came to act")


def _with_secrets(state: BattleState, other: str) -> BattleState:
    """The same battle with the other side's hidden state and hand of cards changed."""
    secret = DeckState("general-test", pile=("2H",), hands={other: ("QS", "KD")})
    return replace(state.with_hidden(other, plan="flank march"), decks=(*state.decks, secret))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_general_reads_only_its_sides_view(ruleset: str) -> None:
    rules = _rules(ruleset)
    state, side = _acting(rules)
    other = next(s.id for s in state.sides if s.id != side)
    changed = _with_secrets(state, other)
    assert changed != state  # the battles differ, in what the side may not see
    one = general.plan_side(rules, view(state, Viewer.of_side(side)), side, seed=3)
    two = general.plan_side(rules, view(changed, Viewer.of_side(side)), side, seed=3)
    assert one == two and one


def _seen(ruleset: str) -> tuple[Rules, BattleState, str, BattleState]:
    """The rules, a battle at the side's step, the side and its view of the battle."""
    rules = _rules(ruleset)
    state, side = _acting(rules)
    return rules, state, side, view(state, Viewer.of_side(side))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_order_is_judged_legal_and_the_plan_is_seeded(ruleset: str) -> None:
    rules, state, side, seen = _seen(ruleset)
    advice = general.plan_side(rules, seen, side, seed=7)
    assert advice
    for given in advice:
        assert isinstance(rules.judge(seen, given.order), Preview), given
        assert isinstance(rules.judge(state, given.order), Preview), given
        assert given.reason
    assert general.plan_side(rules, seen, side, seed=7) == advice


@pytest.mark.parametrize("ruleset", RULESETS)
def test_with_no_budget_only_the_scripted_orders_stand(ruleset: str) -> None:
    rules, _, side, seen = _seen(ruleset)
    advice = general.plan_side(rules, seen, side, budget_s=0.0)
    scripted = [o for o in rules.demo_orders(seen, side) if rules.legal(seen, o)]
    assert [a.order for a in advice] == scripted


@pytest.mark.parametrize("ruleset", ["heroic_age", "pike_and_shot"])
def test_reply_answers_with_an_option_of_the_question(ruleset: str) -> None:
    rules = _rules(ruleset)
    sample = rules.sample_battle()
    assert sample is not None
    state = begun(rules, len(sample.units))
    asked = 0
    for _ in range(500):
        if state.outcome is not None:
            break
        if state.pending is not None:
            decision = state.pending.decision
            if decision.who != GM:
                seen = view(state, Viewer.of_side(decision.who))
                answer = general.reply(rules, seen, decision.who, decision)
                assert decision.problem(answer.choice) is None and answer.reason
                asked += 1
            given = Answer(decision.id, decision.default, GM)
            state = engine.answer(rules, SEED, state, given).state
            continue
        sides = engine.waiting(rules, state).sides
        orders = [o for s in sides for o in rules.demo_orders(state, s)]
        state = engine.run(rules, SEED, state, orders).state
    assert asked


def test_reasons_are_worded_from_the_odds_and_the_board() -> None:
    rules = _rules("skirmish")
    state, side = _acting(rules)
    unit = state.units_of(side, on_table=True)[0]
    enemy = state.enemies_of(side, on_table=True)[0]
    charge = Candidate(unit.id, (Order(unit.id, "charge", {"target": enemy.id}),), "charge", enemy)
    scored = general_score.Scored(charge, 1.0, win=Fraction(16, 25), flank=True)
    assert (
        general_score.reason(scored, "charge") == f"charged {enemy.name}: 64 % to win, flank secure"
    )
    hold = Candidate(unit.id, (Order(unit.id, "hold"),), "hold")
    assert (
        general_score.reason(general_score.Scored(hold, 0.1), "hold") == "held: no target in reach"
    )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_army_is_breaking_at_the_start(ruleset: str) -> None:
    rules = _rules(ruleset)
    sample = rules.sample_battle()
    assert sample is not None
    state = begun(rules, len(sample.units))
    params = rules.parameter_values(state.parameters)
    for side in state.sides:
        seen = view(state, Viewer.of_side(side.id))
        assert rules.general.breaking(seen, side.id, params) == 0.0
        assert not rules.army_broken(seen, side.id)


def test_tree_of_battles_breaking_counts_its_broken_contingents_to_the_army_break() -> None:
    rules, _, side, seen = _seen("tree_of_battles")
    params = rules.parameter_values(seen.parameters)
    fighting = [x for x in seen.units_of(side) if x.type != "baggage"]
    half = seen
    for unit in fighting[: len(fighting) // 2]:
        half = half.with_unit(unit.with_status(broken=True))
    share = params["army_break_share"]
    assert isinstance(share, float) and len(fighting) % 2 == 1  # short of the default half
    expected = (len(fighting) // 2) / len(fighting) / share
    assert rules.general.breaking(half, side, params) == pytest.approx(expected)
    assert not rules.army_broken(half, side)
    every = half
    for unit in fighting:
        every = every.with_unit(unit.with_status(broken=True))
    assert rules.general.breaking(every, side, params) == 1.0
    assert rules.army_broken(every, side)


def test_the_general_presses_harder_late_and_as_the_enemy_breaks() -> None:
    rules, _, side, seen = _seen("tree_of_battles")
    plain = general_score.pressure(rules, seen, side)
    limit = rules.parameter_values(seen.parameters)["max_turns"]
    assert isinstance(limit, int)
    late = replace(seen, cursor=replace(seen.cursor, turn=limit))
    assert general_score.pressure(rules, late, side) > plain
    other = next(s.id for s in seen.sides if s.id != side)
    breaking = seen
    for unit in seen.units_of(other)[:3]:
        breaking = breaking.with_unit(unit.with_status(broken=True))
    assert general_score.pressure(rules, breaking, side) > plain
    own = seen
    for unit in seen.units_of(side)[:3]:
        own = own.with_unit(unit.with_status(broken=True))
    assert general_score.pressure(rules, own, side) < plain


def test_a_charge_and_an_advance_weigh_more_under_pressure() -> None:
    rules, _, side, seen = _seen("skirmish")
    unit = seen.units_of(side, on_table=True)[0]
    enemy = seen.enemies_of(side, on_table=True)[0]
    charge = Candidate(unit.id, (Order(unit.id, "charge", {"target": enemy.id}),), "charge", enemy)
    advance = Candidate(unit.id, (Order(unit.id, "move", {"to": [enemy.x, enemy.y]}),), "advance")
    hold = Candidate(unit.id, (Order(unit.id, "hold"),), "hold")
    for candidate in (charge, advance):
        calm = general_score.score(rules, seen, candidate, (False, 0), 1.0).score
        pressed = general_score.score(rules, seen, candidate, (False, 0), 2.0).score
        assert pressed > calm, candidate.role
    calm_hold = general_score.score(rules, seen, hold, (False, 0), 1.0).score
    assert general_score.score(rules, seen, hold, (False, 0), 2.0).score == calm_hold


def test_a_march_away_from_every_enemy_is_no_advance() -> None:
    rules, _, side, seen = _seen("skirmish")
    unit = seen.units_of(side, on_table=True)[0]
    enemy = min(
        seen.enemies_of(side, on_table=True), key=lambda e: abs(e.x - unit.x) + abs(e.y - unit.y)
    )
    away = [unit.x - (enemy.x - unit.x), unit.y - (enemy.y - unit.y)]
    toward = Candidate(unit.id, (Order(unit.id, "move", {"to": [enemy.x, enemy.y]}),), "advance")
    off = Candidate(unit.id, (Order(unit.id, "move", {"to": away}),), "advance")
    hold = Candidate(unit.id, (Order(unit.id, "hold"),), "hold")
    scores = {
        c.orders[0].kind + str(c.orders[0].params.get("to")): general_score.score(
            rules, seen, c, (False, 0), 1.5
        ).score
        for c in (toward, off, hold)
    }
    held = scores["holdNone"]
    assert scores[f"move{[enemy.x, enemy.y]}"] > held > scores[f"move{away}"]


def test_a_unit_turned_away_from_the_enemy_turns_to_face_it() -> None:
    rules, _, side, seen = _seen("heroic_age")
    unit = seen.units_of(side, on_table=True)[0]
    enemy = min(seen.enemies_of(side, on_table=True), key=lambda e: (gap(unit, e), e.id))
    towards = facing_towards((unit.x, unit.y), (enemy.x, enemy.y))
    face = Order(unit.id, "manoeuvre", {"option": "change_direction", "to": [enemy.x, enemy.y]})
    hold = Candidate(unit.id, (Order(unit.id, "hold"),), "hold")
    for facing, turns in ((towards, False), ((towards + 180.0) % 360.0, True)):
        turned = seen.with_unit(replace(unit, facing=facing))
        candidate = Candidate(unit.id, (face,), "face")
        faced = general_score.score(rules, turned, candidate, (False, 0), 1.0).score
        held = general_score.score(rules, turned, hold, (False, 0), 1.0).score
        assert (faced > held) is turns, facing
    assert general_score.reason(general_score.Scored(candidate, 1.0), "face").startswith("turned")


def test_an_advance_in_line_keeps_the_units_place_and_outweighs_one_on_the_nearest() -> None:
    rules, _, side, seen = _seen("hail_caesar")
    found = [
        c
        for actor, kinds in candidates.actors(rules, seen, side)
        for c in candidates.of_actor(rules, seen, actor, kinds)
        if c.role == "advance"
    ]
    line = next(c for c in found if c.in_line)
    unit = seen.unit(line.actor)
    friends = seen.units_of(side, on_table=True)
    enemies = seen.enemies_of(side, on_table=True)
    shift = (
        sum(e.x for e in enemies) / len(enemies) - sum(f.x for f in friends) / len(friends),
        sum(e.y for e in enemies) / len(enemies) - sum(f.y for f in friends) / len(friends),
    )
    assert line.orders[0].params["to"] == pytest.approx([unit.x + shift[0], unit.y + shift[1]])
    nearest = next(c for c in found if c.actor == line.actor and not c.in_line)
    board = general_score.board(rules, seen, unit.id)
    assert (
        general_score.score(rules, seen, line, board).score
        > general_score.score(rules, seen, nearest, board).score
    )
    assert general_score.reason(general_score.Scored(line, 1.0), "advance").startswith(
        "advanced in line on the enemy"
    )


def test_a_target_a_friend_attacks_is_worth_more_and_a_lone_charge_waits_for_support() -> None:
    rules, _, side, seen = _seen("skirmish")
    unit, friend = seen.units_of(side, on_table=True)[:2]
    enemy = min(seen.enemies_of(side, on_table=True), key=lambda e: (gap(unit, e), e.id))
    others = [e for e in seen.enemies_of(side, on_table=True) if e.id != enemy.id]
    # the charger stands alone, two enemies beside its target: it is outnumbered locally
    alone = seen
    for far in seen.units_of(side, on_table=True)[1:]:
        alone = alone.with_unit(replace(far, x=1.0, y=1.0))
    for near in others[:2]:
        alone = alone.with_unit(replace(near, x=enemy.x + 1.0, y=enemy.y))
    for near in others[2:]:
        alone = alone.with_unit(replace(near, x=1.0, y=1.0))
    order = Order(unit.id, "charge", {"target": enemy.id})
    charge = general_score.Scored(Candidate(unit.id, (order,), "charge", enemy), 1.0)
    calm, pressed = Concert(rules, alone, 1.0), Concert(rules, alone, 3.0)
    assert calm.bonus(charge) < pressed.bonus(charge) < 0.0  # patience: waits, less when pressed
    shot = Order(friend.id, "shoot", {"target": enemy.id})
    calm.chose(general_score.Scored(Candidate(friend.id, (shot,), "shoot", enemy), 1.0))
    assert calm.bonus(charge) == pytest.approx(rules.general.weights.focus)  # supported now
    hold = general_score.Scored(Candidate(unit.id, (Order(unit.id, "hold"),), "hold"), 1.0)
    assert calm.bonus(hold) == 0.0


def test_the_look_ahead_weighs_the_enemys_best_charge_on_where_the_unit_ends() -> None:
    plain, _, side, seen = _seen("skirmish")
    rules = copy.copy(plain)  # the look-ahead on (its weight is 0 where it measured worse)
    rules.general = replace(plain.general, weights=replace(plain.general.weights, reply=1.0))
    unit = seen.units_of(side, on_table=True)[0]
    enemy = min(seen.enemies_of(side, on_table=True), key=lambda e: (gap(unit, e), e.id))
    hold = general_score.Scored(Candidate(unit.id, (Order(unit.id, "hold"),), "hold"), 1.0)
    for other in seen.enemies_of(side, on_table=True):  # one enemy left on the table
        if other.id != enemy.id:
            seen = seen.with_unit(replace(other, location=OFF_TABLE))
    near = seen.with_unit(replace(unit, x=enemy.x + 2.0, y=enemy.y))
    assert general_reply.reply_cost(rules, near, hold) > 0.0  # the enemy can charge it there
    reach = rules.reach(seen, enemy, "move") + rules.reach(seen, unit, "move")
    far = replace(unit, x=enemy.x + reach + 2.0, y=enemy.y)
    assert general_reply.reply_cost(rules, seen.with_unit(far), hold) == 0.0  # out of reach
    into = Order(unit.id, "move", {"to": [enemy.x, enemy.y]})
    advance = general_score.Scored(Candidate(unit.id, (into,), "advance"), 1.0)
    close = seen.with_unit(far)
    assert general_reply.reply_cost(rules, close, advance) > 0.0  # it walks into the reach
    assert general_reply.reply_cost(rules, close, hold) == 0.0


def test_a_charge_on_a_worn_enemy_weighs_more_the_more_worn_it_is() -> None:
    rules, _, side, seen = _seen("tree_of_battles")
    unit = seen.units_of(side, on_table=True)[0]
    enemy = min(seen.enemies_of(side, on_table=True), key=lambda e: (gap(unit, e), e.id))
    fresh = replace(enemy, status={**enemy.status, "casualties": 0, "array": "good"})
    worn = replace(fresh, status={**fresh.status, "array": "disarray"})
    assert rules.general.worn(seen, fresh) == 0.0 < rules.general.worn(seen, worn)
    plain = copy.copy(rules)  # the same rules with no weight on wear
    plain.general = replace(rules.general, weights=replace(rules.general.weights, worn=0.0))
    gains = []
    for judged in (rules, plain):
        scores = []
        for target in (fresh, worn):
            order = Order(unit.id, "charge", {"target": target.id})
            candidate = Candidate(unit.id, (order,), "charge", target)
            at = seen.with_unit(target)
            scores.append(general_score.score(judged, at, candidate, (False, 0), 1.0).score)
        gains.append(scores[1] - scores[0])
    worth = rules.general.weights.worn * rules.general.worn(seen, worn)
    assert gains[0] - gains[1] == pytest.approx(worth) and worth > 0.0
