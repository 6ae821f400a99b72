"""Planning ahead in the core: the steps still to come in a game turn, previews of orders
planned for them, and planned orders judged again when their step comes."""

from __future__ import annotations

from dataclasses import replace

from rules_core import engine, planning, registry
from rules_core.decisions import Answer
from rules_core.events import PlanAlternativeUsed
from rules_core.orders import Illegal, Order, Preview
from rules_core.plugin import Rules
from rules_core.state import BattleState, Unit

SEED = b"plan"


def _hail_caesar_turn_one() -> tuple[Rules, BattleState]:
    rules = registry.get("hail_caesar").rules
    assert rules is not None
    sample = rules.sample_battle()
    assert sample is not None
    state = engine.begin(rules, sample)
    orders = [o for s in engine.waiting(rules, state).sides for o in rules.demo_orders(state, s)]
    return rules, engine.run(rules, SEED, state, orders).state


def test_the_turn_lists_each_sides_steps_with_their_subjects() -> None:
    rules, state = _hail_caesar_turn_one()
    steps = planning.turn_steps(rules, state)
    first = state.cursor.side_order[0]
    mine = planning.side_steps(rules, state, first)
    assert mine[0].step == "army" and mine[-1].step == "shooting"
    divisions = [s.subject for s in mine if s.step == "orders"]
    assert divisions and None not in divisions
    assert all(s.sides == (first,) for s in mine)
    other = planning.side_steps(rules, state, state.cursor.side_order[1])
    assert len(steps) == len(mine) + len(other)
    assert steps[0].key == planning.current_key(rules, state)
    assert len({s.key for s in steps}) == len(steps)
    assert all(s.turn == state.cursor.turn for s in steps)


def test_an_order_for_a_later_division_is_previewed_there_and_refused_now() -> None:
    rules, state = _hail_caesar_turn_one()
    side = state.cursor.side_order[0]
    later = [s for s in planning.side_steps(rules, state, side) if s.step == "orders"][-1]
    unit = next(u for u in state.units_of(side) if u.group == later.subject)
    order = Order(unit.id, "hold")
    assert isinstance(planning.preview(rules, state, later, order), Preview)
    assert isinstance(rules.judge(state, Order(unit.id, "form", {"formation": "x"})), Illegal)


def _last_division() -> tuple[Rules, BattleState, planning.TurnStep, Unit]:
    """Turn 1 of Hail Caesar: the first side's last division's orders step and a unit of it."""
    rules, state = _hail_caesar_turn_one()
    side = state.cursor.side_order[0]
    later = [s for s in planning.side_steps(rules, state, side) if s.step == "orders"][-1]
    return rules, state, later, next(u for u in state.units_of(side) if u.group == later.subject)


def test_a_planned_order_no_longer_legal_falls_back_and_names_who_to_consult() -> None:
    rules, state, later, unit = _last_division()
    side, there = unit.side, planning.at_step(state, later)
    good = planning.Planned(later.key, side, Order(unit.id, "hold"))
    gone = planning.Planned(later.key, side, Order("nobody", "hold"), consult=True)
    assert planning.due(rules, there, [good, gone]) == (good, gone)
    assert planning.due(rules, state, [good, gone]) == ()
    result = planning.carry_out(rules, there, [good, gone])
    assert result.orders == (good.order,)
    assert [f.planned for f in result.fallbacks] == [gone]
    assert "nobody" in result.fallbacks[0].reason
    assert result.consult == (side,)
    quiet = planning.carry_out(rules, there, [replace(gone, consult=False)])
    assert quiet.consult == () and len(quiet.fallbacks) == 1


def test_a_step_resolves_at_once_only_when_every_acting_side_is_covered() -> None:
    assert planning.covered(("a", "b"), {"a"}, {"b"})
    assert not planning.covered(("a", "b"), {"a"}, set())
    assert not planning.covered((), {"a"}, {"a"})
    assert not planning.covered(("gm",), set(), {"gm"})


def test_the_turn_ends_where_the_next_turn_begins() -> None:
    rules = registry.get("tree_of_battles").rules
    assert rules is not None
    sample = rules.sample_battle()
    assert sample is not None
    state = engine.begin(rules, sample)
    steps = planning.turn_steps(rules, state)
    assert [s.step for s in steps][-1] == "charges"
    assert all(s.sides == tuple(state.cursor.side_order) for s in steps)


