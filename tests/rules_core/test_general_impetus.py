"""Impetus's AI general (#36): it reads its odds as they are worded ("Legio IX wins")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot import ai_bench
from rules_core import engine, general, general_score, registry
from rules_core.decisions import GM, Answer
from rules_core.general_candidates import Candidate
from rules_core.odds import Odds, OddsQuery
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.rulesets.impetus import general_drill
from rules_core.secrets import Viewer, view
from rules_core.state import BattleState


def _rules() -> Rules:
    rules = registry.get("impetus").rules
    assert rules is not None
    return rules


def _facing(rules: Rules, charger: str, target: str, gap: float) -> BattleState:
    """The sample battle deployed, ``charger`` placed ``gap`` H in front of ``target``."""
    state, _ = ai_bench.play(rules, ai_bench.start(rules, None), frozenset(), 0, last=0)
    enemy = state.unit(target)
    unit = state.unit(charger)
    ahead = enemy.y + enemy.depth / 2 + unit.depth / 2 + gap
    moved = replace(unit, x=enemy.x, y=ahead, facing=180.0)
    return replace(state, units=tuple(moved if u.id == charger else u for u in state.units))


def test_a_charge_reads_the_win_named_for_each_side_of_the_melee() -> None:
    """The result table names the winner ("Noble Cavalry wins", "Legio IX wins"): the charge's
    chance to win is the charger's, its chance to lose the target's (read as words alone,
    both were a win, and a charge into a legion looked 80 % to win and never to lose)."""
    rules = _rules()
    state = _facing(rules, "gauls4", "romans2", 1.0)
    order = Order("gauls4", "charge", {"target": "romans2"})
    odds = rules.odds(state, OddsQuery.of_order(order))
    assert isinstance(odds, Odds)
    result = {c.label: c.chance for c in odds.tables[-1].chances}
    candidate = Candidate("gauls4", (order,), "charge", state.unit("romans2"))
    win, lose, _, _ = general_score.charge_chances(rules, state, candidate)
    assert win == result["Noble Cavalry wins"]
    assert lose == result["Legio IX wins"]
    assert lose > win  # cavalry into a legion's front: more likely lost than won


def _at_move(rules: Rules, side: str) -> BattleState:
    """The sample battle at the first move step of one of ``side``'s commands (both sides
    giving no orders and the defaults' answers until then)."""
    state = ai_bench.start(rules, None)
    for _ in range(500):
        subject = state.cursor.subject
        if state.cursor.step == "move" and subject is not None and subject.side == side:
            return state
        if state.pending is not None:
            decision = state.pending.decision
            given = Answer(decision.id, decision.default, GM)
            state = engine.answer(rules, b"impetus-drill", state, given).state
        else:
            state = engine.run(rules, b"impetus-drill", state, []).state
    raise AssertionError("no move step of the side")


def _placed(state: BattleState, unit_id: str, gap: float) -> BattleState:
    """``unit_id`` placed ``gap`` H (edge to edge) straight in front of its nearest enemy."""
    unit = state.unit(unit_id)
    enemy = min(state.enemies_of(unit.side, on_table=True), key=lambda e: abs(e.x - unit.x) + e.y)
    sign = 1.0 if unit.facing > 90.0 else -1.0  # Gauls face south (180°): they stand north
    y = enemy.y + sign * (enemy.depth / 2 + unit.depth / 2 + gap)
    moved = replace(unit, x=enemy.x, y=y)
    return replace(state, units=tuple(moved if u.id == unit_id else u for u in state.units))


def _distances(orders: list[Order], unit_id: str) -> list[float]:
    return [o.number("distance", 0.0) for o in orders if o.actor == unit_id]


def test_impetus_drill_moves_a_unit_just_within_its_charge_reach() -> None:
    """A unit beyond its charge reach moves only as far as brings it within reach (the demo
    moved a full move, or none within 3H of a full move, and waited outside reach); a unit
    within reach stays to charge."""
    rules = _rules()
    state = _at_move(rules, "gauls")
    subject = state.cursor.subject
    assert subject is not None
    unit = next(u for u in state.units_of("gauls") if u.group == subject.id)
    params = rules.parameter_values(state.parameters)
    charge = general_drill.reach(unit, params)
    near = _placed(state, unit.id, charge + 1.0)
    moved = _distances(_planned(rules, near), unit.id)
    assert moved and sum(moved) == pytest.approx(1.0 + general_drill.INSIDE)
    inside = _placed(state, unit.id, charge - 0.5)
    assert _distances(_planned(rules, inside), unit.id) == []


def _planned(rules: Rules, state: BattleState) -> list[Order]:
    """The general's orders for the Gauls, from their view."""
    advice = general.plan_side(rules, view(state, Viewer.of_side("gauls")), "gauls", budget_s=5)
    return [a.order for a in advice]
