"""Impetus's AI general (#36): it reads its odds as they are worded ("Legio IX wins")."""

from __future__ import annotations

from dataclasses import replace

from bot import ai_bench
from rules_core import general_score, registry
from rules_core.general_candidates import Candidate
from rules_core.odds import Odds, OddsQuery
from rules_core.orders import Order
from rules_core.plugin import Rules
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