def test_a_planned_order_falls_through_to_its_first_legal_alternative_and_says_why() -> None:
    rules, state, later, unit = _last_division()
    side, there = unit.side, planning.at_step(state, later)
    far = Order(unit.id, "move", {"to": [unit.x, unit.y + 40]})
    also_far = Order(unit.id, "move", {"to": [unit.x, unit.y + 30]})
    hold = Order(unit.id, "hold")
    conditional = planning.Planned(later.key, side, far, alternatives=(also_far, hold))
    result = planning.carry_out(rules, there, [conditional])
    assert result.orders == (hold,) and result.fallbacks == ()
    (used,) = result.substitutes
    assert used.number == 2 and used.used == hold
    why = [v.reason for v in (rules.judge(there, far), rules.judge(there, also_far))]
    assert used.reason == f"{why[0]}; alternative 1 (move): {why[1]}"
    log = planning.run_planned(rules, SEED, there, result).events
    (note,) = [e for e in log if isinstance(e, PlanAlternativeUsed)]
    assert (note.actor, note.order_kind, note.number, note.used_kind) == (
        unit.id,
        "move",
        2,
        "hold",
    )
    verdicts = planning.preview_alternatives(rules, state, later, (also_far, hold))
    assert isinstance(verdicts[0], Illegal) and isinstance(verdicts[1], Preview)
    # None legal: the default, and the reason names every one tried.
    hopeless = replace(conditional, alternatives=(also_far,))
    dropped = planning.carry_out(rules, there, [hopeless])
    assert dropped.orders == () and dropped.substitutes == ()
    assert "alternative 1 (move): " in dropped.fallbacks[0].reason


def test_the_battle_is_foreseen_after_a_sides_own_earlier_planned_orders_only() -> None:
    rules, state, later, unit = _last_division()
    side = unit.side
    mine = planning.side_steps(rules, state, side)
    earlier = next(s for s in mine if s.key != later.key and s.step == "orders")
    moved = rules.demo_orders(planning.at_step(state, earlier), side)  # moves, its general's
    assert [o for o in moved if o.kind == "move"]
    plan = [planning.Planned(earlier.key, side, o) for o in moved]
    there = planning.foreseen(rules, state, later, plan, side)
    assert there.cursor == later.cursor
    # its dice are the foresight's, never the battle's: a preview must not tell how they fall
    by_foresight = engine.resolve(
        rules, planning.FORESIGHT_SEED, planning.at_step(state, earlier), moved
    ).state
    assert all(there.unit(o.actor) == by_foresight.unit(o.actor) for o in moved if o.kind == "move")
    changed = {u.id for u in there.units if u != state.unit(u.id)}
    assert changed and changed <= {o.actor for o in moved}  # only the side's own, as planned
    other = [u for u in state.units if u.side != side]
    assert all(there.unit(u.id) == u for u in other)  # the enemy where it stands now
    # Planned for the other side, or for the step itself or later: nothing moves.
    theirs = [replace(p, side="someone else") for p in plan]
    assert planning.foreseen(rules, state, later, theirs, side).units == state.units
    assert planning.foreseen(rules, state, earlier, plan, side).units == state.units


def test_the_next_turn_lists_each_sides_steps_with_the_keys_they_will_have() -> None:
    """A plan for the next turn is kept under the keys its steps get when it opens."""
    rules, state = _hail_caesar_turn_one()
    turn = state.cursor.turn
    first = state.cursor.side_order[0]
    ahead = planning.next_turn_steps(rules, state, first)
    assert ahead and all(s.turn == turn + 1 and s.sides == (first,) for s in ahead)
    assert {s.key for s in planning.next_turn(rules, state) if first in s.sides} == {
        s.key for s in ahead
    }
    # Play the whole turn out: the next one opens with exactly those steps and keys.
    while state.cursor.turn == turn:
        if state.pending is not None:
            asked = state.pending.decision
            answer = Answer(asked.id, rules.demo_answer(state), asked.who)
            state = engine.settle(rules, SEED, engine.answer(rules, SEED, state, answer)).state
            continue
        orders = [
            o for s in engine.waiting(rules, state).sides for o in rules.demo_orders(state, s)
        ]
        state = engine.settle(rules, SEED, engine.run(rules, SEED, state, orders)).state
    opened = planning.side_steps(rules, state, first)
    assert [s.key for s in opened] == [s.key for s in ahead]
    assert planning.next_turn_steps(rules, replace(state, outcome=None), first)
    assert not planning.next_turn(rules, engine.begin(rules, rules.sample_battle() or state))
